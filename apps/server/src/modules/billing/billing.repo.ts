import { usageWarningsSent } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';

/**
 * Records that the account was warned at `threshold` of its `kind` limit in `period`; true when
 * this is the first time (the caller then notifies), false when it was already warned.
 */
export async function recordUsageWarning(
  db: DbOrTx,
  row: { userId: string; kind: string; threshold: number; period: string },
): Promise<boolean> {
  const inserted = await db
    .insert(usageWarningsSent)
    .values(row)
    .onConflictDoNothing()
    .returning({ userId: usageWarningsSent.userId });
  return inserted.length > 0;
}
