import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '@sendwell/contract/common';
import { contactSunsetSchema, sunsetPolicyBodySchema, sunsetPolicySchema } from '@sendwell/contract/sunset';
import type { AppContext } from '../../context.ts';
import { requireUserOrKey } from '../api-keys/index.ts';
import { requireUser } from '../auth/index.ts';
import { contactSunsetOf, saveSunsetPolicy, sunsetPolicyOf } from './sunset.service.ts';

/**
 * Route table (the account's own policy and contacts only):
 *   GET /api/sunset-policy          the policy, its re-engagement sequence and the contacts under it (signed-in)
 *   PUT /api/sunset-policy          saves the whole policy (signed-in person: an account setting, not for keys)
 *   GET /api/contacts/:id/sunset    one contact under the policy (engaged, re-engaging until …, unengaged)
 */
export const sunsetRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db } = ctx;
  const signedIn = requireUser(db, ctx.config);
  const userOrKey = requireUserOrKey(db, ctx.config, 'full');

  app.get('/api/sunset-policy', { guard: signedIn, schema: { response: { 200: sunsetPolicySchema } } }, (request) =>
    sunsetPolicyOf(db, request.signedIn.user.id),
  );

  app.put(
    '/api/sunset-policy',
    { guard: signedIn, schema: { body: sunsetPolicyBodySchema, response: { 200: sunsetPolicySchema } } },
    (request) => saveSunsetPolicy(db, request.signedIn.user.id, request.body),
  );

  app.get(
    '/api/contacts/:id/sunset',
    { guard: userOrKey, schema: { params: idParamsSchema, response: { 200: contactSunsetSchema } } },
    (request) => contactSunsetOf(db, request.signedIn.user.id, request.params.id),
  );
};
