import { and, desc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { campaigns, contactLists, contactSegments } from '../../db/schema/index.ts';

export type CampaignRow = typeof campaigns.$inferSelect;
export type NewCampaignRow = typeof campaigns.$inferInsert;

export async function listCampaigns(db: DbOrTx, userId: string): Promise<CampaignRow[]> {
  return db
    .select()
    .from(campaigns)
    .where(eq(campaigns.userId, userId))
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id));
}

export async function findCampaign(db: DbOrTx, userId: string, id: number): Promise<CampaignRow | undefined> {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.userId, userId), eq(campaigns.id, id)))
    .limit(1);
  return row;
}

/** Locks the campaign row for a status change in this transaction. */
export async function lockCampaign(db: DbOrTx, userId: string, id: number): Promise<CampaignRow | undefined> {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.userId, userId), eq(campaigns.id, id)))
    .limit(1)
    .for('update');
  return row;
}

export async function insertCampaign(db: DbOrTx, values: NewCampaignRow): Promise<CampaignRow> {
  const [row] = await db.insert(campaigns).values(values).returning();
  if (!row) throw new Error('campaign insert returned nothing');
  return row;
}

export async function updateCampaign(db: DbOrTx, id: number, values: Partial<NewCampaignRow>): Promise<CampaignRow> {
  const [row] = await db
    .update(campaigns)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(campaigns.id, id))
    .returning();
  if (!row) throw new Error('campaign update returned nothing');
  return row;
}

export async function deleteCampaign(db: DbOrTx, id: number): Promise<void> {
  await db.delete(campaigns).where(eq(campaigns.id, id));
}

/** The ids among `ids` that are the user's lists / segments. */
export async function ownedListIds(db: DbOrTx, userId: string, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: contactLists.id })
    .from(contactLists)
    .where(and(eq(contactLists.userId, userId), inArray(contactLists.id, ids)));
  return rows.map((r) => r.id);
}

export async function ownedSegmentIds(db: DbOrTx, userId: string, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: contactSegments.id })
    .from(contactSegments)
    .where(and(eq(contactSegments.userId, userId), inArray(contactSegments.id, ids)));
  return rows.map((r) => r.id);
}
