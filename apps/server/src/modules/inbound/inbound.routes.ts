import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  inboundAddressResponseSchema,
  inboundWebhookResponseSchema,
  SEND_RAW_MESSAGE,
} from '@sendwell/contract/inbound';
import type { AppContext } from '../../context.ts';
import type { Config } from '../../config.ts';
import { AppError } from '../../lib/app-error.ts';
import { guardHook } from '../../lib/route-guard.ts';
import { requireUser } from '../auth/session-guard.ts';
import { parseFeedback } from './feedback.ts';
import { recordFeedback } from './inbound.service.ts';

export const MAX_INBOUND_BYTES = 25 * 1024 * 1024;

/** The installation's inbound webhook secret, derived from SESSION_SECRET (so it survives restarts). */
export function inboundWebhookToken(config: Config): string {
  return createHmac('sha256', config.sessionSecret).update('sendwell inbound webhook').digest('hex').slice(0, 40);
}

function presentedToken(request: FastifyRequest): string {
  const header = request.headers.authorization ?? '';
  if (header.toLowerCase().startsWith('bearer ')) return header.slice(7).trim();
  const query = request.query as { token?: unknown };
  return typeof query.token === 'string' ? query.token : '';
}

/**
 * Route table:
 *   token POST /api/webhook/email   raw MIME (message/rfc822), ≤ 25 MB; DSN bounces and ARF complaints are recorded
 *   user  GET  /api/webhook/email-address   the full address to give a mail provider (with its token)
 */
export const inboundRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const expected = Buffer.from(inboundWebhookToken(ctx.config));
  app.addContentTypeParser(
    ['message/rfc822', 'text/plain', 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: MAX_INBOUND_BYTES },
    (_request, body, done) => done(null, body),
  );

  app.post(
    '/api/webhook/email',
    {
      bodyLimit: MAX_INBOUND_BYTES,
      onRequest: guardHook('webhook-token', async (request: FastifyRequest) => {
        const given = Buffer.from(presentedToken(request));
        if (given.length !== expected.length || !timingSafeEqual(given, expected))
          throw new AppError('unauthorized', 'Unauthorized');
      }),
      schema: { response: { 200: inboundWebhookResponseSchema } },
    },
    async (request) => {
      if (!Buffer.isBuffer(request.body) || request.body.length === 0)
        throw new AppError('bad_request', SEND_RAW_MESSAGE);
      const outcome = await recordFeedback(ctx.db, await parseFeedback(request.body));
      return { handled: outcome };
    },
  );

  app.get(
    '/api/webhook/email-address',
    { onRequest: requireUser(ctx.db, ctx.config), schema: { response: { 200: inboundAddressResponseSchema } } },
    async () => ({ url: `${ctx.config.publicUrl}/api/webhook/email?token=${inboundWebhookToken(ctx.config)}` }),
  );
};
