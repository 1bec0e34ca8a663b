import { z } from 'zod';
import { planIdSchema } from './pricing.ts';

/** POST /api/payment/create-checkout */
export const createCheckoutBodySchema = z.object({ planId: planIdSchema });
export const checkoutResponseSchema = z.object({ url: z.string() });

/** POST /api/webhook/stripe answers this once the event is verified and queued. */
export const stripeWebhookResponseSchema = z.object({ received: z.literal(true) });

/** One plan limit against its use: limit null means unlimited. */
export const usageMeterSchema = z.object({ used: z.number().int().nonnegative(), limit: z.number().int().nullable() });
export type UsageMeter = z.infer<typeof usageMeterSchema>;

/** GET /api/billing/usage: the account's use of each plan limit, and why sending is paused (null: it is not). */
export const billingUsageSchema = z.object({
  billingEnabled: z.boolean(),
  subscribers: usageMeterSchema,
  emailsThisMonth: usageMeterSchema,
  domains: usageMeterSchema,
  sendingPausedReason: z.string().nullable(),
});
export type BillingUsage = z.infer<typeof billingUsageSchema>;
