import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  overviewQuerySchema,
  overviewResponseSchema,
  purchaseListSchema,
  purchaseSchema,
  purchasesQuerySchema,
  recordPurchaseBodySchema,
  statsResponseSchema,
} from '@sendwell/contract/analytics';
import type { AppContext } from '../../context.ts';
import { setTotalHeaders } from '../../lib/paging.ts';
import { requireUser } from '../auth/index.ts';
import { analyticsOverview, dashboardStats, listPurchases, recordPurchase } from './analytics.service.ts';

/**
 * Route table (signed-in, the user's own rows only):
 *   GET  /api/analytics/stats      the dashboard's figures and their 30-day trends
 *   GET  /api/analytics/overview   ?from&to (UTC days, ≤ 366) → /analytics: mail per day and domain, list growth, top campaigns and links
 *   POST /api/analytics/purchases  {email, amount, campaignId?} → 201 the recorded purchase
 *   GET  /api/analytics/purchases  ?page&pageSize → purchases, newest first; total in X-Total-Count
 */
export const analyticsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const signedIn = requireUser(ctx.db, ctx.config);

  app.get(
    '/api/analytics/stats',
    { guard: signedIn, schema: { response: { 200: statsResponseSchema } } },
    async (request) => dashboardStats(ctx.db, request.signedIn.user.id),
  );

  app.get(
    '/api/analytics/overview',
    { guard: signedIn, schema: { querystring: overviewQuerySchema, response: { 200: overviewResponseSchema } } },
    async (request) => analyticsOverview(ctx.db, request.signedIn.user.id, request.query),
  );

  app.post(
    '/api/analytics/purchases',
    { guard: signedIn, schema: { body: recordPurchaseBodySchema, response: { 201: purchaseSchema } } },
    async (request, reply) =>
      reply.status(201).send(await recordPurchase(ctx.db, request.signedIn.user.id, request.body)),
  );

  app.get(
    '/api/analytics/purchases',
    { guard: signedIn, schema: { querystring: purchasesQuerySchema, response: { 200: purchaseListSchema } } },
    async (request, reply) => {
      const { purchases, total } = await listPurchases(ctx.db, request.signedIn.user.id, request.query);
      setTotalHeaders(reply, { total });
      return purchases;
    },
  );
};
