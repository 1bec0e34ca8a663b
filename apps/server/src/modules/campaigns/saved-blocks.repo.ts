import { and, asc, count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { savedBlocks } from '../../db/schema/index.ts';

export type SavedBlockRow = typeof savedBlocks.$inferSelect;
export type NewSavedBlockRow = typeof savedBlocks.$inferInsert;

/** The account's saved blocks, by name. */
export async function listSavedBlocks(db: DbOrTx, userId: string): Promise<SavedBlockRow[]> {
  return db
    .select()
    .from(savedBlocks)
    .where(eq(savedBlocks.userId, userId))
    .orderBy(asc(savedBlocks.name), asc(savedBlocks.id));
}

export async function countSavedBlocks(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(savedBlocks).where(eq(savedBlocks.userId, userId));
  return row?.n ?? 0;
}

export async function insertSavedBlock(db: DbOrTx, values: NewSavedBlockRow): Promise<SavedBlockRow> {
  const [row] = await db.insert(savedBlocks).values(values).returning();
  if (!row) throw new Error('saved block insert returned nothing');
  return row;
}

/** Renames the account's saved block; undefined when it has no such block. */
export async function renameSavedBlock(
  db: DbOrTx,
  userId: string,
  id: number,
  name: string,
): Promise<SavedBlockRow | undefined> {
  const [row] = await db
    .update(savedBlocks)
    .set({ name, updatedAt: new Date() })
    .where(and(eq(savedBlocks.userId, userId), eq(savedBlocks.id, id)))
    .returning();
  return row;
}

/** Deletes the account's saved block; false when it has no such block. */
export async function deleteSavedBlock(db: DbOrTx, userId: string, id: number): Promise<boolean> {
  const rows = await db
    .delete(savedBlocks)
    .where(and(eq(savedBlocks.userId, userId), eq(savedBlocks.id, id)))
    .returning({ id: savedBlocks.id });
  return rows.length > 0;
}
