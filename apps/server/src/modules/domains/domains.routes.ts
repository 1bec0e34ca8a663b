import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createDomainBodySchema,
  domainIdParamsSchema,
  domainListSchema,
  domainSchema,
} from '@sendwell/contract/domains';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../auth/index.ts';
import * as domains from './domains.service.ts';

/**
 * Route table (signed-in, scoped to the user; another user's id is 404):
 *   GET    /api/domains
 *   POST   /api/domains               201, after a first DNS look-up (isVerified may already be true)
 *   GET    /api/domains/:id           the domain with its records and their status
 *   DELETE /api/domains/:id           204
 *   POST   /api/domains/:id/verify    looks the records up now; answers like GET (10 a minute per account)
 *   POST   /api/domains/:id/primary   makes it the primary sending domain
 */
/** Look-ups one account may ask for in a minute: a person re-checking after a DNS change needs a few. */
export const DOMAIN_VERIFY_LIMIT_PER_MINUTE = 10;

export const domainRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db, config } = ctx;
  const signedIn = requireUser(db, config);

  app.get('/api/domains', { guard: signedIn, schema: { response: { 200: domainListSchema } } }, async (request) =>
    domains.domainsOf(db, config, request.signedIn.user.id),
  );

  app.post(
    '/api/domains',
    { guard: signedIn, schema: { body: createDomainBodySchema, response: { 201: domainSchema } } },
    async (request, reply) => {
      const { user } = request.signedIn;
      return reply
        .status(201)
        .send(await domains.addDomain(db, config, { id: user.id, plan: user.plan }, request.body.domain));
    },
  );

  app.get(
    '/api/domains/:id',
    { guard: signedIn, schema: { params: domainIdParamsSchema, response: { 200: domainSchema } } },
    async (request) => domains.domainOf(db, config, request.signedIn.user.id, request.params.id),
  );

  app.delete(
    '/api/domains/:id',
    { guard: signedIn, schema: { params: domainIdParamsSchema } },
    async (request, reply) => {
      await domains.deleteDomain(db, request.signedIn.user.id, request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/domains/:id/verify',
    {
      guard: signedIn,
      // Counted per account (the session guard has run by then), in the shared rate-limit store.
      config: {
        rateLimit: {
          max: DOMAIN_VERIFY_LIMIT_PER_MINUTE,
          timeWindow: 60_000,
          keyGenerator: (request) => request.signedIn.user.id,
        },
      },
      schema: { params: domainIdParamsSchema, response: { 200: domainSchema } },
    },
    async (request) => domains.verifyDomain(db, config, request.signedIn.user.id, request.params.id),
  );

  app.post(
    '/api/domains/:id/primary',
    { guard: signedIn, schema: { params: domainIdParamsSchema, response: { 200: domainSchema } } },
    async (request) => domains.makePrimaryDomain(db, config, request.signedIn.user.id, request.params.id),
  );
};
