import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  bounceProviderSchema,
  bounceProviderSecretBodySchema,
  bounceProvidersResponseSchema,
  providerWebhookResponseSchema,
} from '@sendwell/contract/bounces';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { guardHook } from '../../lib/route-guard.ts';
import { requireUser } from '../auth/index.ts';
import { accountOfInboundToken, inboundAddressOf } from './inbound.service.ts';
import { deleteProviderSecret, providerStatuses, receiveProviderPost, saveProviderSecret } from '../bounces/index.ts';

/** Provider posts are small JSON (SendGrid batches up to a few hundred events); 5 MB is plenty. */
const MAX_PROVIDER_POST_BYTES = 5 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** The account whose inbound token a provider webhook's path carried (set by requireAccountPathToken). */
    bounceAccountId: string;
  }
}

const providerParams = z.object({ provider: bounceProviderSchema });
const webhookParams = z.object({ provider: bounceProviderSchema, accountToken: z.string().max(200) });

/** The guard of the provider webhooks: the account by the inbound token in the path (401 without a known one). */
function requireAccountPathToken(db: Db) {
  return guardHook('webhook-token', async (request: FastifyRequest) => {
    const params = request.params as { accountToken?: unknown };
    const token = typeof params.accountToken === 'string' ? params.accountToken : '';
    const userId = await accountOfInboundToken(db, token);
    if (userId === null) throw new AppError('unauthorized', 'Unauthorized');
    request.bounceAccountId = userId;
  });
}

/**
 * Route table:
 *   token POST   /api/webhook/bounces/:provider/:accountToken   a sending provider's bounce/complaint events
 *                (ses via SNS, sendgrid, mailgun, postmark), each signature checked its own way with the
 *                account's setting; answers { verdicts: [{ kind, reason, hard, recipient, matched }], subscribed? }
 *   user  GET    /api/bounce-providers             each provider's webhook URL and whether it is set up
 *   user  PUT    /api/bounce-providers/:provider   saves the provider's key/secret (sealed; never shown again)
 *   user  DELETE /api/bounce-providers/:provider   forgets it; that provider's posts are refused
 */
export const bounceProviderRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  app.decorateRequest('bounceAccountId', '');
  await app.register(async (webhooks) => {
    // Signatures are over the exact bytes sent: every body is kept raw (SNS posts JSON as text/plain).
    webhooks.removeAllContentTypeParsers();
    webhooks.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: MAX_PROVIDER_POST_BYTES },
      (_request, body, done) => done(null, body),
    );
    webhooks.withTypeProvider<ZodTypeProvider>().post(
      '/api/webhook/bounces/:provider/:accountToken',
      {
        bodyLimit: MAX_PROVIDER_POST_BYTES,
        guard: requireAccountPathToken(ctx.db),
        schema: { params: webhookParams, response: { 200: providerWebhookResponseSchema } },
      },
      async (request) => {
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        if (rawBody.length === 0) throw new AppError('bad_request', 'The body is empty');
        return receiveProviderPost(ctx, {
          provider: request.params.provider,
          userId: request.bounceAccountId,
          rawBody,
          headers: request.headers,
        });
      },
    );
  });

  const signedIn = requireUser(ctx.db, ctx.config);
  const tokenOf = async (request: FastifyRequest) =>
    (await inboundAddressOf(ctx.db, ctx.config, request.signedIn.user.id)).token;
  app.get(
    '/api/bounce-providers',
    { guard: signedIn, schema: { response: { 200: bounceProvidersResponseSchema } } },
    async (request) => providerStatuses(ctx.db, ctx.config, request.signedIn.user.id, await tokenOf(request)),
  );
  app.put(
    '/api/bounce-providers/:provider',
    {
      guard: signedIn,
      schema: {
        params: providerParams,
        body: bounceProviderSecretBodySchema,
        response: { 200: bounceProvidersResponseSchema },
      },
    },
    async (request) =>
      saveProviderSecret(
        ctx.db,
        ctx.config,
        request.signedIn.user.id,
        await tokenOf(request),
        request.params.provider,
        request.body.secret,
      ),
  );
  app.delete(
    '/api/bounce-providers/:provider',
    { guard: signedIn, schema: { params: providerParams, response: { 200: bounceProvidersResponseSchema } } },
    async (request) =>
      deleteProviderSecret(
        ctx.db,
        ctx.config,
        request.signedIn.user.id,
        await tokenOf(request),
        request.params.provider,
      ),
  );
};
