import { and, asc, count, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import type { SendLedger } from '../../lib/mail-transport.ts';
import { SendClaim, campaignSendsTable, sendLedgerOf } from '../../db/send-ledger.ts';
import {
  campaignLinks,
  campaigns,
  campaignSends,
  campaignTestSends,
  contactListMembers,
  contacts,
  contactSegmentMembers,
  suppressions,
  users,
} from '../../db/schema/index.ts';
import type { CampaignRow } from './campaigns.repo.ts';

/** The send ledger: one row per campaign and recipient, claimed by one batch at a time. */
export type LedgerRow = {
  id: number;
  contactId: number | null;
  email: string;
  firstName: string;
  lastName: string;
  company: string | null;
  jobTitle: string | null;
  location: string | null;
};
export type Batch = { campaignId: number; fromId: number; toId: number };

/** Locks the account's row: test mails are counted against its limits one request at a time. */
export async function lockAccount(tx: DbOrTx, userId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

/** The account's test mails since `since`: how many, and when the oldest of them went. */
export async function testSendsSince(
  db: DbOrTx,
  userId: string,
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  const rows = await db
    .select({ sentAt: campaignTestSends.sentAt })
    .from(campaignTestSends)
    .where(and(eq(campaignTestSends.userId, userId), gte(campaignTestSends.sentAt, since)))
    .orderBy(asc(campaignTestSends.sentAt));
  return { count: rows.length, oldest: rows[0]?.sentAt ?? null };
}

/** Records test mails about to go (one row per recipient); answers their ids. */
export async function insertTestSends(
  db: DbOrTx,
  userId: string,
  campaignId: number,
  emails: readonly string[],
): Promise<number[]> {
  if (emails.length === 0) return [];
  const rows = await db
    .insert(campaignTestSends)
    .values(emails.map((email) => ({ userId, campaignId, email })))
    .returning({ id: campaignTestSends.id });
  return rows.map((row) => row.id);
}

/** Forgets test mails that did not go after all, so they count against nothing. */
export async function deleteTestSends(db: DbOrTx, ids: readonly number[]): Promise<void> {
  if (ids.length > 0) await db.delete(campaignTestSends).where(inArray(campaignTestSends.id, [...ids]));
}

/** Which of `emails` (lower-cased) are among the user's contacts. */
export async function contactEmailsAmong(db: DbOrTx, userId: string, emails: readonly string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await db
    .select({ email: contacts.email })
    .from(contacts)
    .where(and(eq(contacts.userId, userId), inArray(contacts.email, [...emails])));
  return new Set(rows.map((row) => row.email.toLowerCase()));
}

/**
 * The one definition of a campaign's audience: the user's active contacts in any chosen list or
 * segment (each once), minus suppressed addresses (unsubscribed, bounced, complained).
 */
function recipientPredicate(userId: string, listIds: number[], segmentIds: number[]): SQL {
  return sql`${contacts.userId} = ${userId} AND ${contacts.isActive}
    AND (EXISTS (SELECT 1 FROM ${contactListMembers} m WHERE m.contact_id = ${contacts.id} AND m.list_id = ANY(${sql.param(listIds)}::int[]))
      OR EXISTS (SELECT 1 FROM ${contactSegmentMembers} s WHERE s.contact_id = ${contacts.id} AND s.segment_id = ANY(${sql.param(segmentIds)}::int[])))
    AND NOT EXISTS (SELECT 1 FROM ${suppressions} x WHERE x.user_id = ${userId} AND x.email = ${contacts.email})`;
}

/** How many recipients the lists and segments add up to now (for the send confirmation). */
export async function countRecipients(
  db: DbOrTx,
  userId: string,
  listIds: number[],
  segmentIds: number[],
): Promise<number> {
  if (listIds.length === 0 && segmentIds.length === 0) return 0;
  const result = await db.execute(
    sql`SELECT count(*)::int AS n FROM ${contacts} WHERE ${recipientPredicate(userId, listIds, segmentIds)}`,
  );
  return Number((result.rows[0] as { n: number }).n);
}

/** Resolves the audience once into the ledger (UNIQUE per campaign and contact); answers how many rows it added. */
export async function insertLedger(tx: DbOrTx, campaign: CampaignRow): Promise<number> {
  const inserted = await tx.execute(sql`
    INSERT INTO ${campaignSends} (campaign_id, user_id, contact_id, email, first_name, last_name, company, job_title, location)
    SELECT ${campaign.id}, ${campaign.userId}, ${contacts.id}, ${contacts.email}, ${contacts.firstName}, ${contacts.lastName}, ${contacts.company}, ${contacts.jobTitle}, ${contacts.location}
    FROM ${contacts} WHERE ${recipientPredicate(campaign.userId, campaign.listIds, campaign.segmentIds)}
    ON CONFLICT DO NOTHING`);
  return inserted.rowCount ?? 0;
}

export async function ledgerRange(
  db: DbOrTx,
  campaignId: number,
  onlyQueued = false,
): Promise<{ min: number; max: number } | null> {
  const [range] = await db
    .select({ min: sql<number | null>`min(${campaignSends.id})`, max: sql<number | null>`max(${campaignSends.id})` })
    .from(campaignSends)
    .where(
      onlyQueued
        ? and(eq(campaignSends.campaignId, campaignId), eq(campaignSends.status, 'queued'))
        : eq(campaignSends.campaignId, campaignId),
    );
  return range?.min != null && range.max != null ? { min: Number(range.min), max: Number(range.max) } : null;
}

export async function insertLinks(tx: DbOrTx, campaignId: number, urls: readonly string[]): Promise<void> {
  if (urls.length === 0) return;
  await tx
    .insert(campaignLinks)
    .values(urls.map((url) => ({ campaignId, url })))
    .onConflictDoNothing();
}

/** The stored ids of a campaign's links, in the order of `urls` (0 for one not stored). */
export async function linkIds(db: DbOrTx, campaignId: number, urls: readonly string[]): Promise<number[]> {
  const links = await db.select().from(campaignLinks).where(eq(campaignLinks.campaignId, campaignId));
  return urls.map((url) => links.find((l) => l.url === url)?.id ?? 0);
}

export async function findCampaignById(db: DbOrTx, campaignId: number): Promise<CampaignRow | undefined> {
  const [row] = await db.select().from(campaigns).where(eq(campaigns.id, campaignId)).limit(1);
  return row;
}

export async function campaignStatus(db: DbOrTx, campaignId: number): Promise<string | undefined> {
  const [row] = await db
    .select({ status: campaigns.status })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId))
    .limit(1);
  return row?.status;
}

export async function setStatus(
  db: DbOrTx,
  campaignId: number,
  values: { status?: string; totalRecipients?: number; scheduledAt?: Date | null },
): Promise<CampaignRow | undefined> {
  const [row] = await db
    .update(campaigns)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(campaigns.id, campaignId))
    .returning();
  return row;
}

export async function setPausedUntil(db: DbOrTx, campaignId: number, pausedUntil: Date | null): Promise<void> {
  await db.update(campaigns).set({ pausedUntil }).where(eq(campaigns.id, campaignId));
}

export async function cancelQueued(db: DbOrTx, campaignId: number): Promise<void> {
  await db
    .update(campaignSends)
    .set({ status: 'canceled' })
    .where(and(eq(campaignSends.campaignId, campaignId), eq(campaignSends.status, 'queued')));
}

/**
 * Puts rows whose claim went stale (their worker died) back in the queue, within a batch's range or
 * everywhere; a batch asking for its range names its own claim, which is alive however old.
 */
export async function requeueStale(
  db: DbOrTx,
  staleBefore: Date,
  batch?: Batch & { ownClaimToken: string },
): Promise<void> {
  if (batch) {
    await db.execute(sql`
      UPDATE ${campaignSends} SET status = 'queued', claim_token = NULL
      WHERE campaign_id = ${batch.campaignId} AND id BETWEEN ${batch.fromId} AND ${batch.toId}
        AND status = 'sending' AND claimed_at < ${staleBefore.toISOString()}::timestamptz
        AND claim_token IS DISTINCT FROM ${batch.ownClaimToken}`);
    return;
  }
  await db.execute(sql`
    UPDATE ${campaignSends} s SET status = 'queued', claim_token = NULL
    FROM ${campaigns} c
    WHERE s.campaign_id = c.id AND c.status = 'sending' AND s.status = 'sending' AND s.claimed_at < ${staleBefore.toISOString()}::timestamptz`);
}

/** Claims up to `limit` queued rows of the range (SKIP LOCKED: two workers never claim the same row). */
export async function claimRows(db: DbOrTx, batch: Batch, claimToken: string, limit: number): Promise<LedgerRow[]> {
  const result = await db.execute(sql`
    UPDATE ${campaignSends} SET status = 'sending', claim_token = ${claimToken}, claimed_at = now(), attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM ${campaignSends}
      WHERE campaign_id = ${batch.campaignId} AND id BETWEEN ${batch.fromId} AND ${batch.toId} AND status = 'queued'
      ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING id, contact_id AS "contactId", email, first_name AS "firstName", last_name AS "lastName", company,
      job_title AS "jobTitle", location`);
  return (result.rows as LedgerRow[]).map((row) => ({ ...row, id: Number(row.id) }));
}

/** The rows of the range this claim holds unsent (to recover a claim whose answer was lost). */
export async function claimedRows(db: DbOrTx, batch: Batch, claimToken: string): Promise<LedgerRow[]> {
  const result = await db.execute(sql`
    SELECT id, contact_id AS "contactId", email, first_name AS "firstName", last_name AS "lastName", company,
      job_title AS "jobTitle", location
    FROM ${campaignSends}
    WHERE campaign_id = ${batch.campaignId} AND id BETWEEN ${batch.fromId} AND ${batch.toId}
      AND status = 'sending' AND claim_token = ${claimToken}
    ORDER BY id`);
  return (result.rows as LedgerRow[]).map((row) => ({ ...row, id: Number(row.id) }));
}

export async function queuedInRange(db: DbOrTx, batch: Batch): Promise<number> {
  const [waiting] = await db
    .select({ n: count() })
    .from(campaignSends)
    .where(
      and(
        eq(campaignSends.campaignId, batch.campaignId),
        gte(campaignSends.id, batch.fromId),
        lte(campaignSends.id, batch.toId),
        eq(campaignSends.status, 'queued'),
      ),
    );
  return waiting?.n ?? 0;
}

/**
 * Moves the campaign's totalSent forward and marks it sent when no recipient is left queued. While
 * sending, `newlySent` (what this worker sent since its last report) is added, which costs nothing
 * however large the ledger; the exact count is taken once nothing is left to send, or when no
 * `newlySent` is given.
 */
export async function refreshCampaignProgress(
  db: DbOrTx,
  campaignId: number,
  newlySent?: number,
): Promise<FinishedCampaign | null> {
  const exactCount = sql`(SELECT count(*) FROM ${campaignSends} WHERE campaign_id = ${campaignId} AND status = 'sent')`;
  // `finished` is read from the row as it was (the UPDATE's FROM sees the old status): true for the
  // one statement that turns the campaign from sending to sent.
  const updated = await db.execute(sql`
    WITH state AS (
      SELECT NOT EXISTS (SELECT 1 FROM ${campaignSends} WHERE campaign_id = ${campaignId} AND status IN ('queued', 'sending')) AS done
    ), before AS (
      SELECT status FROM ${campaigns} WHERE id = ${campaignId}
    )
    UPDATE ${campaigns} c SET
      total_sent = CASE
        WHEN ${newlySent === undefined ? sql`true` : sql`c.status IN ('sending', 'sent') AND state.done`} THEN ${exactCount}
        ELSE c.total_sent + ${newlySent ?? 0} END,
      status = CASE WHEN c.status = 'sending' AND state.done THEN 'sent' ELSE c.status END,
      sent_at = CASE WHEN c.status = 'sending' AND state.done THEN now() ELSE c.sent_at END
    FROM state, before
    WHERE c.id = ${campaignId}
    RETURNING before.status = 'sending' AND c.status = 'sent' AS finished, c.user_id, c.name, c.total_sent`);
  const row = updated.rows[0] as
    { finished: boolean; user_id: string; name: string; total_sent: number | string } | undefined;
  if (!row?.finished) return null;
  return { campaignId, userId: row.user_id, name: row.name, totalSent: Number(row.total_sent) };
}

/** A campaign that has just sent its last message. */
export type FinishedCampaign = { campaignId: number; userId: string; name: string; totalSent: number };

/**
 * Campaigns still marked sending whose every recipient is done (none queued or being sent): their
 * last batch's final progress report did not reach the database.
 */
export async function drainedCampaignIds(db: DbOrTx): Promise<number[]> {
  const drained = await db.execute(sql`
    SELECT c.id FROM ${campaigns} c
    WHERE c.status = 'sending'
      AND NOT EXISTS (SELECT 1 FROM ${campaignSends} s WHERE s.campaign_id = c.id AND s.status IN ('queued', 'sending'))`);
  return (drained.rows as { id: number | string }[]).map((row) => Number(row.id));
}

/**
 * Queued rows of campaigns still sending whose warming pause (if any) is over, as id ranges: one per
 * `bucketSize` ids of the ledger (the span of its queued rows), for one campaign or all.
 */
export async function pendingSends(
  db: DbOrTx,
  bucketSize: number,
  campaignId?: number,
): Promise<{ campaignId: number; fromId: number; toId: number }[]> {
  const pending = await db.execute(sql`
    SELECT s.campaign_id AS "campaignId", min(s.id)::bigint AS "fromId", max(s.id)::bigint AS "toId"
    FROM ${campaignSends} s JOIN ${campaigns} c ON c.id = s.campaign_id
    WHERE c.status = 'sending' AND s.status = 'queued' AND (c.paused_until IS NULL OR c.paused_until <= now())
      ${campaignId === undefined ? sql`` : sql`AND s.campaign_id = ${campaignId}`}
    GROUP BY s.campaign_id, s.id / ${bucketSize}
    ORDER BY 1, 2`);
  return (pending.rows as { campaignId: number; fromId: string; toId: string }[]).map((row) => ({
    campaignId: Number(row.campaignId),
    fromId: Number(row.fromId),
    toId: Number(row.toId),
  }));
}

/** The send ledger as the delivery engine's recorders see it. */
export const campaignLedger = (db: DbOrTx): SendLedger => sendLedgerOf(db, campaignSendsTable);

/** One batch's claim on the campaign's rows (db/send-ledger.ts). */
export const campaignSendClaim = (db: DbOrTx, campaignId: number): SendClaim =>
  new SendClaim(db, campaignSendsTable, sql`campaign_id = ${campaignId}`);

/**
 * For conditional blocks: which recipients of the batch's range are members of each segment, read
 * once per batch so that choosing a block per recipient is a set look-up.
 */
export async function segmentMembersInBatch(
  db: DbOrTx,
  batch: Batch,
  segmentIds: number[],
): Promise<Map<number, Set<number>>> {
  const members = new Map<number, Set<number>>(segmentIds.map((id) => [id, new Set<number>()]));
  if (segmentIds.length === 0) return members;
  const result = await db.execute(sql`
    SELECT m.segment_id AS "segmentId", m.contact_id AS "contactId"
    FROM ${campaignSends} s JOIN ${contactSegmentMembers} m ON m.contact_id = s.contact_id
    WHERE s.campaign_id = ${batch.campaignId} AND s.id BETWEEN ${batch.fromId} AND ${batch.toId}
      AND m.segment_id = ANY(${sql.param(segmentIds)}::int[])`);
  for (const row of result.rows as { segmentId: number; contactId: number }[]) {
    members.get(Number(row.segmentId))?.add(Number(row.contactId));
  }
  return members;
}
