import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { registerWebApp } from './web-app.ts';

/** A web build as apps/web/vite.config.ts writes it: each text file with its .br and .gz copies. */
function fakeBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sendwell-web-'));
  mkdirSync(path.join(dir, 'assets'));
  const files = {
    'index.html': `<!doctype html><html><body>${'<p>app</p>'.repeat(200)}</body></html>`,
    'assets/app-1a2b.js': `console.log(${JSON.stringify('x'.repeat(4000))});`,
  };
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(path.join(dir, name), content);
    writeFileSync(path.join(dir, `${name}.br`), brotliCompressSync(content));
    writeFileSync(path.join(dir, `${name}.gz`), gzipSync(content));
  }
  return dir;
}

describe('the web app is sent compressed', () => {
  const dir = fakeBuild();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function get(url: string, acceptEncoding?: string) {
    const app = Fastify();
    await registerWebApp(app, true, dir);
    const response = await app.inject({ url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
    await app.close();
    return response;
  }

  it('as Brotli or gzip when the browser accepts it, else as it is; Vary names the header', async () => {
    const br = await get('/assets/app-1a2b.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toMatch(/^console\.log/);

    const gz = await get('/assets/app-1a2b.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toMatch(/^console\.log/);

    const plain = await get('/assets/app-1a2b.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toMatch(/^console\.log/);
  });

  it('the page of every client route too (index.html), never cached', async () => {
    const page = await get('/campaigns/12', 'br');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(page.rawPayload).toString()).toMatch(/^<!doctype html>/);
  });
});
