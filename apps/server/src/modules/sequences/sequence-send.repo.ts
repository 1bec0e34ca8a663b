import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import type { SendLedger } from '../../lib/mail-transport.ts';
import { SendClaim, sequenceSendsTable, sendLedgerOf } from '../../db/send-ledger.ts';
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
  jobTitle: string | null;
  location: string | null;
};

export type SequenceForSend = typeof emailSequences.$inferSelect;

export async function sequenceById(db: DbOrTx, sequenceId: number): Promise<SequenceForSend | undefined> {
  const [row] = await db.select().from(emailSequences).where(eq(emailSequences.id, sequenceId)).limit(1);
  return row;
}

/**
 * The sends one claim (a batch) failed, not counting bounces (a refused mailbox is the contact's
 * matter, reported as a bounce): how many, and the last one's error.
 */
export async function failuresOfClaim(
  db: DbOrTx,
  claimToken: string,
): Promise<{ count: number; lastError: string | null }> {
  const rows = await db
    .select({ error: sequenceSends.error })
    .from(sequenceSends)
    .where(and(eq(sequenceSends.claimToken, claimToken), eq(sequenceSends.status, 'failed')))
    .orderBy(desc(sequenceSends.id));
  return { count: rows.length, lastError: rows[0]?.error ?? null };
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

/** Warming slots handed back with rows: how many on each domain's UTC day. */
export type HeldSlots = { domainId: number; day: string; count: number }[];

function heldSlots(rows: unknown[]): HeldSlots {
  return (rows as { domainId: number | string; day: string; count: number | string }[]).map((row) => ({
    domainId: Number(row.domainId),
    day: row.day,
    count: Number(row.count),
  }));
}

/**
 * Puts rows whose claim went stale (their worker died) back in the queue, of one sequence or of
 * all, and answers the warming slots those claims held (to hand back in the same transaction).
 */
export async function requeueStale(
  db: DbOrTx,
  staleBefore: Date,
  of: { sequenceId: number; ownClaimToken: string } | null,
): Promise<HeldSlots> {
  const result = await db.execute(sql`
    WITH stale AS (
      SELECT id, warming_domain_id, warming_day FROM ${sequenceSends}
      WHERE status = 'sending' AND claimed_at < ${staleBefore.toISOString()}::timestamptz
        ${of === null ? sql`` : sql`AND sequence_id = ${of.sequenceId} AND claim_token IS DISTINCT FROM ${of.ownClaimToken}`}
      ORDER BY id FOR UPDATE SKIP LOCKED),
    requeued AS (
      UPDATE ${sequenceSends} AS s SET status = 'queued', claim_token = NULL, warming_domain_id = NULL, warming_day = NULL
      FROM stale WHERE s.id = stale.id
      RETURNING stale.warming_domain_id AS domain_id, stale.warming_day AS day)
    SELECT domain_id AS "domainId", day, count(*)::int AS count FROM requeued
    WHERE domain_id IS NOT NULL AND day IS NOT NULL GROUP BY domain_id, day`);
  return heldSlots(result.rows);
}

/**
 * Lets go of the warming slots held by rows of this claim that will not be sent by it (`ids`, or
 * with 'unsent' every row it still holds 'sending'), answering them. Call it before the rows leave
 * the claim (requeueRow and releaseClaims clear the token). A sent row keeps its slot: a real send.
 */
export async function releaseHeldSlots(db: DbOrTx, claimToken: string, ids: number[] | 'unsent'): Promise<HeldSlots> {
  const result = await db.execute(sql`
    WITH held AS (
      SELECT id, warming_domain_id, warming_day FROM ${sequenceSends}
      WHERE claim_token = ${claimToken} AND warming_domain_id IS NOT NULL
        ${ids === 'unsent' ? sql`AND status = 'sending'` : sql`AND id = ANY(${sql.param(ids)}::bigint[])`}
      FOR UPDATE),
    released AS (
      UPDATE ${sequenceSends} AS s SET warming_domain_id = NULL, warming_day = NULL
      FROM held WHERE s.id = held.id
      RETURNING held.warming_domain_id AS domain_id, held.warming_day AS day)
    SELECT domain_id AS "domainId", day, count(*)::int AS count FROM released
    WHERE day IS NOT NULL GROUP BY domain_id, day`);
  return heldSlots(result.rows);
}

const ROW_COLUMNS = sql`s.id, s.node_id AS "nodeId", s.contact_id AS "contactId", s.email,
  coalesce(c.first_name, '') AS "firstName", coalesce(c.last_name, '') AS "lastName", c.company,
  c.job_title AS "jobTitle", c.location`;

function toRows(rows: unknown[]): SequenceSendRow[] {
  return (rows as SequenceSendRow[]).map((row) => ({ ...row, id: Number(row.id) }));
}

/**
 * A contact's marketing emails of the last 24 hours, as the frequency cap counts them: sequence
 * emails claimed, sent or bounced after leaving, and campaign emails sent.
 */
const recentEmailsOf = (contactId: SQL) => sql`(
  (SELECT count(*) FROM ${sequenceSends} r
    WHERE r.contact_id = ${contactId} AND r.status IN ('sending', 'sent', 'bounced')
      AND r.claimed_at > now() - interval '24 hours')
  + (SELECT count(*) FROM campaign_sends k
    WHERE k.contact_id = ${contactId} AND k.sent_at IS NOT NULL AND k.sent_at > now() - interval '24 hours'))`;

/**
 * Claims up to `limit` queued sends of the sequence (SKIP LOCKED: two workers never claim the same
 * row), passing over those whose contact has had `maxPerContactPerDay` marketing emails in the last
 * 24 hours (they stay queued, deferred), and within one claim no more per contact than the cap
 * leaves. The caller holds the account's lock, so claims of two sequences of one account count in
 * turn. Claimed rows hold the warming slot `warming` (domain and day) until sent or given back.
 */
export async function claimRows(
  db: DbOrTx,
  input: {
    sequenceId: number;
    claimToken: string;
    limit: number;
    maxPerContactPerDay: number;
    warming: { domainId: number; day: string } | null;
  },
): Promise<SequenceSendRow[]> {
  const cap = input.maxPerContactPerDay;
  const result = await db.execute(sql`
    WITH candidates AS (
      SELECT s.id, s.contact_id FROM ${sequenceSends} s
      WHERE s.sequence_id = ${input.sequenceId} AND s.status = 'queued'
        AND (s.contact_id IS NULL OR ${recentEmailsOf(sql`s.contact_id`)} < ${cap})
      ORDER BY s.id LIMIT ${input.limit} FOR UPDATE OF s SKIP LOCKED),
    ranked AS (
      SELECT id, contact_id, row_number() OVER (PARTITION BY contact_id ORDER BY id) AS rn,
        CASE WHEN contact_id IS NULL THEN 0 ELSE ${recentEmailsOf(sql`candidates.contact_id`)} END AS recent
      FROM candidates),
    claimed AS (
      UPDATE ${sequenceSends} SET status = 'sending', claim_token = ${input.claimToken}, claimed_at = now(),
        attempts = attempts + 1, warming_domain_id = ${input.warming?.domainId ?? null}::integer,
        warming_day = ${input.warming?.day ?? null}::text
      WHERE id IN (SELECT id FROM ranked WHERE contact_id IS NULL OR recent + rn <= ${cap})
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

/** Active sequences with queued sends. */
export async function sequencesWithQueuedSends(db: DbOrTx): Promise<number[]> {
  const result = await db.execute(sql`
    SELECT DISTINCT s.sequence_id AS "sequenceId" FROM ${sequenceSends} s
    JOIN ${emailSequences} q ON q.id = s.sequence_id
    WHERE s.status IN ('queued', 'sending') AND q.status = 'active'`);
  return (result.rows as { sequenceId: number | string }[]).map((row) => Number(row.sequenceId));
}

/** The sequence send ledger as the delivery engine's recorders see it. */
export const sequenceLedger = (db: DbOrTx): SendLedger => sendLedgerOf(db, sequenceSendsTable);

/** One batch's claim on the sequence's rows (db/send-ledger.ts). */
export const sequenceSendClaim = (db: DbOrTx, sequenceId: number): SendClaim =>
  new SendClaim(db, sequenceSendsTable, sql`sequence_id = ${sequenceId}`);
