import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '@sendwell/contract/common';
import {
  createSavedBlockBodySchema,
  renameSavedBlockBodySchema,
  savedBlockListSchema,
  savedBlockSchema,
} from '@sendwell/contract/saved-blocks';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../auth/index.ts';
import * as saved from './saved-blocks.service.ts';

/**
 * Route table (signed-in, scoped to the user): blocks saved from the editor's canvas to reuse.
 *   GET    /api/saved-blocks
 *   POST   /api/saved-blocks      {name, blocks}
 *   PATCH  /api/saved-blocks/:id  {name}
 *   DELETE /api/saved-blocks/:id
 */
export const savedBlockRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db, config } = ctx;
  const signedIn = requireUser(db, config);

  app.get(
    '/api/saved-blocks',
    { guard: signedIn, schema: { response: { 200: savedBlockListSchema } } },
    async (request) => saved.savedBlocksOf(db, request.signedIn.user.id),
  );

  app.post(
    '/api/saved-blocks',
    { guard: signedIn, schema: { body: createSavedBlockBodySchema, response: { 201: savedBlockSchema } } },
    async (request, reply) =>
      reply.status(201).send(await saved.createSavedBlock(db, request.signedIn.user.id, request.body)),
  );

  app.patch(
    '/api/saved-blocks/:id',
    {
      guard: signedIn,
      schema: { params: idParamsSchema, body: renameSavedBlockBodySchema, response: { 200: savedBlockSchema } },
    },
    async (request) => saved.renameSavedBlock(db, request.signedIn.user.id, request.params.id, request.body.name),
  );

  app.delete(
    '/api/saved-blocks/:id',
    { guard: signedIn, schema: { params: idParamsSchema } },
    async (request, reply) => {
      await saved.deleteSavedBlock(db, request.signedIn.user.id, request.params.id);
      return reply.status(204).send();
    },
  );
};
