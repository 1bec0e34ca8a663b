import { z } from 'zod';

export const planIdSchema = z.enum(['starter', 'pro', 'enterprise', 'unlimited'], {
  error: 'Please choose a valid plan',
});
export type PlanId = z.infer<typeof planIdSchema>;

/** Plans a visitor can pick at sign-up; 'unlimited' is granted, never bought. */
export const purchasablePlanIds = ['starter', 'pro', 'enterprise'] as const satisfies readonly PlanId[];

export const subscriptionStatusSchema = z.enum(['trialing', 'active', 'past_due', 'canceled']);
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

/** null means unlimited. */
const limit = z.number().int().nonnegative().nullable();

export const planSchema = z.object({
  id: planIdSchema,
  name: z.string(),
  description: z.string(),
  price: z.number(),
  popular: z.boolean(),
  features: z.array(z.string()),
  limits: z.object({ subscribers: limit, emailsPerMonth: limit, domains: limit }),
  cta: z.object({ label: z.string(), href: z.string() }),
});
export type Plan = z.infer<typeof planSchema>;

/** GET /api/pricing/plans: an object of plans keyed by id. */
export const plansResponseSchema = z.record(planIdSchema, planSchema);
export type PlansResponse = z.infer<typeof plansResponseSchema>;

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
