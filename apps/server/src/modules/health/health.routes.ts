import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponseSchema } from '@sendwell/contract/health';
import type { AppContext } from '../../context.ts';
import { checkHealth } from './health.service.ts';

/** Route table: public GET /api/health (503 when the database or queue does not answer). */
export const healthRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  app.get(
    '/api/health',
    { guard: 'public', schema: { response: { 200: healthResponseSchema, 503: healthResponseSchema } } },
    async (_request, reply) => {
      const health = await checkHealth(ctx.database, ctx.queue);
      return reply.status(health.status === 'ok' ? 200 : 503).send(health);
    },
  );
};
