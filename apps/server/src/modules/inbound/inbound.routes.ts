import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  INBOUND_TOKEN_HEADER,
  inboundAddressResponseSchema,
  inboundWebhookResponseSchema,
  SEND_RAW_MESSAGE,
} from '@sendwell/contract/inbound';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { guardHook } from '../../lib/route-guard.ts';
import { requireUser } from '../auth/session-guard.ts';
import { parseFeedback } from './feedback.ts';
import {
  accountOfInboundToken,
  inboundAddressOf,
  recordFeedback,
  regenerateInboundAddress,
} from './inbound.service.ts';

export const MAX_INBOUND_BYTES = 25 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** The account whose inbound token the request carried (set by requireInboundToken). */
    inboundUserId: string;
  }
}

/** The token a provider presented: the X-Sendwell-Token header, a Bearer token, or `?token=` (for URL-only providers). */
function presentedToken(request: FastifyRequest): string {
  const header = request.headers[INBOUND_TOKEN_HEADER.toLowerCase()];
  if (typeof header === 'string' && header.trim() !== '') return header.trim();
  const authorization = request.headers.authorization ?? '';
  if (authorization.toLowerCase().startsWith('bearer ')) return authorization.slice(7).trim();
  const query = request.query as { token?: unknown };
  return typeof query.token === 'string' ? query.token : '';
}

/**
 * The guard of inbound routes: finds the account by the token presented (401 without a known one)
 * and puts it on `request.inboundUserId`, the only account the request may touch.
 */
export function requireInboundToken(db: Db) {
  return guardHook('webhook-token', async (request: FastifyRequest) => {
    const userId = await accountOfInboundToken(db, presentedToken(request));
    if (userId === null) throw new AppError('unauthorized', 'Unauthorized');
    request.inboundUserId = userId;
  });
}

/**
 * Route table:
 *   token POST /api/webhook/email   raw MIME (message/rfc822), ≤ 25 MB; DSN bounces and ARF complaints are
 *                                   recorded against the token's account's messages only
 *   user  GET  /api/webhook/email-address        the account's own webhook address (with its token)
 *   user  POST /api/inbound/regenerate-address   a new token; the old address stops working. Not under
 *                                   /api/webhook/, whose paths skip the cross-site check (plugins/security.ts)
 */
export const inboundRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  app.decorateRequest('inboundUserId', '');
  app.addContentTypeParser(
    ['message/rfc822', 'text/plain', 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: MAX_INBOUND_BYTES },
    (_request, body, done) => done(null, body),
  );

  app.post(
    '/api/webhook/email',
    {
      bodyLimit: MAX_INBOUND_BYTES,
      onRequest: requireInboundToken(ctx.db),
      schema: { response: { 200: inboundWebhookResponseSchema } },
    },
    async (request) => {
      if (!Buffer.isBuffer(request.body) || request.body.length === 0)
        throw new AppError('bad_request', SEND_RAW_MESSAGE);
      const outcome = await recordFeedback(ctx.db, request.inboundUserId, await parseFeedback(request.body));
      return { handled: outcome };
    },
  );

  const signedIn = requireUser(ctx.db, ctx.config);
  app.get(
    '/api/webhook/email-address',
    { onRequest: signedIn, schema: { response: { 200: inboundAddressResponseSchema } } },
    async (request) => inboundAddressOf(ctx.db, ctx.config, request.signedIn.user.id),
  );

  app.post(
    '/api/inbound/regenerate-address',
    { onRequest: signedIn, schema: { response: { 200: inboundAddressResponseSchema } } },
    async (request) => regenerateInboundAddress(ctx.db, ctx.config, request.signedIn.user.id),
  );
};
