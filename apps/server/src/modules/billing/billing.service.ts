import { planIdSchema, type Plan } from '@sendwell/contract/billing';
import type { Config } from '../../config.ts';
import { AppError } from '../../lib/app-error.ts';
import { planById } from './plan-catalogue.ts';

/**
 * The plan rules every module that creates contacts, adds domains or sends mail applies: which
 * limits hold and whether the account may send at all. Pure functions over the account's row; the
 * caller counts its usage in the same transaction that uses it, with the account row locked
 * (`FOR UPDATE`), so that two requests at the limit cannot both pass.
 */

/** How long a past_due subscription keeps sending while Stripe retries the card. */
const PAST_DUE_GRACE_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The billing columns of an account these rules read. */
export type BillingState = {
  plan: string;
  subscriptionStatus: string | null;
  trialEndsAt: Date | null;
  pastDueSince: Date | null;
};

export type PlanLimits = Plan['limits'];

const NO_LIMITS: PlanLimits = { subscribers: null, emailsPerMonth: null, domains: null };

/** The account's plan from the catalogue (an unknown id counts as Starter, the smallest). */
export function planOf(account: Pick<BillingState, 'plan'>): Plan {
  return planById(planIdSchema.catch('starter').parse(account.plan));
}

/** The limits that hold for the account: its plan's, or none with BILLING=off. null means unlimited. */
export function planLimitsOf(config: Pick<Config, 'billingEnabled'>, account: Pick<BillingState, 'plan'>): PlanLimits {
  return config.billingEnabled ? planOf(account).limits : NO_LIMITS;
}

/**
 * Why the account may not send now, or null when it may: a trial that ended without a
 * subscription, a canceled subscription, or one past_due for longer than the grace period. Pages
 * and exports stay readable either way; only sending stops.
 */
export function sendingBlockedReason(
  config: Pick<Config, 'billingEnabled'>,
  account: BillingState,
  now: Date = new Date(),
): string | null {
  if (!config.billingEnabled || account.plan === 'unlimited') return null;
  switch (account.subscriptionStatus) {
    case 'active':
      return null;
    case 'past_due':
      if (account.pastDueSince && now.getTime() - account.pastDueSince.getTime() > PAST_DUE_GRACE_DAYS * DAY_MS) {
        return 'Your payment is overdue, so sending is paused. Update your payment method on the Billing page to send again.';
      }
      return null;
    case 'canceled':
      return 'Your subscription is canceled, so sending is paused. Choose a plan on the Billing page to send again.';
    default:
      // trialing, or no status yet (shown as a trial)
      if (account.trialEndsAt && account.trialEndsAt.getTime() <= now.getTime()) {
        return 'Your free trial has ended, so sending is paused. Choose a plan on the Billing page to send again.';
      }
      return null;
  }
}

/**
 * How many more emails the account may send this month (null: no limit), given how many it sent
 * already. The sequences engine calls this (through assertCanSend) before queuing a step's mail.
 */
export function monthlySendAllowance(
  config: Pick<Config, 'billingEnabled'>,
  account: Pick<BillingState, 'plan'>,
  sentThisMonth: number,
): number | null {
  const limit = planLimitsOf(config, account).emailsPerMonth;
  return limit === null ? null : Math.max(0, limit - sentThisMonth);
}

/**
 * Refuses (403) a send of `count` emails the account may not make: sending paused by billing, or
 * more than the month's allowance left, saying how many remain (`refusal` words it for the caller).
 * Call it inside the transaction that queues the mail, after locking the account row and counting
 * `sentThisMonth` there, so two sends at the limit cannot both pass.
 */
export function assertCanSend(
  config: Pick<Config, 'billingEnabled'>,
  account: BillingState,
  count: number,
  sentThisMonth: number,
  refusal: (left: string) => string = (left) =>
    `This send has ${count.toLocaleString('en-US')} recipients but your plan has ${left} emails left this month.`,
  now: Date = new Date(),
): void {
  const blocked = sendingBlockedReason(config, account, now);
  if (blocked) throw new AppError('forbidden', blocked);
  const left = monthlySendAllowance(config, account, sentThisMonth);
  if (left !== null && count > left) throw new AppError('forbidden', refusal(left.toLocaleString('en-US')));
}

/** The refusal of a contact that would pass the plan's subscriber limit (403). */
export function subscriberLimitError(account: Pick<BillingState, 'plan'>, limit: number): AppError {
  return new AppError(
    'forbidden',
    `Your ${planOf(account).name} plan allows ${limit.toLocaleString('en-US')} subscribers. Upgrade your plan on the Billing page to add more.`,
  );
}

/**
 * Why sending waits when the month's emails are used up (the paused-sending banner; forwards wait
 * in their queue until the allowance renews or the plan grows), or null while some are left.
 */
export function monthlyLimitReachedReason(
  config: Pick<Config, 'billingEnabled'>,
  account: Pick<BillingState, 'plan'>,
  sentThisMonth: number,
  now: Date = new Date(),
): string | null {
  const limit = planLimitsOf(config, account).emailsPerMonth;
  if (limit === null || sentThisMonth < limit) return null;
  const renews = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toLocaleDateString('en-US', {
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
  return `You have used all ${limit.toLocaleString('en-US')} emails of your ${planOf(account).name} plan this month, so sending is paused. Forwarded mail waits and goes out on ${renews}, or as soon as you upgrade on the Billing page.`;
}

/** Usage shares at which the owner is warned (80%, 100%). */
export const USAGE_WARNING_THRESHOLDS = [0.8, 1] as const;

/**
 * The notification for a change of use from `before` to `after` that crossed 80% or 100% of the
 * limit (the highest crossed), or null. Stateless: use can drop and cross the same threshold again
 * (deleted contacts, failed sends), so callers send it through warnUsageOnce (usage-warnings.ts),
 * which sends each threshold once per month.
 */
export function usageWarning(
  kind: 'subscribers' | 'emails',
  before: number,
  after: number,
  limit: number | null,
  planName: string,
): { title: string; body: string; link: string; threshold: number } | null {
  if (limit === null || limit === 0) return null;
  const crossed = USAGE_WARNING_THRESHOLDS.filter((share) => before < limit * share && after >= limit * share).at(-1);
  if (crossed === undefined) return null;
  const what = kind === 'subscribers' ? 'subscribers' : 'emails this month';
  const amount = `${after.toLocaleString('en-US')} of ${limit.toLocaleString('en-US')} ${what}`;
  return crossed === 1
    ? {
        title: `You have reached your plan's ${kind === 'subscribers' ? 'subscriber' : 'monthly email'} limit`,
        body: `${amount} on your ${planName} plan. Upgrade on the Billing page to ${kind === 'subscribers' ? 'add more' : 'send more this month'}.`,
        link: '/billing',
        threshold: crossed,
      }
    : {
        title: `You have used 80% of your plan's ${kind === 'subscribers' ? 'subscribers' : 'monthly emails'}`,
        body: `${amount} on your ${planName} plan.`,
        link: '/billing',
        threshold: crossed,
      };
}
