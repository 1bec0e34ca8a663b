import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { forwardingDestinations } from '../../db/schema/index.ts';

// An alias's forwarding destinations (forwarding_destinations).

export type DestinationRow = typeof forwardingDestinations.$inferSelect;

export async function listDestinations(db: DbOrTx, userId: string, aliasId?: number): Promise<DestinationRow[]> {
  return db
    .select()
    .from(forwardingDestinations)
    .where(
      and(
        eq(forwardingDestinations.userId, userId),
        aliasId === undefined ? undefined : eq(forwardingDestinations.aliasId, aliasId),
      ),
    )
    .orderBy(asc(forwardingDestinations.createdAt), asc(forwardingDestinations.id));
}

export async function findDestination(db: DbOrTx, userId: string, id: number): Promise<DestinationRow | undefined> {
  const [row] = await db
    .select()
    .from(forwardingDestinations)
    .where(and(eq(forwardingDestinations.userId, userId), eq(forwardingDestinations.id, id)))
    .limit(1);
  return row;
}

/** Inserts a destination; undefined when the alias has that address already. */
export async function insertDestination(
  db: DbOrTx,
  values: typeof forwardingDestinations.$inferInsert,
): Promise<DestinationRow | undefined> {
  const [row] = await db.insert(forwardingDestinations).values(values).onConflictDoNothing().returning();
  return row;
}

export async function updateDestination(
  db: DbOrTx,
  userId: string,
  id: number,
  patch: Partial<Pick<DestinationRow, 'isActive' | 'weight'>>,
): Promise<DestinationRow | undefined> {
  const where = and(eq(forwardingDestinations.userId, userId), eq(forwardingDestinations.id, id));
  if (Object.keys(patch).length === 0) return (await db.select().from(forwardingDestinations).where(where))[0];
  const [row] = await db.update(forwardingDestinations).set(patch).where(where).returning();
  return row;
}

export async function deleteDestination(db: DbOrTx, userId: string, id: number): Promise<boolean> {
  const rows = await db
    .delete(forwardingDestinations)
    .where(and(eq(forwardingDestinations.userId, userId), eq(forwardingDestinations.id, id)))
    .returning({ id: forwardingDestinations.id });
  return rows.length > 0;
}

export async function countDestinations(db: DbOrTx, aliasId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(forwardingDestinations)
    .where(eq(forwardingDestinations.aliasId, aliasId));
  return row?.n ?? 0;
}
