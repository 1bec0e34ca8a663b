import type { Config } from '../../config.ts';
import type { DbOrTx } from '../../db/client.ts';
import { notifyUser } from '../notifications/index.ts';
import { planLimitsOf, planOf, USAGE_WARNING_THRESHOLDS, usageWarning, type BillingState } from './billing.service.ts';
import * as repo from './billing.repo.ts';

/** The warning period of `now`: its calendar month (UTC), as the monthly email allowance counts. */
function usagePeriodOf(now: Date): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
}

/**
 * Notifies the account when a change of use from `before` to `after` crossed 80% or 100% of its
 * limit, once per threshold and month: use that drops and climbs again (deleted contacts, failed
 * sends, a second import) does not warn again. Call it in the transaction that makes the change.
 */
export async function warnUsageOnce(
  db: DbOrTx,
  userId: string,
  change: {
    kind: 'subscribers' | 'emails';
    before: number;
    after: number;
    limit: number | null;
    planName: string;
  },
  now: Date = new Date(),
): Promise<void> {
  const warning = usageWarning(change.kind, change.before, change.after, change.limit, change.planName);
  if (!warning) return;
  const period = usagePeriodOf(now);
  // The lower thresholds are recorded too: after the 100% warning, falling back under 80% and
  // climbing again does not send an 80% one.
  let first = false;
  for (const threshold of USAGE_WARNING_THRESHOLDS.filter((share) => share <= warning.threshold)) {
    const inserted = await repo.recordUsageWarning(db, { userId, kind: change.kind, threshold, period });
    if (threshold === warning.threshold) first = inserted;
  }
  if (first) await notifyUser(db, userId, { title: warning.title, body: warning.body, link: warning.link });
}

/**
 * The monthly-email warning of mail the account is about to send, counted from `before` (this
 * month's emails, counted with the account row locked) to `after`: every sender (campaign starts,
 * sequence steps, forwards) warns through this one call, in the transaction that claims the mail.
 */
export function warnEmailUsageOnce(
  db: DbOrTx,
  config: Pick<Config, 'billingEnabled'>,
  account: { id: string } & Pick<BillingState, 'plan'>,
  sent: { before: number; after: number },
  now: Date = new Date(),
): Promise<void> {
  return warnUsageOnce(
    db,
    account.id,
    {
      kind: 'emails',
      before: sent.before,
      after: sent.after,
      limit: planLimitsOf(config, account).emailsPerMonth,
      planName: planOf(account).name,
    },
    now,
  );
}
