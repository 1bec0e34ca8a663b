import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '@sendwell/contract/common';
import { suppressionsPageSchema, suppressionsQuerySchema } from '@sendwell/contract/suppressions';
import type { AppContext } from '../../context.ts';
import { requireUserOrKey } from '../api-keys/index.ts';
import { listSuppressions, removeSuppression, suppressionsCsv } from '../delivery/index.ts';

/**
 * Route table (signed-in, the account's own list only):
 *   GET    /api/suppressions?search=&page=   one page of the suppression list, newest first
 *   GET    /api/suppressions/export          the whole list as CSV
 *   DELETE /api/suppressions/:id             lifts one suppression (the address may be mailed again)
 */
export const suppressionRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db } = ctx;
  const signedIn = requireUserOrKey(db, ctx.config, 'full');

  app.get(
    '/api/suppressions',
    { guard: signedIn, schema: { querystring: suppressionsQuerySchema, response: { 200: suppressionsPageSchema } } },
    async (request) => listSuppressions(db, request.signedIn.user.id, request.query),
  );

  app.get('/api/suppressions/export', { guard: signedIn }, async (request, reply) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="suppressions.csv"')
      .send(Readable.from(suppressionsCsv(db, request.signedIn.user.id))),
  );

  app.delete(
    '/api/suppressions/:id',
    { guard: signedIn, schema: { params: idParamsSchema } },
    async (request, reply) => {
      await removeSuppression(db, request.signedIn.user.id, request.params.id);
      return reply.status(204).send();
    },
  );
};
