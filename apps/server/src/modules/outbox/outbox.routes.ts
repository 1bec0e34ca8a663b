import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '@sendwell/contract/common';
import { outboxListSchema, outboxMessageSchema, outboxQuerySchema } from '@sendwell/contract/outbox';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../auth/index.ts';
import { setTotalHeaders } from '../../lib/paging.ts';
import * as outbox from './outbox.service.ts';

/**
 * Route table (signed-in, the user's own mail only; another user's id answers 404):
 *   GET /api/outbox        ?search&page&pageSize → what the built-in catcher stored, newest first,
 *                          and which transport new mail goes to; total in X-Total-Count
 *   GET /api/outbox/:id    one message with its HTML (tracking left out), text, headers and source
 */
export const outboxRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const signedIn = requireUser(ctx.db, ctx.config);

  app.get(
    '/api/outbox',
    { guard: signedIn, schema: { querystring: outboxQuerySchema, response: { 200: outboxListSchema } } },
    async (request, reply) => {
      const { messages, total } = await outbox.listOutbox(ctx.db, request.signedIn.user.id, request.query);
      setTotalHeaders(reply, { total });
      return { transport: ctx.transport.name, messages };
    },
  );

  app.get(
    '/api/outbox/:id',
    { guard: signedIn, schema: { params: idParamsSchema, response: { 200: outboxMessageSchema } } },
    async (request) =>
      outbox.getOutboxMessage(ctx.db, ctx.config.sessionSecret, request.signedIn.user.id, request.params.id),
  );
};
