import type { BillingUsage } from '@sendwell/contract/payment';
import type { AppContext } from '../../context.ts';
import { monthlyLimitReachedReason, planLimitsOf, sendingBlockedReason } from '../billing/billing.service.ts';
import { emailsSentThisMonth } from '../campaigns/campaign-send.service.ts';
import { subscriberCountOf } from '../contacts/contacts.service.ts';
import { domainCountOf } from '../domains/domains.service.ts';
import type { UserRow } from '../auth/auth.service.ts';

/** GET /api/billing/usage: each plan limit against the account's use of it (the Billing page's bars). */
export async function billingUsageOf(ctx: AppContext, user: UserRow): Promise<BillingUsage> {
  const limits = planLimitsOf(ctx.config, user);
  const [subscribers, emails, domains] = await Promise.all([
    subscriberCountOf(ctx.db, user.id),
    emailsSentThisMonth(ctx, user.id),
    domainCountOf(ctx.db, user.id),
  ]);
  return {
    billingEnabled: ctx.config.billingEnabled,
    subscribers: { used: subscribers, limit: limits.subscribers },
    emailsThisMonth: { used: emails, limit: limits.emailsPerMonth },
    domains: { used: domains, limit: limits.domains },
    // Paused by billing, or by a month's emails used up (forwards then wait until it renews).
    sendingPausedReason: sendingBlockedReason(ctx.config, user) ?? monthlyLimitReachedReason(ctx.config, user, emails),
  };
}
