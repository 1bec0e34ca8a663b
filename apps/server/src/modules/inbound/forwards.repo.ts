import { and, asc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
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

/**
 * Claims a forward for sending: pending, deferred (waiting for the plan's allowance; the caller
 * checked it again), or 'sending' under a claim older than `staleBefore` (its worker died). Answers
 * the row, or undefined when it is done or another worker holds it.
 */
export async function claimForward(
  db: DbOrTx,
  id: number,
  claimToken: string,
  now: Date,
  staleBefore: Date,
): Promise<ForwardRow | undefined> {
  const [row] = await db
    .update(aliasForwards)
    .set({ status: 'sending', claimToken, claimedAt: now, attempts: sql`${aliasForwards.attempts} + 1` })
    .where(
      and(
        eq(aliasForwards.id, id),
        or(
          inArray(aliasForwards.status, ['pending', 'deferred']),
          and(eq(aliasForwards.status, 'sending'), lt(aliasForwards.claimedAt, staleBefore)),
        ),
      ),
    )
    .returning();
  return row;
}

/** A ledger row a worker may claim: waiting, or held by a worker whose claim went stale. */
const claimable = (staleBefore: Date) =>
  or(
    inArray(aliasForwards.status, ['pending', 'deferred']),
    and(eq(aliasForwards.status, 'sending'), lt(aliasForwards.claimedAt, staleBefore)),
  );

/**
 * Claims many forwards in one statement (what claimForward does for one), at most `limit` of them
 * (lowest ids first; the rest are left as they are): answers the rows claimed.
 */
export async function claimForwards(
  db: DbOrTx,
  ids: number[],
  claimToken: string,
  now: Date,
  staleBefore: Date,
  limit: number = ids.length,
): Promise<ForwardRow[]> {
  if (ids.length === 0 || limit <= 0) return [];
  // The rows are picked (and locked) first so the limit applies to claimable rows only.
  const picked = db
    .select({ id: aliasForwards.id })
    .from(aliasForwards)
    .where(and(inArray(aliasForwards.id, ids), claimable(staleBefore)))
    .orderBy(asc(aliasForwards.id))
    .limit(limit)
    .for('update');
  return db
    .update(aliasForwards)
    .set({ status: 'sending', claimToken, claimedAt: now, attempts: sql`${aliasForwards.attempts} + 1` })
    .where(and(inArray(aliasForwards.id, picked), claimable(staleBefore)))
    .returning();
}

/** Whose each forward is and of which kind (the allowance check before a claim); missing ids are gone. */
export async function forwardOwners(
  db: DbOrTx,
  ids: number[],
): Promise<{ id: number; userId: string; kind: string; status: string }[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: aliasForwards.id,
      userId: aliasForwards.userId,
      kind: aliasForwards.kind,
      status: aliasForwards.status,
    })
    .from(aliasForwards)
    .where(inArray(aliasForwards.id, ids));
}

/** deferForward for many rows at once (only those no live worker holds). */
export async function deferForwards(
  db: DbOrTx,
  ids: number[],
  reason: string,
  now: Date,
  staleBefore: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(aliasForwards)
    .set({ status: 'deferred', error: reason.slice(0, 500), claimToken: null, claimedAt: now })
    .where(and(inArray(aliasForwards.id, ids), claimable(staleBefore)));
}

/**
 * Records the end of a claimed forward (only while the claim still owns it). A row parked as
 * 'deferred' is offered again by the sweep once FORWARD_DEFER_RETRY_MS passed from `at`.
 */
export async function finishForward(
  db: DbOrTx,
  id: number,
  claimToken: string,
  outcome: { status: 'sent' | 'failed' | 'pending' | 'deferred'; error: string | null; at: Date },
): Promise<boolean> {
  const rows = await db
    .update(aliasForwards)
    .set({
      status: outcome.status,
      error: outcome.error,
      sentAt: outcome.status === 'sent' ? outcome.at : null,
      claimToken: null,
      ...(outcome.status === 'deferred' ? { claimedAt: outcome.at } : {}),
    })
    .where(and(eq(aliasForwards.id, id), eq(aliasForwards.claimToken, claimToken)))
    .returning({ id: aliasForwards.id });
  return rows.length > 0;
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

/** Records many claimed forwards as sent at once (each only while `claimToken` still owns it). */
export async function finishForwardsSent(db: DbOrTx, ids: number[], claimToken: string, at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(aliasForwards)
    .set({ status: 'sent', error: null, sentAt: at, claimToken: null })
    .where(and(inArray(aliasForwards.id, ids), eq(aliasForwards.claimToken, claimToken)));
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

/** Renews the claims of a batch in flight (claimed_at = now), so that they never look like a dead worker's. */
export async function renewForwardClaims(db: DbOrTx, claimToken: string, now: Date): Promise<void> {
  await db
    .update(aliasForwards)
    .set({ claimedAt: now })
    .where(and(eq(aliasForwards.claimToken, claimToken), eq(aliasForwards.status, 'sending')));
}
