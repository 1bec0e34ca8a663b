import { and, eq, gt, isNull, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { loginThrottles, sessions, users } from '../../db/schema/index.ts';
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
 * Sets a new password hash only while the old one is still `oldHash` (one statement, so two uses of
 * one reset link set it once); also clears a forced change. True when it was set.
 */
export async function replacePasswordHash(db: DbOrTx, id: string, oldHash: string, newHash: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({
      passwordHash: newHash,
      passwordChangeRequired: false,
      temporaryPasswordExpiresAt: null,
      updatedAt: new Date(),
    })
    .where(and(eq(users.id, id), eq(users.passwordHash, oldHash)))
    .returning({ id: users.id });
  return rows.length === 1;
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
      .where(
        and(
          eq(sessions.id, sql.placeholder('id')),
          gt(sessions.expiresAt, sql.placeholder('now')),
          gt(sessions.createdAt, sql.placeholder('bornAfter')),
        ),
      )
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
 * The session's last use and its user, if the session exists, has not expired and was created
 * after `bornAfter` (its absolute lifetime); with a companion, also the answer to its question for
 * the session's user (placeholders filled from `values`).
 */
export async function findLiveSession(
  db: DbOrTx,
  id: string,
  now: Date,
  bornAfter: Date,
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
  const [row] = await query.execute({
    ...companion?.values,
    id,
    now: now.toISOString(),
    bornAfter: bornAfter.toISOString(),
  });
  return row;
}

/** Records the session's use and slides its expiry to `expiresAt`, never past `lifetimeMs` after its creation. */
export async function touchSession(
  db: DbOrTx,
  id: string,
  now: Date,
  expiresAt: Date,
  lifetimeMs: number,
): Promise<void> {
  await db
    .update(sessions)
    .set({
      lastSeenAt: now,
      expiresAt: sql`least(${expiresAt.toISOString()}::timestamptz, ${sessions.createdAt} + ${lifetimeMs} * interval '1 millisecond')`,
    })
    .where(eq(sessions.id, id));
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

/** How sign-in attempts of one account and client are paced (see claimLoginAttempt). */
export type LoginPacing = {
  /** Attempts let through at once before the delays start. */
  freeAttempts: number;
  /** The first delay; each further attempt doubles it, up to maxDelayMs. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** Attempts are forgotten after this long without one. */
  memoryMs: number;
};

/**
 * Claims one sign-in attempt for (email, client), in one statement: refused while the pair must
 * wait (nothing changes then); otherwise counted before its password is checked (a success clears
 * it), and from the `freeAttempts`-th on the next attempt must wait firstDelayMs·2ⁿ (capped).
 * Concurrent claims serialise on the pair's row, so no more than `freeAttempts` checks run at
 * once however many requests arrive together. Times come from the database's clock.
 */
export async function claimLoginAttempt(
  db: DbOrTx,
  email: string,
  client: string,
  pacing: LoginPacing,
): Promise<{ allowed: boolean; waitMs: number }> {
  const t = loginThrottles;
  const waiting = sql`${t.nextAttemptAt} > now()`;
  const forgotten = sql`${t.lastAttemptAt} < now() - ${pacing.memoryMs} * interval '1 millisecond'`;
  const counted = sql`CASE WHEN ${forgotten} THEN 1 ELSE ${t.attempts} + 1 END`;
  // The exponent is capped so that 2ⁿ stays a finite double for any count.
  const nextAfter = (attempts: SQL) =>
    sql`CASE WHEN ${attempts} >= ${pacing.freeAttempts}
      THEN now() + least(${pacing.firstDelayMs} * power(2, least(${attempts} - ${pacing.freeAttempts}, 30)), ${pacing.maxDelayMs}) * interval '1 millisecond'
      END`;
  const [row] = await db
    .insert(t)
    .values({ email, client, attempts: 1, lastAttemptAt: sql`now()`, nextAttemptAt: nextAfter(sql`1`) })
    .onConflictDoUpdate({
      target: [t.email, t.client],
      set: {
        attempts: sql`CASE WHEN ${waiting} THEN ${t.attempts} ELSE ${counted} END`,
        lastAttemptAt: sql`CASE WHEN ${waiting} THEN ${t.lastAttemptAt} ELSE now() END`,
        nextAttemptAt: sql`CASE WHEN ${waiting} THEN ${t.nextAttemptAt} ELSE ${nextAfter(counted)} END`,
      },
    })
    .returning({
      // An attempt let through stamps the row with this statement's now(); a refused one leaves it older.
      allowed: sql<boolean>`${t.lastAttemptAt} = now()`,
      waitMs: sql<number>`coalesce(ceil(extract(epoch FROM ${t.nextAttemptAt} - now()) * 1000), 0)::int`,
    });
  if (!row) throw new Error('login attempt upsert returned no row');
  return row;
}

/** Clears the pacing of (email, client) after a success, or of every client of the email (password reset). */
export async function clearLoginAttempts(db: DbOrTx, email: string, client?: string): Promise<void> {
  await db
    .delete(loginThrottles)
    .where(
      client === undefined
        ? eq(loginThrottles.email, email)
        : and(eq(loginThrottles.email, email), eq(loginThrottles.client, client)),
    );
}

/** Housekeeping: expired sessions and sign-in pacing with no attempt since `attemptsBefore`. */
export async function deleteExpiredAuthRows(db: DbOrTx, now: Date, attemptsBefore: Date): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
  await db.delete(loginThrottles).where(lt(loginThrottles.lastAttemptAt, attemptsBefore));
}
