import type { BillingUsage } from '@sendwell/contract/billing';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import {
  monthlyLimitReachedReason,
  monthlySendAllowance,
  planLimitsOf,
  sendingBlockedReason,
} from './billing.service.ts';
import { userById, type UserRow } from '../auth/index.ts';
import { warnEmailUsageOnce } from './usage-warnings.ts';
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
 * account are counted against its plan one at a time (every claim counts through claimAllowance).
 */
async function lockAccountAndCountSent(tx: DbOrTx, userId: string): Promise<number> {
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

/** What a claim may take of the account's monthly emails (`claimAllowance`). */
export type ClaimAllowance = {
  /** How many of the messages asked for may be claimed now. */
  granted: number;
  /** Why nothing may go (sending paused by billing, or the account's own address unconfirmed when that is required). */
  blocked: string | null;
  /** Why no more than `taken` went: the month's emails used up (null while some are left). */
  limitReason(taken: number): string | null;
  /** `taken` messages were claimed: warns the owner once at 80% and 100% of the month's emails. */
  taken(taken: number): Promise<void>;
};

/**
 * The account's monthly allowance for a claim of up to `wanted` messages, in the caller's
 * transaction with the account row locked (so two claims at the limit cannot both pass): nothing
 * while billing paused sending (or, with `requireConfirmed`, while the account's own address is
 * unconfirmed), else no more than the month's emails left. Null when the account is gone and no
 * `fallback` row is given. Every feed that is not counted in full before it starts (a campaign's
 * audience is, at its start) claims through this: sequence emails, forwards, relayed bounces.
 */
export async function claimAllowance(
  tx: DbOrTx,
  config: Config,
  userId: string,
  wanted: number,
  options: { fallback?: UserRow; requireConfirmed?: boolean; now?: Date } = {},
): Promise<ClaimAllowance | null> {
  const now = options.now ?? new Date();
  const sentBefore = await lockAccountAndCountSent(tx, userId);
  const account = (await userById(tx, userId)) ?? options.fallback;
  if (!account) return null;
  const blocked =
    options.requireConfirmed && !account.emailConfirmedAt
      ? "The account's own email address is not confirmed yet: mail on behalf of its aliases waits until it is"
      : sendingBlockedReason(config, account, now);
  const left = monthlySendAllowance(config, account, sentBefore);
  return {
    granted: blocked ? 0 : Math.max(0, left === null ? wanted : Math.min(wanted, left)),
    blocked,
    limitReason: (taken) => monthlyLimitReachedReason(config, account, sentBefore + taken, now),
    taken: (taken) =>
      taken > 0
        ? warnEmailUsageOnce(tx, config, account, { before: sentBefore, after: sentBefore + taken }, now)
        : Promise.resolve(),
  };
}
