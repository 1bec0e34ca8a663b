import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiKeyIdParamsSchema,
  apiKeyListSchema,
  apiKeySchema,
  apiSettingsSchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
} from '@sendwell/contract/api-keys';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../auth/index.ts';
import * as apiKeys from './api-keys.service.ts';

/**
 * Route table (signed-in people only: a key never manages keys or settings, so these take the
 * session guard, which reads the cookie alone):
 *   GET    /api/api-keys        the account's keys (never their secrets)
 *   POST   /api/api-keys        creates a key; the answer holds its secret, this once
 *   DELETE /api/api-keys/:id    revokes a key (it keeps its row, marked revoked)
 *   GET    /api/api-settings    requests per second each key may make
 *   PUT    /api/api-settings
 */
export const apiKeyRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db } = ctx;
  const signedIn = requireUser(db, ctx.config);

  app.get('/api/api-keys', { guard: signedIn, schema: { response: { 200: apiKeyListSchema } } }, async (request) => ({
    apiKeys: await apiKeys.listApiKeys(db, request.signedIn.user.id),
  }));

  app.post(
    '/api/api-keys',
    { guard: signedIn, schema: { body: createApiKeyBodySchema, response: { 201: createdApiKeySchema } } },
    async (request, reply) =>
      reply.status(201).send(await apiKeys.createApiKey(db, request.signedIn.user.id, request.body)),
  );

  app.delete(
    '/api/api-keys/:id',
    { guard: signedIn, schema: { params: apiKeyIdParamsSchema, response: { 200: apiKeySchema } } },
    async (request) => apiKeys.revokeApiKey(db, request.signedIn.user.id, request.params.id),
  );

  app.get('/api/api-settings', { guard: signedIn, schema: { response: { 200: apiSettingsSchema } } }, async (request) =>
    apiKeys.readApiSettings(db, request.signedIn.user.id),
  );

  app.put(
    '/api/api-settings',
    { guard: signedIn, schema: { body: apiSettingsSchema, response: { 200: apiSettingsSchema } } },
    async (request) => apiKeys.writeApiSettings(db, request.signedIn.user.id, request.body),
  );
};
