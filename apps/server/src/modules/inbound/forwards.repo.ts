import { and, asc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { aliasForwardsTable, SendClaim, sendLedgerOf } from '../../db/send-ledger.ts';
import type { SendLedger } from '../../lib/mail-transport.ts';
import type { AliasWithDomain } from '../aliases/index.ts';
import type { AliasMessageRow } from './messages.repo.ts';
import { aliasForwards, aliasMessages, domains, emailAliases } from '../../db/schema/index.ts';

// The forwarding ledger (alias_forwards): one row per forward or auto-reply a message makes, claimed
// by one worker at a time.

export type ForwardRow = typeof aliasForwards.$inferSelect;

export async function insertForwards(db: DbOrTx, rows: (typeof aliasForwards.$inferInsert)[]): Promise<ForwardRow[]> {
  if (rows.length === 0) return [];
  return db.insert(aliasForwards).values(rows).onConflictDoNothing().returning();
}

/** How long a forward's claim may go unrenewed before it is a dead worker's (the ledger's stale window). */
export const FORWARD_CLAIM_STALE_MS = aliasForwardsTable.staleAfterMs;

/** The forwards ledger as the delivery engine's recorders mark it (db/send-ledger.ts). */
export const forwardLedger = (db: DbOrTx): SendLedger => sendLedgerOf(db, aliasForwardsTable);

/** One batch's claim on the forwards `ids` (db/send-ledger.ts). */
export const forwardSendClaim = (db: DbOrTx, ids: number[]): SendClaim =>
  new SendClaim(db, aliasForwardsTable, sql`id = ANY(${sql.param(ids)}::bigint[])`);

/** A forward as the sending policy takes it: its row, with its destination as the recipient. */
export type ForwardFeedRow = ForwardRow & { email: string; contactId: null };

const asFeedRows = (rows: ForwardRow[]): ForwardFeedRow[] =>
  rows.map((row) => ({ ...row, email: row.toEmail, contactId: null }));

/** Rows of `ids` that wait for a claim (pending, or deferred and offered again by the sweep). */
const waiting = (ids: number[]) =>
  and(inArray(aliasForwards.id, ids), inArray(aliasForwards.status, ['pending', 'deferred']));

/**
 * Claims up to `limit` waiting forwards of `ids` for `claimToken` (lowest ids first; SKIP LOCKED:
 * two workers never claim the same row), counting the attempt.
 */
export async function claimForwards(
  db: DbOrTx,
  ids: number[],
  claimToken: string,
  limit: number,
): Promise<ForwardFeedRow[]> {
  if (ids.length === 0 || limit <= 0) return [];
  const picked = db
    .select({ id: aliasForwards.id })
    .from(aliasForwards)
    .where(waiting(ids))
    .orderBy(asc(aliasForwards.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db
    .update(aliasForwards)
    .set({ status: 'sending', claimToken, claimedAt: sql`now()`, attempts: sql`${aliasForwards.attempts} + 1` })
    .where(and(inArray(aliasForwards.id, picked), waiting(ids)))
    .returning();
  return asFeedRows(rows.sort((a, b) => a.id - b.id));
}

/** The forwards of `ids` that `claimToken` holds unsent (a claim whose answer was lost). */
export async function claimedForwards(db: DbOrTx, ids: number[], claimToken: string): Promise<ForwardFeedRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(aliasForwards)
    .where(
      and(
        inArray(aliasForwards.id, ids),
        eq(aliasForwards.status, 'sending'),
        eq(aliasForwards.claimToken, claimToken),
      ),
    )
    .orderBy(asc(aliasForwards.id));
  return asFeedRows(rows);
}

/** Forwards of `ids` whose claim went stale (their worker died), other than `ownClaimToken`'s, back to 'pending'. */
export async function requeueStaleForwards(
  db: DbOrTx,
  ids: number[],
  staleBefore: Date,
  ownClaimToken: string,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(aliasForwards)
    .set({ status: 'pending', claimToken: null })
    .where(
      and(
        inArray(aliasForwards.id, ids),
        eq(aliasForwards.status, 'sending'),
        lt(aliasForwards.claimedAt, staleBefore),
        sql`${aliasForwards.claimToken} IS DISTINCT FROM ${ownClaimToken}`,
      ),
    );
}

/**
 * Parks the forwards of `ids` still waiting as 'deferred' with the reason (the plan or the warming
 * cap held them back): the sweep offers them again once FORWARD_DEFER_RETRY_MS passed.
 */
export async function deferWaitingForwards(db: DbOrTx, ids: number[], reason: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(aliasForwards)
    .set({ status: 'deferred', error: reason.slice(0, 500), claimToken: null, claimedAt: sql`now()` })
    .where(waiting(ids));
}

/** forwardContext for many forwards at once, by forward id, with each one's alias and its domain. */
export async function forwardContexts(
  db: DbOrTx,
  ids: number[],
): Promise<Map<number, { forward: ForwardRow; message: AliasMessageRow; alias: AliasWithDomain }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ forward: aliasForwards, message: aliasMessages, alias: emailAliases, domainName: domains.domain })
    .from(aliasForwards)
    .innerJoin(aliasMessages, eq(aliasMessages.id, aliasForwards.aliasMessageId))
    .innerJoin(emailAliases, eq(emailAliases.id, aliasForwards.aliasId))
    .innerJoin(domains, eq(domains.id, emailAliases.domainId))
    .where(inArray(aliasForwards.id, ids));
  return new Map(
    rows.map((row) => [
      row.forward.id,
      { forward: row.forward, message: row.message, alias: { ...row.alias, domainName: row.domainName } },
    ]),
  );
}

/** The forwards of many messages (settling their outcomes). */
export async function forwardsOfMessages(db: DbOrTx, aliasMessageIds: number[]): Promise<ForwardRow[]> {
  if (aliasMessageIds.length === 0) return [];
  return db.select().from(aliasForwards).where(inArray(aliasForwards.aliasMessageId, aliasMessageIds));
}

/**
 * Forwards left pending or stuck in 'sending' since before `before` (a lost enqueue, or a dead
 * worker: a live one renews its claims), and deferred ones parked before `deferredBefore` (the
 * allowance is checked again).
 */
export async function strandedForwards(
  db: DbOrTx,
  before: Date,
  limit: number,
  deferredBefore: Date = before,
): Promise<number[]> {
  const since = sql`coalesce(${aliasForwards.claimedAt}, ${aliasForwards.createdAt})`;
  const rows = await db
    .select({ id: aliasForwards.id })
    .from(aliasForwards)
    .where(
      or(
        and(inArray(aliasForwards.status, ['pending', 'sending']), lt(since, before)),
        and(eq(aliasForwards.status, 'deferred'), lt(since, deferredBefore)),
      ),
    )
    .limit(limit);
  return rows.map((row) => row.id);
}
