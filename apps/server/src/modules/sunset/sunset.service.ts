import type { ContactSunset, SunsetPolicy, SunsetPolicyBody } from '@sendwell/contract/sunset';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { suppress } from '../delivery/index.ts';
import { enrolContactsInSequence } from '../sequences/index.ts';
import * as repo from './sunset.repo.ts';

const DAY_MS = 86_400_000;
/** A sweep runs for an account at most once in this time (the job runs hourly; accounts are swept daily). */
const SWEEP_EVERY_MS = 20 * 60 * 60 * 1000;

const SEQUENCE_NOT_FOUND = 'Sequence not found';

/** GET /api/sunset-policy: the account's policy and where its contacts stand under it. */
export async function sunsetPolicyOf(db: DbOrTx, userId: string): Promise<SunsetPolicy> {
  const policy = await repo.policyOf(db, userId);
  const sequence =
    policy.reengagementSequenceId === null ? null : await repo.sequenceOf(db, userId, policy.reengagementSequenceId);
  return {
    enabled: policy.enabled,
    inactiveDays: policy.inactiveDays,
    minMessages: policy.minMessages,
    graceDays: policy.graceDays,
    reengagementSequenceId: sequence?.id ?? null,
    reengagementSequenceName: sequence?.name ?? null,
    ...(await repo.standing(db, userId)),
    lastRunAt: policy.lastRunAt?.toISOString() ?? null,
  };
}

/** PUT /api/sunset-policy: the re-engagement sequence must be the account's own (404 otherwise). */
export async function saveSunsetPolicy(db: DbOrTx, userId: string, body: SunsetPolicyBody): Promise<SunsetPolicy> {
  if (body.reengagementSequenceId !== null && !(await repo.sequenceOf(db, userId, body.reengagementSequenceId)))
    throw new AppError('not_found', SEQUENCE_NOT_FOUND, { reengagementSequenceId: SEQUENCE_NOT_FOUND });
  await repo.savePolicy(db, userId, body);
  return sunsetPolicyOf(db, userId);
}

/** GET /api/contacts/:id/sunset: one contact under the policy (another account's contact is not found). */
export async function contactSunsetOf(db: DbOrTx, userId: string, contactId: number): Promise<ContactSunset> {
  const found = await repo.contactStanding(db, userId, contactId);
  if (!found) throw new AppError('not_found', 'Contact not found');
  if (found.unengaged) return { state: 'unengaged', since: null, suppressesAt: null };
  if (!found.startedAt) return { state: 'engaged', since: null, suppressesAt: null };
  const policy = await repo.policyOf(db, userId);
  return {
    state: 'reengaging',
    since: found.startedAt.toISOString(),
    suppressesAt: new Date(found.startedAt.getTime() + policy.graceDays * DAY_MS).toISOString(),
  };
}

export type SweepResult = { released: number; suppressed: number; started: number; enrolled: number };

/**
 * Applies the account's policy once, at `now`: contacts who acted leave their re-engagement period;
 * those whose period ended without acting are suppressed as unengaged (leaving their sequences);
 * then newly unengaged contacts start a period and enter the re-engagement sequence when one is
 * chosen and active. Does nothing while the policy is off.
 */
export async function sweepAccount(ctx: AppContext, userId: string, now = new Date()): Promise<SweepResult> {
  const { db } = ctx;
  const policy = await repo.policyOf(db, userId);
  const result: SweepResult = { released: 0, suppressed: 0, started: 0, enrolled: 0 };
  if (!policy.enabled) return result;
  result.released = await repo.releaseEngaged(db, userId);
  const ended = await repo.periodsEnded(db, userId, new Date(now.getTime() - policy.graceDays * DAY_MS));
  const detail = `No human open or click in ${policy.inactiveDays} days after at least ${policy.minMessages} messages, nor in the ${policy.graceDays} days to re-engage`;
  for (const contact of ended) {
    await db.transaction(async (tx) => {
      await suppress(tx, userId, contact.email, 'unengaged', { detail });
      await repo.endPeriod(tx, contact.id);
    });
    result.suppressed += 1;
  }
  const started = await repo.startPeriods(db, userId, policy, now);
  result.started = started.length;
  const sequence =
    policy.reengagementSequenceId === null ? null : await repo.sequenceOf(db, userId, policy.reengagementSequenceId);
  if (started.length > 0 && sequence?.status === 'active')
    result.enrolled = await enrolContactsInSequence(ctx, userId, sequence.id, started);
  await repo.markRun(db, userId, policy, now);
  return result;
}

/** The hourly job: sweeps each account whose last sweep is older than SWEEP_EVERY_MS, one at a time. */
export async function sweepDueAccounts(ctx: AppContext, now = new Date()): Promise<void> {
  for (const userId of await repo.accountsDue(ctx.db, new Date(now.getTime() - SWEEP_EVERY_MS)))
    await sweepAccount(ctx, userId, now);
}
