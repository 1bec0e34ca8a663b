import type { DbOrTx } from '../../db/client.ts';
import * as repo from './rate-limits.repo.ts';

/**
 * Counts one use of `key` in a window of `windowMs` (shared by every API process, through the
 * database) and answers whether it is within `max`. For limits a route's per-IP limit cannot
 * express, such as password-reset mails per address.
 */
export async function withinLimit(db: DbOrTx, key: string, max: number, windowMs: number): Promise<boolean> {
  const { hits } = await repo.hitWindow(db, key, windowMs);
  return hits <= max;
}

/** Counts one hit of `key` in its window of `windowMs` and answers the window's count with it (one statement). */
export async function countHit(db: DbOrTx, key: string, windowMs: number): Promise<number> {
  return (await repo.hitWindow(db, key, windowMs)).hits;
}

/** Counts one hit of `key` and answers the window's count and the milliseconds until it ends (RateLimit-* headers). */
export async function countHitWithReset(db: DbOrTx, key: string, windowMs: number): Promise<repo.WindowCount> {
  return repo.hitWindow(db, key, windowMs);
}

/** Removes the counters of rate-limit windows that have ended (hourly job); a new hit starts a fresh row anyway. */
export async function cleanUpRateLimitWindows(db: DbOrTx, now: Date = new Date()): Promise<void> {
  await repo.deleteEndedWindows(db, now);
}
