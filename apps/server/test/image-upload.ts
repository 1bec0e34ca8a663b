import sharp from 'sharp';
import type { TestClient } from './build-app.ts';

/** A multipart/form-data body with one file in `field`, as a browser's upload form posts it. */
export function multipart(filename: string, type: string, content: Buffer, field = 'image') {
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

/** Posts one file to an upload route. */
export async function upload(client: TestClient, url: string, filename: string, type: string, content: Buffer) {
  return client.request({ method: 'POST', url, ...multipart(filename, type, content) });
}

/** A small real PNG (40 × 20). */
export const png = () =>
  sharp({ create: { width: 40, height: 20, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer();
