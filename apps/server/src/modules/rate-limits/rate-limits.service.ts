import type { DbOrTx } from '../../db/client.ts';
import * as repo from './rate-limits.repo.ts';

/** Removes the counters of rate-limit windows that have ended (hourly job); a new hit starts a fresh row anyway. */
export async function cleanUpRateLimitWindows(db: DbOrTx, now: Date = new Date()): Promise<void> {
  await repo.deleteEndedWindows(db, now);
}
