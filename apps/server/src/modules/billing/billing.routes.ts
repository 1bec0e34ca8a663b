import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  billingUsageSchema,
  checkoutResponseSchema,
  createCheckoutBodySchema,
  stripeWebhookResponseSchema,
} from '@sendwell/contract/billing';
import { providerErrorSchema } from '@sendwell/contract/errors';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { requireUser } from '../auth/index.ts';
import { createCheckout, openBillingPortal, requestKeyOf, stripeEventJobData } from './subscriptions.service.ts';
import { verifyStripeEvent } from './stripe-client.ts';
import { billingUsageOf } from './usage.service.ts';
import { stripeEventJob } from './billing.jobs.ts';

/** Stripe's webhook bodies are small; anything larger is not Stripe. */
const MAX_WEBHOOK_BYTES = 512 * 1024;

/**
 * Route table:
 *   user   POST /api/payment/create-checkout   {planId} → {url}: Stripe Checkout, or a prorated plan change
 *   user   POST /api/payment/billing-portal    → {url} of the Stripe customer portal
 *   user   GET  /api/billing/usage             each plan limit against its use; why sending is paused
 *   public POST /api/webhook/stripe            Stripe events, checked by their Stripe-Signature
 *                                              (STRIPE_WEBHOOK_SECRET, 300 s tolerance), applied by a job
 * Without STRIPE_SECRET_KEY the first two answer 503 `{ error: '… not configured' }`, the development
 * mode the sign-up and billing screens expect.
 */
export const paymentRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const signedIn = requireUser(ctx.db, ctx.config);

  app.post(
    '/api/payment/create-checkout',
    {
      guard: signedIn,
      schema: { body: createCheckoutBodySchema, response: { 200: checkoutResponseSchema, 503: providerErrorSchema } },
    },
    async (request) =>
      createCheckout(
        ctx,
        request.signedIn.user.id,
        request.body.planId,
        requestKeyOf(request.headers['idempotency-key']),
      ),
  );

  app.post(
    '/api/payment/billing-portal',
    { guard: signedIn, schema: { response: { 200: checkoutResponseSchema, 503: providerErrorSchema } } },
    async (request) => openBillingPortal(ctx, request.signedIn.user.id),
  );

  app.get(
    '/api/billing/usage',
    { guard: signedIn, schema: { response: { 200: billingUsageSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return billingUsageOf(ctx, request.signedIn.user);
    },
  );

  await app.register(async (webhook) => {
    // The signature covers the exact bytes Stripe sent, so the body stays raw.
    webhook.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: MAX_WEBHOOK_BYTES },
      (_request, body, done) => done(null, body),
    );
    webhook.post(
      '/api/webhook/stripe',
      {
        guard: 'public',
        bodyLimit: MAX_WEBHOOK_BYTES,
        schema: { response: { 200: stripeWebhookResponseSchema } },
      },
      async (request) => {
        const secret = ctx.config.stripe.webhookSecret;
        if (!secret) throw new AppError('not_configured', 'Stripe webhooks not configured');
        const signature = request.headers['stripe-signature'];
        if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) {
          throw new AppError('bad_request', 'Missing Stripe-Signature or body');
        }
        let event;
        try {
          event = await verifyStripeEvent(ctx.config, request.body, signature, secret);
        } catch {
          throw new AppError('bad_request', 'Invalid Stripe signature');
        }
        await stripeEventJob.enqueue(ctx.queue, stripeEventJobData(event), { singletonKey: event.id });
        return { received: true as const };
      },
    );
  });
};
