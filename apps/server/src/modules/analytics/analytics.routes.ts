import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { statsResponseSchema } from '@sendwell/contract/analytics';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../plugins/session.ts';
import { dashboardStats } from './analytics.service.ts';

/** Route table: user GET /api/analytics/stats */
export const analyticsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  app.get(
    '/api/analytics/stats',
    { onRequest: requireUser(ctx.db, ctx.config), schema: { response: { 200: statsResponseSchema } } },
    async (request) => dashboardStats(ctx.db, request.signedIn.user.id),
  );
};
