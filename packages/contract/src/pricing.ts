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
