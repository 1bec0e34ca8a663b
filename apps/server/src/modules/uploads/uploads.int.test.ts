import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { signUpUser, useTestApp } from '../../../test/build-app.ts';
import { png, upload } from '../../../test/image-upload.ts';

describe('image uploads', () => {
  const t = useTestApp();

  it('accepts an image by its bytes, whatever its name, re-encoded without metadata', async () => {
    const { client } = await signUpUser(t());
    const withExif = await sharp(await png())
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-gps-owner' } } })
      .toBuffer();
    expect(withExif.toString('latin1')).toContain('secret-gps-owner');
    const response = await upload(client, '/api/upload/image', 'photo.txt', 'text/plain', withExif);
    expect(response.statusCode, response.body).toBe(201);
    const image = response.json();
    expect(image).toMatchObject({ width: 40, height: 20 });
    expect(image.url).toMatch(/^\/uploads\/[a-f0-9]{32}\.jpg$/);
    const served = await t().client().get(image.url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['cache-control']).toContain('immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.toString('latin1')).not.toContain('secret-gps-owner');
    const pngUpload = await upload(client, '/api/upload/image', 'notes.txt', 'text/plain', await png());
    expect(pngUpload.json().url).toMatch(/\.png$/);
  });

  it('refuses HTML named .png, SVG and other non-images with the spec message', async () => {
    const { client } = await signUpUser(t());
    for (const [name, type, content] of [
      ['logo.png', 'image/png', Buffer.from('<html><script>alert(1)</script></html>')],
      [
        'logo.svg',
        'image/svg+xml',
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      ],
      ['doc.pdf', 'application/pdf', Buffer.from('%PDF-1.4 fake')],
    ] as const) {
      const response = await upload(client, '/api/upload/image', name, type, content);
      expect(response.statusCode, name).toBe(400);
      expect(response.json().message).toBe('Please select an image file (JPG, PNG, GIF, etc.)');
    }
  });

  it('refuses an image over 5 MB with 413 and the spec message', async () => {
    const { client } = await signUpUser(t());
    const big = Buffer.concat([await png(), Buffer.alloc(6 * 1024 * 1024)]);
    const response = await upload(client, '/api/upload/image', 'big.png', 'image/png', big);
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe('Please select an image smaller than 5MB');
  });

  it('needs a session, and an unknown stored name is a 404', async () => {
    expect((await upload(t().client(), '/api/upload/image', 'a.png', 'image/png', await png())).statusCode).toBe(401);
    expect((await t().client().get('/uploads/../../etc/passwd')).statusCode).toBe(404);
    expect((await t().client().get('/uploads/0123456789abcdef0123456789abcdef.png')).statusCode).toBe(404);
  });

  it('keeps a logo library per user', async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const logo = (await upload(a.client, '/api/logos', 'logo.png', 'image/png', await png())).json();
    expect((await a.client.get('/api/logos')).json().map((l: { id: number }) => l.id)).toEqual([logo.id]);
    expect((await b.client.get('/api/logos')).json()).toEqual([]);
    expect((await b.client.delete(`/api/logos/${logo.id}`)).statusCode).toBe(404);
    expect((await a.client.delete(`/api/logos/${logo.id}`)).statusCode).toBe(204);
    expect((await a.client.get('/api/logos')).json()).toEqual([]);
  });
});

/** A PNG of random pixels: it does not compress, so it keeps about `kilobytes` KB once re-encoded. */
const noisyPng = (kilobytes: number) => {
  const width = 256;
  const height = Math.ceil((kilobytes * 1024) / (width * 3));
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
};

describe('upload storage per account', () => {
  const t = useTestApp({ UPLOAD_QUOTA_MB: '1' });
  const fileOf = (url: string) => path.join(t().ctx.config.dataDir, 'uploads', url.slice('/uploads/'.length));

  it('uploads have no per-account quota: an upload past the account’s quota answers 413 with a clear message; deleting a logo makes room', async () => {
    const { client } = await signUpUser(t());
    const first = await upload(client, '/api/logos', 'a.png', 'image/png', await noisyPng(600));
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().bytes).toBeGreaterThan(500 * 1024);
    const second = await upload(client, '/api/upload/image', 'b.png', 'image/png', await noisyPng(600));
    expect(second.statusCode, second.body).toBe(413);
    expect(second.json().message).toMatch(
      /^Your uploads would go over your 1 MB storage limit \(0\.\d MB used\)\. Delete logos you no longer need/,
    );
    // Another account has its own room.
    const other = await signUpUser(t());
    expect((await upload(other.client, '/api/logos', 'c.png', 'image/png', await noisyPng(600))).statusCode).toBe(201);

    expect((await client.delete(`/api/logos/${first.json().id}`)).statusCode).toBe(204);
    expect((await upload(client, '/api/upload/image', 'b.png', 'image/png', await noisyPng(600))).statusCode).toBe(201);
  });

  it('uploads have no per-account quota: two uploads at once cannot both take the room left for one', async () => {
    const { client } = await signUpUser(t());
    const [a, b] = await Promise.all([noisyPng(600), noisyPng(600)]);
    const answers = await Promise.all([
      upload(client, '/api/logos', 'a.png', 'image/png', a as Buffer),
      upload(client, '/api/logos', 'b.png', 'image/png', b as Buffer),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 413]);
    expect((await client.get('/api/logos')).json()).toHaveLength(1);
  });

  it('deleted logos keep their files: the file goes with its logo, unless a campaign still shows it', async () => {
    const { client } = await signUpUser(t());
    const logo = (await upload(client, '/api/logos', 'logo.png', 'image/png', await png())).json();
    expect(existsSync(fileOf(logo.url))).toBe(true);
    expect((await client.delete(`/api/logos/${logo.id}`)).statusCode).toBe(204);
    expect(existsSync(fileOf(logo.url))).toBe(false);
    expect((await t().client().get(logo.url)).statusCode).toBe(404);

    // A logo in a campaign (mail that was sent points at it) leaves the library but keeps its file.
    const shown = (await upload(client, '/api/logos', 'shown.png', 'image/png', await png())).json();
    const campaign = await client.post('/api/campaigns', {
      name: 'With logo',
      subject: 'Hi',
      fromEmail: 'news@acme.example',
      content: { html: '' },
      blocks: [{ id: 'i', type: 'image', content: { src: `http://localhost:5000${shown.url}`, alt: 'Logo' } }],
    });
    expect(campaign.statusCode, campaign.body).toBe(201);
    expect((await client.delete(`/api/logos/${shown.id}`)).statusCode).toBe(204);
    expect((await client.get('/api/logos')).json()).toEqual([]);
    expect(existsSync(fileOf(shown.url))).toBe(true);
    expect((await t().client().get(shown.url)).statusCode).toBe(200);
    expect((await client.delete(`/api/logos/${shown.id}`)).statusCode).toBe(404);
  });
});
