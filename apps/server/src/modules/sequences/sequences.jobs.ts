import {
  emptyJobSchema,
  sequenceAdvanceJobSchema,
  sequenceSendJobSchema,
  sequenceTriggerJobSchema,
} from '@sendwell/contract/jobs';
import type { AppContext } from '../../context.ts';
import { defineJob, type Queue } from '../../lib/queue.ts';
import { ADVANCE_LOOPS, advanceAllDue, endStoppedEnrolments, nextDueAt } from './sequence-engine.ts';
import { enrol, runListTriggers, TRIGGER_SETTLE_MS } from './sequences.service.ts';
import { recoverSequenceSends, sendSequenceEmails, sequencesWithQueuedSends } from './sequence-batch.ts';

/** How far ahead a run books the wake for the next due enrolment; the minute tick covers anything later. */
const WAKE_AHEAD_MS = 60_000;

/** Runs every due enrolment, then books a wake for the next one due within the minute. */
async function advanceAndRebook(ctx: AppContext): Promise<void> {
  await advanceAllDue(ctx.db, {
    loops: ADVANCE_LOOPS,
    // Each committed batch's queued emails go to the delivery engine at once.
    onBatch: async ({ sequenceIds }) => {
      for (const sequenceId of sequenceIds) await requestSequenceSend(ctx.queue, sequenceId);
    },
  });
  const next = await nextDueAt(ctx.db);
  if (next && next.getTime() - Date.now() < WAKE_AHEAD_MS) await requestAdvanceAt(ctx.queue, next);
}

/** A wake of the advancer (on enrolment, activation, or when the next step falls due). */
export const advanceSequencesJob = defineJob({
  name: 'sequences.advance',
  payload: sequenceAdvanceJobSchema,
  // One at a time per process: a run keeps ADVANCE_LOOPS batches going itself.
  worker: { concurrency: 1, pollingIntervalSeconds: 1 },
  send: { retryLimit: 3, retryDelay: 5 },
  handler: async (ctx: AppContext) => advanceAndRebook(ctx),
});

/**
 * Every minute: end the enrolments of contacts who unsubscribed, bounced or complained, enrol the
 * list joiners of signup triggers, advance what is due, recover sends left 'sending' by a dead
 * worker, and hand every sequence's queued sends to the engine.
 */
export const sequenceTickJob = defineJob({
  name: 'sequences.tick',
  payload: emptyJobSchema,
  worker: { cron: '* * * * *' },
  handler: async (ctx: AppContext) => {
    await endStoppedEnrolments(ctx.db);
    await runListTriggers(ctx.db);
    await advanceAndRebook(ctx);
    // Sends a dead worker left 'sending' go back to the queue, handing back their warming slots.
    await recoverSequenceSends(ctx);
    // Sends left queued (a deferral, the warming cap, the frequency cap, a worker that died) are handed over again.
    for (const sequenceId of await sequencesWithQueuedSends(ctx)) await requestSequenceSend(ctx.queue, sequenceId);
  },
});

/** Hands one sequence's queued emails to the delivery engine. */
export const sendSequenceEmailsJob = defineJob({
  name: 'sequences.send',
  payload: sequenceSendJobSchema,
  worker: { concurrency: 2, pollingIntervalSeconds: 0.5 },
  send: { retryLimit: 10, retryDelay: 15, retryBackoff: true },
  handler: (ctx: AppContext, { sequenceId }) => sendSequenceEmails(ctx, sequenceId),
});

/** One user's signup triggers, checked soon after their contacts changed (a form, an import, the API or by hand). */
const sequenceTriggersJob = defineJob({
  name: 'sequences.triggers-user',
  payload: sequenceTriggerJobSchema,
  handler: async (ctx: AppContext, { userId }) => {
    if ((await runListTriggers(ctx.db, userId)) > 0) await advanceAndRebook(ctx);
  },
});

export const sequenceJobs = [advanceSequencesJob, sequenceTickJob, sequenceTriggersJob, sendSequenceEmailsJob];

/** Wakes the sender of one sequence (wakes within the same second share one job). */
export async function requestSequenceSend(queue: Queue, sequenceId: number): Promise<void> {
  await sendSequenceEmailsJob.enqueue(
    queue,
    { sequenceId },
    { singletonKey: `seq-${sequenceId}`, singletonSeconds: 1 },
  );
}

/**
 * Asks for a check of the user's signup triggers once the joins just made have settled (see
 * TRIGGER_SETTLE_MS); changes in quick succession share one job.
 */
export async function requestTriggerCheck(queue: Queue, userId: string): Promise<void> {
  const seconds = Math.ceil(TRIGGER_SETTLE_MS / 1000) + 1;
  await sequenceTriggersJob.enqueue(
    queue,
    { userId },
    { startAfter: seconds, singletonKey: userId, singletonSeconds: seconds, singletonNextSlot: true },
  );
}

/** Wakes the advancer now (wakes asked for within the same second share one job). */
export async function requestAdvance(queue: Queue, reason: string): Promise<void> {
  await advanceSequencesJob.enqueue(queue, { reason }, { singletonKey: 'now', singletonSeconds: 1 });
}

/**
 * Enrols the account's contacts in its sequence (skipping the unsubscribed, the suppressed and whom
 * the re-entry rule keeps out) and wakes the advancer: what another module (the sunset policy's
 * re-engagement) uses. Answers how many entered; throws not_found for a sequence not the account's.
 */
export async function enrolContactsInSequence(
  ctx: AppContext,
  userId: string,
  sequenceId: number,
  contactIds: number[],
): Promise<number> {
  let enrolled = 0;
  // The enrol contract's limit per call (enrolBodySchema: 10,000 contacts).
  for (let i = 0; i < contactIds.length; i += 10_000) {
    const result = await enrol(ctx.db, userId, sequenceId, { contactIds: contactIds.slice(i, i + 10_000) }, () =>
      requestAdvance(ctx.queue, 'enrolled'),
    );
    enrolled += result.enrolled;
  }
  return enrolled;
}

/** Wakes the advancer at `at` (one job per due second). */
async function requestAdvanceAt(queue: Queue, at: Date): Promise<void> {
  const second = Math.ceil(at.getTime() / 1000);
  await advanceSequencesJob.enqueue(
    queue,
    { reason: 'due' },
    // The key names the due second; singletonSeconds makes it unique (per minute of booking), so runs
    // that book the same wake share one job instead of each starting a chain of its own.
    { startAfter: new Date(second * 1000), singletonKey: `at-${second}`, singletonSeconds: 60 },
  );
}
