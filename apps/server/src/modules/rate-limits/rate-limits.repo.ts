import { eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { rateLimitWindows } from '../../db/schema/index.ts';

/** A key's count in its current window and the milliseconds until the window ends. */
export type WindowCount = { hits: number; ttlMs: number };

const msLeft = sql<number>`greatest(0, ceil(extract(epoch FROM ${rateLimitWindows.windowEndsAt} - now()) * 1000))::int`;

/**
 * Counts one hit of `key` and answers its count, in one statement: a key whose window has ended
 * starts a new one of `windowMs` at 1. Concurrent hits of one key serialise on its row, so every
 * API process sharing the database sees the same count. Times come from the database's clock.
 */
export async function hitWindow(db: DbOrTx, key: string, windowMs: number): Promise<WindowCount> {
  const windowEnds = sql`now() + ${windowMs} * interval '1 millisecond'`;
  const ended = sql`${rateLimitWindows.windowEndsAt} <= now()`;
  const [row] = await db
    .insert(rateLimitWindows)
    .values({ key, hits: 1, windowEndsAt: windowEnds })
    .onConflictDoUpdate({
      target: rateLimitWindows.key,
      set: {
        hits: sql`CASE WHEN ${ended} THEN 1 ELSE ${rateLimitWindows.hits} + 1 END`,
        windowEndsAt: sql`CASE WHEN ${ended} THEN excluded.window_ends_at ELSE ${rateLimitWindows.windowEndsAt} END`,
      },
    })
    .returning({ hits: rateLimitWindows.hits, ttlMs: msLeft });
  if (!row) throw new Error('rate-limit upsert returned no row');
  return row;
}

/** The key's count without counting a hit (0 when its window has ended or it has none). */
export async function readWindow(db: DbOrTx, key: string): Promise<WindowCount> {
  const [row] = await db
    .select({ hits: rateLimitWindows.hits, ttlMs: msLeft })
    .from(rateLimitWindows)
    .where(eq(rateLimitWindows.key, key));
  return row && row.ttlMs > 0 ? row : { hits: 0, ttlMs: 0 };
}

/** Housekeeping: windows that ended before `before`. */
export async function deleteEndedWindows(db: DbOrTx, before: Date): Promise<void> {
  await db.delete(rateLimitWindows).where(lt(rateLimitWindows.windowEndsAt, before));
}
