import { and, eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { srsReturnPaths } from '../../db/schema/index.ts';

// SRS return paths we used (srs_return_paths), and the bounces relayed through each.

/** Records SRS return paths we are about to use (one statement for them all; one used before stays as it is). */
export async function recordSrsAddresses(
  db: DbOrTx,
  values: { address: string; userId: string; originalSender: string }[],
): Promise<void> {
  if (values.length === 0) return;
  await db.insert(srsReturnPaths).values(values).onConflictDoNothing();
}

/**
 * Counts one relayed bounce for an SRS address we used, if it has relayed fewer than `max`, and
 * when (it counts against the account's monthly emails); false otherwise. One statement.
 */
export async function takeSrsBounceTurn(db: DbOrTx, address: string, max: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(srsReturnPaths)
    .set({ bouncesRelayed: sql`${srsReturnPaths.bouncesRelayed} + 1`, relayedAt: now })
    .where(and(eq(srsReturnPaths.address, address), lt(srsReturnPaths.bouncesRelayed, max)))
    .returning({ address: srsReturnPaths.address });
  return rows.length > 0;
}

/** Hands back a turn taken by takeSrsBounceTurn whose relay could not be sent. */
export async function returnSrsBounceTurn(db: DbOrTx, address: string): Promise<void> {
  await db
    .update(srsReturnPaths)
    .set({
      bouncesRelayed: sql`greatest(${srsReturnPaths.bouncesRelayed} - 1, 0)`,
      relayedAt: sql`CASE WHEN ${srsReturnPaths.bouncesRelayed} <= 1 THEN NULL ELSE ${srsReturnPaths.relayedAt} END`,
    })
    .where(eq(srsReturnPaths.address, address));
}

export async function findSrsAddress(
  db: DbOrTx,
  address: string,
): Promise<typeof srsReturnPaths.$inferSelect | undefined> {
  const [row] = await db.select().from(srsReturnPaths).where(eq(srsReturnPaths.address, address));
  return row;
}
