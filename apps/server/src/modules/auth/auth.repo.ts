import { and, count, eq, gt, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { loginFailures, sessions, users } from '../../db/schema/index.ts';
import type { SessionCompanion } from './session-companion.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}

export async function findUserById(db: DbOrTx, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** Inserts a user; answers undefined when the email is already taken (unique index). */
export async function insertUser(db: DbOrTx, values: NewUserRow): Promise<UserRow | undefined> {
  const [row] = await db.insert(users).values(values).onConflictDoNothing({ target: users.email }).returning();
  return row;
}

export async function updateUser(db: DbOrTx, id: string, values: Partial<NewUserRow>): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/**
 * Takes the account's turn to be mailed a confirmation link: sets email_confirmation_sent_at to `now`
 * unless the address is confirmed or a link went out after `notSentAfter`. The updated row, or
 * undefined when it is not the account's turn.
 */
export async function claimConfirmationSend(
  db: DbOrTx,
  id: string,
  now: Date,
  notSentAfter: Date,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ emailConfirmationSentAt: now })
    .where(
      and(
        eq(users.id, id),
        isNull(users.emailConfirmedAt),
        or(isNull(users.emailConfirmationSentAt), lte(users.emailConfirmationSentAt, notSentAfter)),
      ),
    )
    .returning();
  return row;
}

/** Marks the account's own address confirmed (once: a later call keeps the first time). */
export async function confirmEmail(db: DbOrTx, id: string, now: Date): Promise<void> {
  await db
    .update(users)
    .set({ emailConfirmedAt: now, updatedAt: now })
    .where(and(eq(users.id, id), isNull(users.emailConfirmedAt)));
}

export async function insertSession(
  db: DbOrTx,
  values: { id: string; userId: string; expiresAt: Date; userAgent: string | null; ip: string | null },
): Promise<void> {
  await db.insert(sessions).values(values);
}

function prepareFindLiveSession(db: DbOrTx, companion: SessionCompanion | null) {
  return (
    db
      // Only what resolveSession reads of the session: every column costs decoding on every request.
      .select({
        lastSeenAt: sessions.lastSeenAt,
        user: users,
        answer: companion ? sql<boolean>`(${companion.condition(sessions.userId)})` : sql<boolean>`false`,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.id, sql.placeholder('id')), gt(sessions.expiresAt, sql.placeholder('now'))))
      .limit(1)
      .prepare(companion ? `find_live_session_${companion.name}` : 'find_live_session')
  );
}

/**
 * Built once per database handle (and companion): this runs on every signed-in request, and
 * building the query (a join selecting both tables) cost more Node time than the round trip
 * (measured in bench/contacts).
 */
const liveSessionQueries = new WeakMap<
  DbOrTx,
  Map<SessionCompanion | null, ReturnType<typeof prepareFindLiveSession>>
>();

/**
 * The session's last use and its user, if the session exists and has not expired; with a
 * companion, also the answer to its question for the session's user (placeholders filled from `values`).
 */
export async function findLiveSession(
  db: DbOrTx,
  id: string,
  now: Date,
  companion?: { question: SessionCompanion; values: Record<string, unknown> },
) {
  let queries = liveSessionQueries.get(db);
  if (!queries) {
    queries = new Map();
    liveSessionQueries.set(db, queries);
  }
  const question = companion?.question ?? null;
  let query = queries.get(question);
  if (!query) {
    query = prepareFindLiveSession(db, question);
    queries.set(question, query);
  }
  // As an ISO string: the same instant pg would send for the Date, formatted more cheaply.
  const [row] = await query.execute({ ...companion?.values, id, now: now.toISOString() });
  return row;
}

export async function touchSession(db: DbOrTx, id: string, now: Date, expiresAt: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now, expiresAt }).where(eq(sessions.id, id));
}

export async function deleteSession(db: DbOrTx, id: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, id));
}

/** Ends every session of a user except `keepId` (a password change keeps the session that made it). */
export async function deleteOtherSessions(db: DbOrTx, userId: string, keepId: string | null): Promise<void> {
  await db
    .delete(sessions)
    .where(keepId ? and(eq(sessions.userId, userId), ne(sessions.id, keepId)) : eq(sessions.userId, userId));
}

export async function recordLoginFailure(db: DbOrTx, email: string, ip: string | null): Promise<void> {
  await db.insert(loginFailures).values({ email, ip });
}

export async function countLoginFailuresSince(db: DbOrTx, email: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(loginFailures)
    .where(and(eq(loginFailures.email, email), gt(loginFailures.createdAt, since)));
  return row?.n ?? 0;
}

/** The oldest failure still inside the window: the lock lifts when it leaves the window. */
export async function oldestLoginFailureSince(db: DbOrTx, email: string, since: Date): Promise<Date | undefined> {
  const [row] = await db
    .select({ at: sql<Date>`min(${loginFailures.createdAt})`.mapWith(loginFailures.createdAt) })
    .from(loginFailures)
    .where(and(eq(loginFailures.email, email), gt(loginFailures.createdAt, since)));
  return row?.at ?? undefined;
}

export async function clearLoginFailures(db: DbOrTx, email: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.email, email));
}

/** Housekeeping: expired sessions and failures older than the throttle window. */
export async function deleteExpiredAuthRows(db: DbOrTx, now: Date, failuresBefore: Date): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
  await db.delete(loginFailures).where(lt(loginFailures.createdAt, failuresBefore));
}
