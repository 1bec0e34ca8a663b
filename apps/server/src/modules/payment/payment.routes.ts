import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { checkoutResponseSchema, createCheckoutBodySchema } from '@sendwell/contract/payment';
import { providerErrorSchema } from '@sendwell/contract/errors';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../auth/session-guard.ts';
import { createCheckout, openBillingPortal } from './payment.service.ts';

/**
 * Route table:
 *   user POST /api/payment/create-checkout
 *   user POST /api/payment/billing-portal
 * Without STRIPE_SECRET_KEY both answer 503 `{ error: '… not configured' }`, the development mode
 * the sign-up and billing screens expect. The Stripe integration itself is the billing issue's.
 */
export const paymentRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const signedIn = requireUser(ctx.db, ctx.config);

  app.post(
    '/api/payment/create-checkout',
    {
      onRequest: signedIn,
      schema: { body: createCheckoutBodySchema, response: { 200: checkoutResponseSchema, 503: providerErrorSchema } },
    },
    async () => createCheckout(ctx.config),
  );

  app.post(
    '/api/payment/billing-portal',
    { onRequest: signedIn, schema: { response: { 200: checkoutResponseSchema, 503: providerErrorSchema } } },
    async () => openBillingPortal(ctx.config),
  );
};
