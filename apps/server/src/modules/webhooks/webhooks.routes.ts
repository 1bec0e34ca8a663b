import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '@sendwell/contract/common';
import {
  createWebhookEndpointBodySchema,
  updateWebhookEndpointBodySchema,
  webhookDeliveryListSchema,
  webhookDeliveryParamsSchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookSecretSchema,
} from '@sendwell/contract/webhooks';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../auth/index.ts';
import { startWebhookDelivery } from './webhooks.jobs.ts';
import * as webhooks from './webhooks.service.ts';

/**
 * Route table (guard → route), every row scoped to the signed-in account:
 *   user  GET    /api/webhooks                                       endpoints
 *   user  POST   /api/webhooks                                       {url, description, eventTypes}: the new endpoint with its secret
 *   user  GET    /api/webhooks/:id                                   one endpoint
 *   user  PATCH  /api/webhooks/:id                                   {url?, description?, eventTypes?, enabled?}
 *   user  DELETE /api/webhooks/:id
 *   user  GET    /api/webhooks/:id/secret                            reveals the signing secret
 *   user  POST   /api/webhooks/:id/rotate-secret                     a new secret; the old one signs beside it for 24 h
 *   user  POST   /api/webhooks/:id/test                              sends a webhook.test event (202)
 *   user  GET    /api/webhooks/:id/deliveries                        the delivery log, newest first
 *   user  POST   /api/webhooks/:id/deliveries/:deliveryId/replay     sends the logged event again (202)
 */
export const webhookRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db } = ctx;
  const signedIn = requireUser(db, ctx.config);

  app.get(
    '/api/webhooks',
    { guard: signedIn, schema: { response: { 200: webhookEndpointListSchema } } },
    async (request) => ({ endpoints: await webhooks.listWebhookEndpoints(db, request.signedIn.user.id) }),
  );

  app.post(
    '/api/webhooks',
    {
      guard: signedIn,
      schema: {
        body: createWebhookEndpointBodySchema,
        response: { 201: webhookEndpointSchema.extend({ secret: webhookSecretSchema.shape.secret }) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await webhooks.createWebhookEndpoint(ctx, request.signedIn.user.id, request.body)),
  );

  app.get(
    '/api/webhooks/:id',
    { guard: signedIn, schema: { params: idParamsSchema, response: { 200: webhookEndpointSchema } } },
    async (request) => webhooks.webhookEndpoint(db, request.signedIn.user.id, request.params.id),
  );

  app.patch(
    '/api/webhooks/:id',
    {
      guard: signedIn,
      schema: {
        params: idParamsSchema,
        body: updateWebhookEndpointBodySchema,
        response: { 200: webhookEndpointSchema },
      },
    },
    async (request) => webhooks.updateWebhookEndpoint(ctx, request.signedIn.user.id, request.params.id, request.body),
  );

  app.delete('/api/webhooks/:id', { guard: signedIn, schema: { params: idParamsSchema } }, async (request, reply) => {
    await webhooks.deleteWebhookEndpoint(db, request.signedIn.user.id, request.params.id);
    return reply.status(204).send();
  });

  app.get(
    '/api/webhooks/:id/secret',
    { guard: signedIn, schema: { params: idParamsSchema, response: { 200: webhookSecretSchema } } },
    async (request) => webhooks.revealWebhookSecret(ctx, request.signedIn.user.id, request.params.id),
  );

  app.post(
    '/api/webhooks/:id/rotate-secret',
    { guard: signedIn, schema: { params: idParamsSchema, response: { 200: webhookSecretSchema } } },
    async (request) => webhooks.rotateWebhookSecret(ctx, request.signedIn.user.id, request.params.id),
  );

  app.post(
    '/api/webhooks/:id/test',
    { guard: signedIn, schema: { params: idParamsSchema } },
    async (request, reply) => {
      await webhooks.sendTestWebhook(db, request.signedIn.user.id, request.params.id);
      await startWebhookDelivery(ctx);
      return reply.status(202).send();
    },
  );

  app.get(
    '/api/webhooks/:id/deliveries',
    { guard: signedIn, schema: { params: idParamsSchema, response: { 200: webhookDeliveryListSchema } } },
    async (request) => webhooks.webhookDeliveries(db, request.signedIn.user.id, request.params.id),
  );

  app.post(
    '/api/webhooks/:id/deliveries/:deliveryId/replay',
    { guard: signedIn, schema: { params: webhookDeliveryParamsSchema } },
    async (request, reply) => {
      await webhooks.replayWebhookDelivery(db, request.signedIn.user.id, request.params.id, request.params.deliveryId);
      await startWebhookDelivery(ctx);
      return reply.status(202).send();
    },
  );
};
