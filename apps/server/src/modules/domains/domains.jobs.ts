import type { AppContext } from '../../context.ts';
import { emptyJobSchema } from '@sendwell/contract/jobs';
import { defineJob } from '../../lib/queue.ts';
import * as repo from './domains.repo.ts';
import { checkDomain, type CheckOutcome } from './domains.service.ts';

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * How often each domain is looked up again (issue: pending every 15 minutes for the first 48 hours,
 * then hourly; verified daily). The sweep runs every 15 minutes; each interval is a minute shorter
 * than its nominal value so that a domain checked a few seconds into one sweep is still due at the
 * matching later sweep despite scheduling jitter.
 */
const RECHECK_INTERVALS = {
  youngFor: 48 * HOUR_MS,
  young: 15 * MINUTE_MS - MINUTE_MS,
  old: HOUR_MS - MINUTE_MS,
  verified: 24 * HOUR_MS - MINUTE_MS,
};
/** Domains looked up per sweep, and at once; the rest wait for the next sweep (oldest check first). */
const SWEEP_LIMIT = 500;
const PARALLEL_CHECKS = 8;

const RECHECK_DUE_DOMAINS = 'domains.recheck-due';

export type SweepResult = Record<CheckOutcome, number>;

/** Looks up every domain whose next check has come; safe to run twice (a check is idempotent). */
export async function recheckDueDomains(
  ctx: Pick<AppContext, 'db' | 'config'>,
  now: Date = new Date(),
): Promise<SweepResult> {
  const due = await repo.domainsDueForCheck(ctx.db, now, RECHECK_INTERVALS, SWEEP_LIMIT);
  const result: SweepResult = { verified: 0, pending: 0, lost: 0, gone: 0 };
  for (let start = 0; start < due.length; start += PARALLEL_CHECKS) {
    const outcomes = await Promise.all(
      due
        .slice(start, start + PARALLEL_CHECKS)
        .map((domain) => checkDomain(ctx.db, ctx.config, domain.id, { now, source: 'job' })),
    );
    for (const outcome of outcomes) result[outcome] += 1;
  }
  return result;
}

/** The 15-minute DNS re-check sweep of sending domains. */
const recheckDueDomainsJob = defineJob({
  name: RECHECK_DUE_DOMAINS,
  payload: emptyJobSchema,
  worker: { cron: '*/15 * * * *' },
  handler: async (ctx: AppContext) => void (await recheckDueDomains(ctx)),
});

export const domainJobs = [recheckDueDomainsJob];
