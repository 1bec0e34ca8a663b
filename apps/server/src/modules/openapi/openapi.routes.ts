import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { openApiDocument } from './openapi.ts';

/**
 * Route table:
 *   GET /api/openapi.json   the public API (every route a key may call) as OpenAPI 3.1; public
 */
export const openApiRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  let document: string | undefined;
  app.get('/api/openapi.json', { guard: 'public' }, async (_request, reply) => {
    // The route table is complete once the app is ready, which it is by the first request.
    document ??= JSON.stringify(openApiDocument(app, ctx.config.publicUrl));
    return reply.type('application/json; charset=utf-8').send(document);
  });
};
