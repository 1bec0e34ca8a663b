import type { BillingUsage } from '@sendwell/contract/billing';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { monthlyLimitReachedReason, planLimitsOf, sendingBlockedReason } from './billing.service.ts';
import type { UserRow } from '../auth/index.ts';
import * as repo from './usage.repo.ts';

/** GET /api/billing/usage: each plan limit against the account's use of it (the Billing page's bars). */
export async function billingUsageOf(ctx: AppContext, user: UserRow): Promise<BillingUsage> {
  const limits = planLimitsOf(ctx.config, user);
  const [subscribers, emails, domains] = await Promise.all([
    subscriberCountOf(ctx.db, user.id),
    emailsSentThisMonth(ctx.db, user.id),
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

/** Emails the account sent or queued this month (campaigns, test mails, sequence emails and forwards), as counted against its plan. */
export function emailsSentThisMonth(db: DbOrTx, userId: string): Promise<number> {
  return repo.sentThisMonth(db, userId);
}

/**
 * The same count inside the caller's transaction, with the account row locked first: sends of one
 * account are counted against its plan one at a time (the sequences' sender and the forwarder claim through this).
 */
export async function lockAccountAndCountSent(tx: DbOrTx, userId: string): Promise<number> {
  await repo.lockAccount(tx, userId);
  return repo.sentThisMonth(tx, userId);
}

/** How many contacts (subscribers) the account has, as counted against its plan. */
export function subscriberCountOf(db: DbOrTx, userId: string): Promise<number> {
  return repo.subscriberCount(db, userId);
}

/** How many sending domains the account has, as counted against its plan. */
export function domainCountOf(db: DbOrTx, userId: string): Promise<number> {
  return repo.domainCount(db, userId);
}
