import type { Db } from '../../db/client.ts';
import * as repo from './sequence-engine.repo.ts';
import { walk } from './sequence-walk.ts';
import { recordWebhookEvent } from '../webhooks/index.ts';

/**
 * The due-step advancer. Each batch is one transaction: claim due enrolments (FOR UPDATE SKIP
 * LOCKED), walk each through its flow version, write the moves and queue the email steps' sends
 * together. A worker killed mid-batch rolls the whole batch back (nothing moved, nothing queued),
 * and the rows are due again for the next worker; a committed batch never runs again, because the
 * rows it moved are no longer due. Any number of workers run batches side by side.
 */

/** Enrolments per batch: large enough to amortise the round trips, small enough to hold few locks for long. */
export const ADVANCE_BATCH_SIZE = 1000;
/** Batch loops an advance run keeps going side by side: one batch's SQL overlaps another's walk and commit. */
export const ADVANCE_LOOPS = 4;

/** What batches did: enrolments advanced, the sends they queued and the sequences those belong to. */
export type BatchOutcome = { advanced: number; sendIds: number[]; sequenceIds: number[] };
/** One committed batch, with when it claimed its rows (when their steps started). */
export type CommittedBatch = BatchOutcome & { claimedAt: Date };

/** Runs one batch of due enrolments as of `now`. */
async function advanceDueBatch(db: Db, now = new Date(), limit = ADVANCE_BATCH_SIZE): Promise<CommittedBatch> {
  return db.transaction(async (tx) => {
    const due = await repo.claimDue(tx, limit, now);
    const claimedAt = new Date();
    if (due.length === 0) return { advanced: 0, sendIds: [], sequenceIds: [], claimedAt };
    const flows = await repo.flowsOf(tx, due);
    const moves: repo.EnrolmentMove[] = [];
    const sends: repo.StepSend[] = [];
    const stats = new Map<string, repo.NodeStatDelta>();
    const stat = (sequenceId: number, nodeId: string) => {
      const key = `${sequenceId}\u0000${nodeId}`;
      let delta = stats.get(key);
      if (!delta) stats.set(key, (delta = { sequenceId, nodeId, entered: 0, branchedElse: 0 }));
      return delta;
    };
    for (const enrolment of due) {
      const flow = flows.get(`${enrolment.sequenceId}:${enrolment.version}`);
      if (enrolment.stopReason || !flow) {
        moves.push({
          id: enrolment.id,
          nodeId: enrolment.currentNodeId,
          state: 'exited',
          exitReason: enrolment.stopReason ?? 'removed',
          nextRunAt: null,
          stepCount: enrolment.stepCount,
        });
        continue;
      }
      const moved = walk(
        flow,
        {
          currentNodeId: enrolment.currentNodeId,
          stepCount: enrolment.stepCount,
          enteredAt: enrolment.enteredAt,
          lastEmail: enrolment.lastEmail,
          lastPurchaseAt: enrolment.lastPurchaseAt,
        },
        now,
      );
      moves.push({
        id: enrolment.id,
        nodeId: moved.nodeId,
        state: moved.state,
        exitReason: moved.exitReason,
        nextRunAt: moved.nextRunAt,
        stepCount: moved.stepCount,
      });
      for (const nodeId of moved.arrivals) stat(enrolment.sequenceId, nodeId).entered += 1;
      for (const ran of moved.ran) if (ran.branch === 'else') stat(enrolment.sequenceId, ran.nodeId).branchedElse += 1;
      for (const send of moved.sends) {
        sends.push({
          enrolmentId: enrolment.id,
          userId: enrolment.userId,
          sequenceId: enrolment.sequenceId,
          contactId: enrolment.contactId,
          email: enrolment.email,
          ...send,
        });
      }
    }
    await repo.applyMoves(tx, moves);
    const dueById = new Map(due.map((row) => [row.id, row]));
    for (const move of moves) {
      const enrolment = move.state === 'completed' ? dueById.get(move.id) : undefined;
      if (enrolment)
        await recordWebhookEvent(tx, enrolment.userId, 'sequence.completed', {
          sequenceId: enrolment.sequenceId,
          contactId: enrolment.contactId,
          email: enrolment.email,
          enrolmentId: enrolment.id,
        });
    }
    const queued = await repo.queueSends(tx, sends);
    // Last, so the counter rows (shared by concurrent batches) are held only until the commit.
    await repo.bumpNodeStats(tx, [...stats.values()]);
    return {
      advanced: due.length,
      sendIds: queued.map((send) => send.id),
      sequenceIds: [...new Set(queued.map((send) => send.sequenceId))],
      claimedAt,
    };
  });
}

/**
 * Runs batches until nothing is due as of `now` (or each loop ran `maxBatches`), in `loops` loops
 * side by side (SKIP LOCKED shares the rows out). Answers the totals.
 */
export async function advanceAllDue(
  db: Db,
  options: {
    now?: () => Date;
    batchSize?: number;
    maxBatches?: number;
    loops?: number;
    onBatch?: (batch: CommittedBatch) => Promise<void>;
  } = {},
): Promise<BatchOutcome> {
  // Settled, not Promise.all: a loop that fails is reported once the others have stopped, so no
  // loop goes on running after its job has ended.
  const settled = await Promise.allSettled(Array.from({ length: options.loops ?? 1 }, () => advanceLoop(db, options)));
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  const outcomes = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  return {
    advanced: outcomes.reduce((sum, outcome) => sum + outcome.advanced, 0),
    sendIds: outcomes.flatMap((outcome) => outcome.sendIds),
    sequenceIds: [...new Set(outcomes.flatMap((outcome) => outcome.sequenceIds))],
  };
}

async function advanceLoop(
  db: Db,
  options: {
    now?: () => Date;
    batchSize?: number;
    maxBatches?: number;
    onBatch?: (batch: CommittedBatch) => Promise<void>;
  },
): Promise<BatchOutcome> {
  const total: BatchOutcome = { advanced: 0, sendIds: [], sequenceIds: [] };
  const batchSize = options.batchSize ?? ADVANCE_BATCH_SIZE;
  for (let batch = 0; batch < (options.maxBatches ?? Number.POSITIVE_INFINITY); batch += 1) {
    const outcome = await advanceDueBatch(db, options.now?.() ?? new Date(), batchSize);
    total.advanced += outcome.advanced;
    total.sendIds.push(...outcome.sendIds);
    total.sequenceIds.push(...outcome.sequenceIds);
    if (options.onBatch && outcome.advanced > 0) await options.onBatch(outcome);
    if (outcome.advanced < batchSize) break;
  }
  return total;
}

/** Ends the enrolments of contacts that may no longer be mailed (see endStoppedEnrolments). */
export const endStoppedEnrolments = (db: Db) => repo.endStoppedEnrolments(db);
export const nextDueAt = (db: Db) => repo.nextDueAt(db);
