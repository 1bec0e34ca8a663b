import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FlowData } from '@sendwell/contract/sequences';
import type { DbOrTx } from '../../db/client.ts';
import { emailSequenceVersions, sequenceEnrolments, sequenceNodeStats, sequenceSends } from '../../db/schema/index.ts';
import type { LastEmail } from './sequence-walk.ts';

export type DueEnrolment = {
  id: number;
  userId: string;
  sequenceId: number;
  version: number;
  contactId: number;
  /** The contact's address, copied into the send rows this advance queues. */
  email: string;
  currentNodeId: string;
  stepCount: number;
  enteredAt: Date;
  /** Set when the contact may no longer be mailed: why the enrolment ends. */
  stopReason: string | null;
  lastPurchaseAt: Date | null;
  /** The enrolment's latest send (what its condition steps test). */
  lastEmail: LastEmail;
};

type DueRow = Omit<DueEnrolment, 'id' | 'enteredAt' | 'lastPurchaseAt' | 'lastEmail'> & {
  id: string | number;
  enteredAt: string | Date;
  lastPurchaseAt: string | Date | null;
  lastEmailAt: string | Date | null;
  lastOpenedAt: string | Date | null;
  lastClickedAt: string | Date | null;
};

/**
 * The enrolment `e` belongs to an active sequence: a lookup of its sequence by key for each row the
 * due index yields, so the planner walks that index in due order and stops at the LIMIT. Written as
 * EXISTS (a semi-join) the planner estimated from the sequences table's statistics how many due rows
 * survive (with a table too small to be analysed, a few hundred of 100,000), and below the LIMIT it
 * sorted every due row for each batch instead (40 ms a batch with 100,000 due, against 3 ms). A
 * boolean subquery is taken to pass half the rows, so the walk is chosen whatever the statistics; a
 * list of the active ids (= ANY) did as well but is searched row by row, slow with many sequences.
 */
const ofActiveSequence = sql`(SELECT q.status = 'active' FROM email_sequences q WHERE q.id = e.sequence_id)`;

const asDate = (value: string | Date) => (value instanceof Date ? value : new Date(value));

/**
 * Claims up to `limit` enrolments of active sequences whose time has come, locking them for the
 * transaction. SKIP LOCKED: rows another worker holds are passed over, and a row another worker
 * advanced meanwhile is re-checked against next_run_at under its lock (READ COMMITTED), so no two
 * workers run the same step. Each row brings what its walk reads: whether its contact may still be
 * mailed (unsubscribed, suppressed), its address, when it last bought something (Purchased
 * conditions) and its latest send (the other conditions), each an index probe per row.
 */
export async function claimDue(tx: DbOrTx, limit: number, now: Date): Promise<DueEnrolment[]> {
  // The lock is taken first, on the enrolments alone: the lookups below run for the rows claimed,
  // not for every row passed over because another worker holds it.
  const result = await tx.execute(sql`
    WITH claimed AS MATERIALIZED (
      SELECT e.id, e.user_id, e.sequence_id, e.version, e.contact_id, e.current_node_id, e.step_count,
        e.entered_at, e.next_run_at
      FROM ${sequenceEnrolments} e
      WHERE e.state = 'active' AND e.next_run_at <= ${now.toISOString()}::timestamptz AND ${ofActiveSequence}
      ORDER BY e.next_run_at
      LIMIT ${limit}
      FOR UPDATE OF e SKIP LOCKED)
    SELECT e.id, e.user_id AS "userId", e.sequence_id AS "sequenceId", e.version, e.contact_id AS "contactId",
      c.email, e.current_node_id AS "currentNodeId", e.step_count AS "stepCount", e.entered_at AS "enteredAt",
      CASE WHEN NOT c.is_active THEN 'unsubscribed'
        ELSE (SELECT CASE s.reason WHEN 'unsubscribe' THEN 'unsubscribed' WHEN 'bounce' THEN 'bounced'
                WHEN 'complaint' THEN 'complained' ELSE s.reason END
              FROM suppressions s WHERE s.user_id = c.user_id AND s.email = c.email) END AS "stopReason",
      (SELECT max(ev.created_at) FROM email_events ev
        WHERE ev.contact_id = e.contact_id AND ev.type = 'purchase') AS "lastPurchaseAt",
      last.created_at AS "lastEmailAt", last.opened_at AS "lastOpenedAt", last.clicked_at AS "lastClickedAt"
    FROM claimed e
    JOIN contacts c ON c.id = e.contact_id
    LEFT JOIN LATERAL (
      SELECT ls.created_at, ls.opened_at, ls.clicked_at FROM ${sequenceSends} ls
      WHERE ls.enrolment_id = e.id ORDER BY ls.step DESC LIMIT 1) last ON true
    ORDER BY e.next_run_at`);
  return (result.rows as DueRow[]).map(({ lastEmailAt, lastOpenedAt, lastClickedAt, ...row }): DueEnrolment => ({
    ...row,
    id: Number(row.id),
    enteredAt: asDate(row.enteredAt),
    lastPurchaseAt: row.lastPurchaseAt === null ? null : asDate(row.lastPurchaseAt),
    lastEmail:
      lastEmailAt === null
        ? null
        : {
            createdAt: asDate(lastEmailAt),
            openedAt: lastOpenedAt === null ? null : asDate(lastOpenedAt),
            clickedAt: lastClickedAt === null ? null : asDate(lastClickedAt),
          },
  }));
}

/** The flows of the given (sequence, version) pairs, keyed `${sequenceId}:${version}`. */
export async function flowsOf(
  db: DbOrTx,
  pairs: readonly { sequenceId: number; version: number }[],
): Promise<Map<string, FlowData>> {
  const flows = new Map<string, FlowData>();
  const bySequence = new Map<number, Set<number>>();
  for (const pair of pairs)
    bySequence.set(pair.sequenceId, (bySequence.get(pair.sequenceId) ?? new Set()).add(pair.version));
  for (const [sequenceId, versions] of bySequence) {
    const rows = await db
      .select({ version: emailSequenceVersions.version, flowData: emailSequenceVersions.flowData })
      .from(emailSequenceVersions)
      .where(
        and(eq(emailSequenceVersions.sequenceId, sequenceId), inArray(emailSequenceVersions.version, [...versions])),
      );
    for (const row of rows) flows.set(`${sequenceId}:${row.version}`, row.flowData);
  }
  return flows;
}

export type EnrolmentMove = {
  id: number;
  nodeId: string;
  state: string;
  exitReason: string | null;
  nextRunAt: Date | null;
  stepCount: number;
};

/**
 * Writes where each claimed enrolment moved, in one statement. The ids are also given as a list to
 * match: the planner then fetches the rows by their key; joined to the unnest alone it costed 1,000
 * key lookups above hashing the whole table and did that (40 of 60 ms a batch at 100,000 enrolments).
 */
export async function applyMoves(tx: DbOrTx, moves: readonly EnrolmentMove[]): Promise<void> {
  if (moves.length === 0) return;
  await tx.execute(sql`
    UPDATE ${sequenceEnrolments} AS e SET
      current_node_id = u.node_id, state = u.state, exit_reason = u.exit_reason, next_run_at = u.next_run_at,
      step_count = u.step_count, updated_at = now(),
      finished_at = CASE WHEN u.state = 'active' THEN NULL ELSE now() END
    FROM unnest(
      ${sql.param(moves.map((m) => m.id))}::bigint[],
      ${sql.param(moves.map((m) => m.nodeId))}::text[],
      ${sql.param(moves.map((m) => m.state))}::text[],
      ${sql.param(moves.map((m) => m.exitReason))}::text[],
      ${sql.param(moves.map((m) => m.nextRunAt?.toISOString() ?? null))}::timestamptz[],
      ${sql.param(moves.map((m) => m.stepCount))}::int[]
    ) AS u(id, node_id, state, exit_reason, next_run_at, step_count)
    WHERE e.id = u.id AND e.id = ANY(${sql.param(moves.map((m) => m.id))}::bigint[])`);
}

export type StepSend = {
  enrolmentId: number;
  userId: string;
  sequenceId: number;
  contactId: number;
  email: string;
  step: number;
  nodeId: string;
};

/**
 * Queues the email steps' sends in the same transaction as the moves: a step's row exists exactly
 * when its enrolment has moved past it, and (enrolment, step) is unique, so it is never queued twice.
 * Answers the rows queued.
 */
export async function queueSends(
  tx: DbOrTx,
  sends: readonly StepSend[],
): Promise<{ id: number; sequenceId: number }[]> {
  if (sends.length === 0) return [];
  const result = await tx.execute(sql`
    INSERT INTO ${sequenceSends} (user_id, sequence_id, enrolment_id, step, node_id, contact_id, email)
    SELECT * FROM unnest(
      ${sql.param(sends.map((s) => s.userId))}::uuid[],
      ${sql.param(sends.map((s) => s.sequenceId))}::int[],
      ${sql.param(sends.map((s) => s.enrolmentId))}::bigint[],
      ${sql.param(sends.map((s) => s.step))}::int[],
      ${sql.param(sends.map((s) => s.nodeId))}::text[],
      ${sql.param(sends.map((s) => s.contactId))}::int[],
      ${sql.param(sends.map((s) => s.email))}::text[])
    ON CONFLICT (enrolment_id, step) DO NOTHING
    RETURNING id, sequence_id AS "sequenceId"`);
  return (result.rows as { id: string | number; sequenceId: number }[]).map((row) => ({
    id: Number(row.id),
    sequenceId: row.sequenceId,
  }));
}

/**
 * Ends every enrolment in flight of contacts that may no longer be mailed (unsubscribed, hard
 * bounced, complained: suppressed or inactive), at once rather than at their next step. Answers how many ended.
 */
export async function endStoppedEnrolments(db: DbOrTx): Promise<number> {
  const result = await db.execute(sql`
    UPDATE ${sequenceEnrolments} AS e SET state = 'exited', next_run_at = NULL, finished_at = now(), updated_at = now(),
      exit_reason = CASE WHEN NOT c.is_active THEN 'unsubscribed'
        ELSE (SELECT CASE s.reason WHEN 'unsubscribe' THEN 'unsubscribed' WHEN 'bounce' THEN 'bounced'
                WHEN 'complaint' THEN 'complained' ELSE s.reason END
              FROM suppressions s WHERE s.user_id = c.user_id AND s.email = c.email) END
    FROM contacts c
    WHERE e.state = 'active' AND c.id = e.contact_id
      AND (NOT c.is_active OR EXISTS (SELECT 1 FROM suppressions s WHERE s.user_id = c.user_id AND s.email = c.email))`);
  return result.rowCount ?? 0;
}

/** When the next enrolment of an active sequence falls due (null: none is waiting). */
export async function nextDueAt(db: DbOrTx): Promise<Date | null> {
  // ORDER BY … LIMIT 1 walks the partial due index from its start and stops at the first active sequence's row.
  const result = await db.execute(sql`
    SELECT e.next_run_at AS "at" FROM ${sequenceEnrolments} e
    WHERE e.state = 'active' AND e.next_run_at IS NOT NULL AND ${ofActiveSequence}
    ORDER BY e.next_run_at LIMIT 1`);
  const at = (result.rows[0] as { at: string | Date } | undefined)?.at;
  return at === undefined ? null : asDate(at);
}

export type NodeStatDelta = { sequenceId: number; nodeId: string; entered: number; branchedElse: number };

/** Adds a batch's arrivals and else branches to the node counters (in key order, so concurrent batches lock alike). */
export async function bumpNodeStats(tx: DbOrTx, deltas: readonly NodeStatDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  const sorted = [...deltas].sort(
    (a, b) => a.sequenceId - b.sequenceId || (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0),
  );
  await tx.execute(sql`
    INSERT INTO ${sequenceNodeStats} AS s (sequence_id, node_id, entered, branched_else)
    SELECT * FROM unnest(
      ${sql.param(sorted.map((d) => d.sequenceId))}::int[],
      ${sql.param(sorted.map((d) => d.nodeId))}::text[],
      ${sql.param(sorted.map((d) => d.entered))}::int[],
      ${sql.param(sorted.map((d) => d.branchedElse))}::int[])
    ON CONFLICT (sequence_id, node_id) DO UPDATE
      SET entered = s.entered + excluded.entered, branched_else = s.branched_else + excluded.branched_else`);
}
