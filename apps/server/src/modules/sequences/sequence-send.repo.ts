import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import type { SendLedger } from '../../lib/mail-transport.ts';
import { sendLedgerOf } from '../../db/send-ledger.ts';
import { emailSequences, emailSequenceVersions, sequenceSends } from '../../db/schema/index.ts';
import type { FlowData } from '@sendwell/contract/sequences';

/** A queued sequence email as the delivery engine sends it: the send row and its contact's merge values. */
export type SequenceSendRow = {
  id: number;
  nodeId: string;
  contactId: number | null;
  email: string;
  firstName: string;
  lastName: string;
  company: string | null;
};

export type SequenceForSend = typeof emailSequences.$inferSelect;

export async function sequenceById(db: DbOrTx, sequenceId: number): Promise<SequenceForSend | undefined> {
  const [row] = await db.select().from(emailSequences).where(eq(emailSequences.id, sequenceId)).limit(1);
  return row;
}

export async function sequenceStatus(db: DbOrTx, sequenceId: number): Promise<string | undefined> {
  const [row] = await db
    .select({ status: emailSequences.status })
    .from(emailSequences)
    .where(eq(emailSequences.id, sequenceId))
    .limit(1);
  return row?.status;
}

/** The published flows of a sequence, newest first (a send's node may live only in an older version). */
export async function versionFlows(db: DbOrTx, sequenceId: number): Promise<FlowData[]> {
  const rows = await db
    .select({ flowData: emailSequenceVersions.flowData })
    .from(emailSequenceVersions)
    .where(eq(emailSequenceVersions.sequenceId, sequenceId))
    .orderBy(sql`${emailSequenceVersions.version} DESC`);
  return rows.map((row) => row.flowData);
}

/**
 * Queued sends of the sequence whose contact may no longer be mailed (unsubscribed, inactive,
 * suppressed) end as 'suppressed' before they are claimed: they never reach the engine.
 */
export async function suppressStopped(db: DbOrTx, sequenceId: number): Promise<number> {
  const result = await db.execute(sql`
    UPDATE ${sequenceSends} AS s SET status = 'suppressed', claim_token = NULL
    WHERE s.sequence_id = ${sequenceId} AND s.status = 'queued' AND (
      NOT EXISTS (SELECT 1 FROM contacts c WHERE c.id = s.contact_id AND c.is_active)
      OR EXISTS (SELECT 1 FROM suppressions x WHERE x.user_id = s.user_id AND x.email = lower(s.email)))`);
  return result.rowCount ?? 0;
}

/** Puts rows whose claim went stale (their worker died) back in the queue. */
export async function requeueStale(db: DbOrTx, sequenceId: number, staleBefore: Date): Promise<void> {
  await db.execute(sql`
    UPDATE ${sequenceSends} SET status = 'queued', claim_token = NULL
    WHERE sequence_id = ${sequenceId} AND status = 'sending' AND claimed_at < ${staleBefore.toISOString()}::timestamptz`);
}

const ROW_COLUMNS = sql`s.id, s.node_id AS "nodeId", s.contact_id AS "contactId", s.email,
  coalesce(c.first_name, '') AS "firstName", coalesce(c.last_name, '') AS "lastName", c.company`;

function toRows(rows: unknown[]): SequenceSendRow[] {
  return (rows as SequenceSendRow[]).map((row) => ({ ...row, id: Number(row.id) }));
}

/** Claims up to `limit` queued sends of the sequence (SKIP LOCKED: two workers never claim the same row). */
export async function claimRows(
  db: DbOrTx,
  sequenceId: number,
  claimToken: string,
  limit: number,
): Promise<SequenceSendRow[]> {
  const result = await db.execute(sql`
    WITH claimed AS (
      UPDATE ${sequenceSends} SET status = 'sending', claim_token = ${claimToken}, claimed_at = now(), attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM ${sequenceSends}
        WHERE sequence_id = ${sequenceId} AND status = 'queued'
        ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING *)
    SELECT ${ROW_COLUMNS} FROM claimed s LEFT JOIN contacts c ON c.id = s.contact_id ORDER BY s.id`);
  return toRows(result.rows);
}

/** The rows this claim holds unsent (to recover a claim whose answer was lost). */
export async function claimedRows(db: DbOrTx, sequenceId: number, claimToken: string): Promise<SequenceSendRow[]> {
  const result = await db.execute(sql`
    SELECT ${ROW_COLUMNS} FROM ${sequenceSends} s LEFT JOIN contacts c ON c.id = s.contact_id
    WHERE s.sequence_id = ${sequenceId} AND s.status = 'sending' AND s.claim_token = ${claimToken}
    ORDER BY s.id`);
  return toRows(result.rows);
}

const mine = (id: number, claimToken: string) =>
  and(eq(sequenceSends.id, id), eq(sequenceSends.claimToken, claimToken));

export async function requeueRow(db: DbOrTx, id: number, claimToken: string, error: string | null): Promise<void> {
  await db
    .update(sequenceSends)
    .set({ status: 'queued', claimToken: null, ...(error === null ? {} : { error }) })
    .where(mine(id, claimToken));
}

/** A refused row: failed for good, or bounced (the bounce itself is recorded by modules/bounces, see the store). */
export async function failRow(
  db: DbOrTx,
  id: number,
  claimToken: string,
  error: string,
  bounced = false,
): Promise<void> {
  await db
    .update(sequenceSends)
    .set({ status: bounced ? 'bounced' : 'failed', error })
    .where(mine(id, claimToken));
}

/** Rows this claim still holds unsent go back to the queue. */
export async function releaseClaims(db: DbOrTx, sequenceId: number, claimToken: string): Promise<void> {
  await db
    .update(sequenceSends)
    .set({ status: 'queued', claimToken: null })
    .where(
      and(
        eq(sequenceSends.sequenceId, sequenceId),
        eq(sequenceSends.status, 'sending'),
        eq(sequenceSends.claimToken, claimToken),
      ),
    );
}

/** Active sequences with queued sends. */
export async function sequencesWithQueuedSends(db: DbOrTx): Promise<number[]> {
  const result = await db.execute(sql`
    SELECT DISTINCT s.sequence_id AS "sequenceId" FROM ${sequenceSends} s
    JOIN ${emailSequences} q ON q.id = s.sequence_id
    WHERE s.status IN ('queued', 'sending') AND q.status = 'active'`);
  return (result.rows as { sequenceId: number | string }[]).map((row) => Number(row.sequenceId));
}

/** The sequence send ledger as the delivery engine's recorders see it. */
export const sequenceLedger = (db: DbOrTx): SendLedger => sendLedgerOf(db, sequenceSends);
