import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { plansResponseSchema } from '@sendwell/contract/billing';
import { planCatalogue } from './plan-catalogue.ts';

/** Route table: public GET /api/pricing/plans */
export const pricingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/pricing/plans',
    { guard: 'public', schema: { response: { 200: plansResponseSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return planCatalogue;
    },
  );
};
