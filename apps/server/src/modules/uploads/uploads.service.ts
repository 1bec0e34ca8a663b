import { randomBytes } from 'node:crypto';
import type { OutputInfo } from 'sharp';
import {
  IMAGE_TOO_LARGE_MESSAGE,
  INVALID_IMAGE_MESSAGE,
  MAX_IMAGE_BYTES,
  uploadQuotaMessage,
  type UploadedImage,
} from '@sendwell/contract/uploads';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { FileStorage } from '../../lib/storage.ts';
import * as repo from './uploads.repo.ts';

/** Formats we accept, by what the bytes are (not the declared type). SVG is refused: it can carry script. */
const FORMATS = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' } as const;
type Extension = (typeof FORMATS)[keyof typeof FORMATS];
const CONTENT_TYPES: Record<Extension, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};
const STORED_NAME = /^[a-f0-9]{32}\.(png|jpg|gif|webp)$/;

function toUploadedImage(row: repo.UploadedImageRow): UploadedImage {
  return {
    id: row.id,
    url: row.url,
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Checks an upload by its bytes, re-encodes it with sharp (which drops EXIF and other metadata,
 * after applying the orientation) and stores it under a random name, if it fits in what is left of
 * the account's upload quota (413 otherwise; checked and recorded under a per-user lock).
 */
export async function storeImage(
  db: Db,
  storage: FileStorage,
  userId: string,
  data: Buffer,
  kind: 'image' | 'logo',
  quotaBytes: number,
): Promise<UploadedImage> {
  if (data.length > MAX_IMAGE_BYTES) throw new AppError('too_large', IMAGE_TOO_LARGE_MESSAGE);
  // Loaded at the first upload, not at start.
  const [{ fileTypeFromBuffer }, { default: sharp }] = await Promise.all([import('file-type'), import('sharp')]);
  const detected = await fileTypeFromBuffer(data);
  const extension = detected ? FORMATS[detected.mime as keyof typeof FORMATS] : undefined;
  if (!extension) throw new AppError('bad_request', INVALID_IMAGE_MESSAGE);
  let output: { data: Buffer; info: OutputInfo };
  try {
    const image = sharp(data, {
      animated: extension === 'gif' || extension === 'webp',
      limitInputPixels: 40_000_000,
    }).rotate();
    const encoded =
      extension === 'png'
        ? image.png()
        : extension === 'jpg'
          ? image.jpeg({ quality: 85, mozjpeg: true })
          : extension === 'gif'
            ? image.gif()
            : image.webp({ quality: 85 });
    output = await encoded.toBuffer({ resolveWithObject: true });
  } catch {
    throw new AppError('bad_request', INVALID_IMAGE_MESSAGE);
  }
  const name = `${randomBytes(16).toString('hex')}.${extension}`;
  let written = false;
  try {
    const row = await db.transaction(async (tx) => {
      const used = await repo.lockedUploadBytes(tx, userId);
      if (used + output.data.length > quotaBytes) throw new AppError('too_large', uploadQuotaMessage(used, quotaBytes));
      await storage.put(name, output.data);
      written = true;
      return repo.insertUploadedImage(tx, {
        userId,
        kind,
        storageKey: name,
        url: `/uploads/${name}`,
        width: output.info.width,
        height: output.info.pageHeight ?? output.info.height,
        bytes: output.data.length,
      });
    });
    return toUploadedImage(row);
  } catch (error) {
    // No row points at the file: it goes too.
    if (written) await storage.remove(name).catch(() => undefined);
    throw error;
  }
}

export async function logosOf(db: Db, userId: string): Promise<UploadedImage[]> {
  return (await repo.listLogos(db, userId)).map(toUploadedImage);
}

/**
 * Removes a logo from the library, and its file with it. A logo one of the user's campaigns still
 * shows (mail already sent points at it) keeps its file: it leaves the library as a plain upload,
 * still counted in the quota.
 */
export async function deleteLogo(db: Db, storage: FileStorage, userId: string, id: number): Promise<void> {
  const removed = await db.transaction(async (tx) => {
    const logo = await repo.lockLogo(tx, userId, id);
    if (!logo) throw new AppError('not_found', 'Logo not found');
    if (await repo.campaignShows(tx, userId, logo.storageKey)) {
      await repo.retireLogo(tx, logo.id);
      return null;
    }
    await repo.deleteUploadedImage(tx, logo.id);
    return logo.storageKey;
  });
  if (removed) await storage.remove(removed);
}

/** A stored image by its random name, with its content type; any other name is not found. */
export async function storedImage(storage: FileStorage, name: string): Promise<{ data: Buffer; contentType: string }> {
  const data = STORED_NAME.test(name) ? await storage.get(name) : null;
  if (!data) throw new AppError('not_found', 'Not found');
  const extension = name.split('.').pop() as Extension;
  return { data, contentType: CONTENT_TYPES[extension] };
}
