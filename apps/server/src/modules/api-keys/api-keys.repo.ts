import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { apiKeys, idempotencyKeys, users } from '../../db/schema/index.ts';

export type ApiKeyRow = typeof apiKeys.$inferSelect;
type NewApiKeyRow = typeof apiKeys.$inferInsert;
export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

export async function insertKey(db: DbOrTx, values: NewApiKeyRow): Promise<ApiKeyRow> {
  const [row] = await db.insert(apiKeys).values(values).returning();
  if (!row) throw new Error('api key insert returned no row');
  return row;
}

/** The account's keys, live ones first, newest first within each. */
export async function listKeys(db: DbOrTx, userId: string): Promise<ApiKeyRow[]> {
  return db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.userId, userId))
    .orderBy(sql`${apiKeys.revokedAt} IS NOT NULL`, desc(apiKeys.createdAt));
}

/** Stamps the key revoked (once); undefined when the account has no such key. */
export async function revokeKey(db: DbOrTx, userId: string, id: string, now: Date): Promise<ApiKeyRow | undefined> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${now})` })
    .where(and(eq(apiKeys.userId, userId), eq(apiKeys.id, id)))
    .returning();
  return row;
}

/** A live key by its secret's hash, with the account's user row (one round trip per keyed request). */
export async function findLiveKeyByHash(db: DbOrTx, secretHash: string) {
  const [row] = await db
    .select({ key: apiKeys, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.secretHash, secretHash), isNull(apiKeys.revokedAt)));
  return row;
}

/** Records a use, at most once a minute per key (so a busy key does not write on every request). */
export async function touchKey(db: DbOrTx, id: string, now: Date): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(
      and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(now.getTime() - 60_000)))),
    );
}

export async function readRequestsPerSecond(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ requestsPerSecond: users.apiRequestsPerSecond })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw new Error('signed-in user has no row');
  return row.requestsPerSecond;
}

export async function writeRequestsPerSecond(db: DbOrTx, userId: string, requestsPerSecond: number): Promise<void> {
  await db.update(users).set({ apiRequestsPerSecond: requestsPerSecond }).where(eq(users.id, userId));
}

/**
 * Claims an idempotency key for a request: true when this request is the first to use it (a row
 * left from more than `keptMs` ago is replaced); false when a row already holds it.
 */
export async function claimIdempotencyKey(
  db: DbOrTx,
  userId: string,
  key: string,
  requestHash: string,
  keptMs: number,
): Promise<boolean> {
  const expired = sql`${idempotencyKeys.createdAt} < now() - ${keptMs} * interval '1 millisecond'`;
  const rows = await db
    .insert(idempotencyKeys)
    .values({ userId, key, requestHash })
    .onConflictDoUpdate({
      target: [idempotencyKeys.userId, idempotencyKeys.key],
      set: {
        requestHash,
        responseStatus: null,
        responseType: null,
        responseBody: null,
        createdAt: sql`now()`,
      },
      setWhere: expired,
    })
    .returning({ key: idempotencyKeys.key });
  return rows.length === 1;
}

export async function findIdempotencyKey(db: DbOrTx, userId: string, key: string): Promise<IdempotencyRow | undefined> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
  return row;
}

export async function storeIdempotentAnswer(
  db: DbOrTx,
  userId: string,
  key: string,
  answer: { status: number; type: string | null; body: string },
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ responseStatus: answer.status, responseType: answer.type, responseBody: answer.body })
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
}

/** Lets go of a key whose request left no answer to replay (it failed, or its answer was a stream). */
export async function releaseIdempotencyKey(db: DbOrTx, userId: string, key: string): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(
      and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key), isNull(idempotencyKeys.responseStatus)),
    );
}

/** Housekeeping: answers older than `keptMs`. */
export async function deleteOldIdempotencyKeys(db: DbOrTx, keptMs: number): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(sql`${idempotencyKeys.createdAt} < now() - ${keptMs} * interval '1 millisecond'`);
}
