import type { AppContext } from '../../context.ts';
import { stripeEventJobSchema } from '@sendwell/contract/jobs';
import { defineJob } from '../../lib/queue.ts';
import { handleStripeEvent } from './subscriptions.service.ts';

/**
 * Applies one verified Stripe webhook event. Retried with backoff when Stripe cannot be read; safe
 * to run twice (the event id is recorded with its effect).
 */
export const stripeEventJob = defineJob({
  name: 'payment.stripe-event',
  payload: stripeEventJobSchema,
  worker: { concurrency: 2 },
  send: { retryLimit: 8, retryDelay: 30, retryBackoff: true },
  handler: (ctx: AppContext, data) => handleStripeEvent(ctx, data),
});

export const billingJobs = [stripeEventJob];
