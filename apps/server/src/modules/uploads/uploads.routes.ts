import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { idParamsSchema } from '@sendwell/contract/common';
import {
  IMAGE_TOO_LARGE_MESSAGE,
  INVALID_IMAGE_MESSAGE,
  logoListSchema,
  MAX_IMAGE_BYTES,
  storedImageParamsSchema,
  uploadedImageSchema,
} from '@sendwell/contract/uploads';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { localStorage } from '../../lib/storage.ts';
import { requireUser } from '../auth/index.ts';
import { deleteLogo, logosOf, storedImage, storeImage } from './uploads.service.ts';

/** The `image` part of a multipart upload, read whole (at most 5 MB + 1 byte, to tell "too large"). */
async function imagePart(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw new AppError('bad_request', INVALID_IMAGE_MESSAGE);
  const file = await request.file({ limits: { fileSize: MAX_IMAGE_BYTES, files: 1 }, throwFileSizeLimit: false });
  if (!file || file.fieldname !== 'image')
    throw new AppError('bad_request', 'Choose an image to upload (form field "image")');
  const data = await file.toBuffer();
  if (file.file.truncated) throw new AppError('too_large', IMAGE_TOO_LARGE_MESSAGE);
  return data;
}

/**
 * Route table:
 *   user   POST   /api/upload/image   multipart `image` → {url, …} (413 past the account's UPLOAD_QUOTA_MB)
 *   user   GET    /api/logos          the Logo Library
 *   user   POST   /api/logos          multipart `image`
 *   user   DELETE /api/logos/:id
 *   public GET    /uploads/:name      stored images (random names), long cache
 */
export const uploadRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const storage = localStorage(path.join(ctx.config.dataDir, 'uploads'));
  const signedIn = requireUser(ctx.db, ctx.config);
  const quota = ctx.config.uploadQuotaBytes;
  await app.register(multipart);

  app.post(
    '/api/upload/image',
    { guard: signedIn, schema: { response: { 201: uploadedImageSchema } } },
    async (request, reply) =>
      reply
        .status(201)
        .send(await storeImage(ctx.db, storage, request.signedIn.user.id, await imagePart(request), 'image', quota)),
  );

  app.get('/api/logos', { guard: signedIn, schema: { response: { 200: logoListSchema } } }, async (request) =>
    logosOf(ctx.db, request.signedIn.user.id),
  );

  app.post(
    '/api/logos',
    { guard: signedIn, schema: { response: { 201: uploadedImageSchema } } },
    async (request, reply) =>
      reply
        .status(201)
        .send(await storeImage(ctx.db, storage, request.signedIn.user.id, await imagePart(request), 'logo', quota)),
  );

  app.delete('/api/logos/:id', { guard: signedIn, schema: { params: idParamsSchema } }, async (request, reply) => {
    await deleteLogo(ctx.db, storage, request.signedIn.user.id, request.params.id);
    return reply.status(204).send();
  });

  app.get(
    '/uploads/:name',
    { guard: 'public', schema: { params: storedImageParamsSchema } },
    async (request, reply) => {
      const { data, contentType } = await storedImage(storage, request.params.name);
      return reply
        .type(contentType)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(data);
    },
  );
};
