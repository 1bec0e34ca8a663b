import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { brandKitBodySchema, brandKitSchema } from '@sendwell/contract/brand-kit';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../auth/index.ts';
import * as brandKit from './brand-kit.service.ts';

/**
 * Route table (signed-in, scoped to the user): the account's brand kit.
 *   GET /api/brand-kit
 *   PUT /api/brand-kit  {logoUrl, logoAlt, headerBackground, primaryColor, textColor, fontFamily, address, applyToNew}
 */
export const brandKitRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db, config } = ctx;
  const signedIn = requireUser(db, config);

  app.get('/api/brand-kit', { guard: signedIn, schema: { response: { 200: brandKitSchema } } }, async (request) =>
    brandKit.brandKitOf(db, request.signedIn.user.id),
  );

  app.put(
    '/api/brand-kit',
    { guard: signedIn, schema: { body: brandKitBodySchema, response: { 200: brandKitSchema } } },
    async (request) => brandKit.saveBrandKit(db, request.signedIn.user.id, request.body),
  );
};
