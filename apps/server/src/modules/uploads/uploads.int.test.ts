import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';

function multipart(filename: string, type: string, content: Buffer, field = 'image') {
  const boundary = '----sendwell-upload';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload };
}

async function upload(client: TestClient, url: string, filename: string, type: string, content: Buffer) {
  return client.request({ method: 'POST', url, ...multipart(filename, type, content) });
}

const png = () =>
  sharp({ create: { width: 40, height: 20, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer();

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
