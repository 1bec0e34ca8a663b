import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { brandKits } from '../../db/schema/index.ts';

export type BrandKitRow = typeof brandKits.$inferSelect;
type BrandKitValues = Omit<typeof brandKits.$inferInsert, 'userId' | 'updatedAt'>;

/** The account's brand kit; undefined before it saves one. */
export async function findBrandKit(db: DbOrTx, userId: string): Promise<BrandKitRow | undefined> {
  const [row] = await db.select().from(brandKits).where(eq(brandKits.userId, userId));
  return row;
}

/** Writes the account's whole brand kit (one row per account). */
export async function upsertBrandKit(db: DbOrTx, userId: string, values: BrandKitValues): Promise<BrandKitRow> {
  const now = new Date();
  const [row] = await db
    .insert(brandKits)
    .values({ ...values, userId, updatedAt: now })
    .onConflictDoUpdate({ target: brandKits.userId, set: { ...values, updatedAt: now } })
    .returning();
  if (!row) throw new Error('brand kit upsert returned nothing');
  return row;
}
