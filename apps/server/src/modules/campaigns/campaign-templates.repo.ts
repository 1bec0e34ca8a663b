import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { campaignTemplates } from '../../db/schema/index.ts';

export type CampaignTemplateRow = typeof campaignTemplates.$inferSelect;
export type NewCampaignTemplateRow = typeof campaignTemplates.$inferInsert;

/** The account's saved templates, newest first. */
export async function listTemplates(db: DbOrTx, userId: string): Promise<CampaignTemplateRow[]> {
  return db
    .select()
    .from(campaignTemplates)
    .where(eq(campaignTemplates.userId, userId))
    .orderBy(desc(campaignTemplates.createdAt), desc(campaignTemplates.id));
}

export async function insertTemplate(db: DbOrTx, values: NewCampaignTemplateRow): Promise<CampaignTemplateRow> {
  const [row] = await db.insert(campaignTemplates).values(values).returning();
  if (!row) throw new Error('campaign template insert returned nothing');
  return row;
}

/** Renames the account's template; undefined when it has no such template. */
export async function renameTemplate(
  db: DbOrTx,
  userId: string,
  id: number,
  name: string,
): Promise<CampaignTemplateRow | undefined> {
  const [row] = await db
    .update(campaignTemplates)
    .set({ name, updatedAt: new Date() })
    .where(and(eq(campaignTemplates.userId, userId), eq(campaignTemplates.id, id)))
    .returning();
  return row;
}

/** Deletes the account's template; false when it has no such template. */
export async function deleteTemplate(db: DbOrTx, userId: string, id: number): Promise<boolean> {
  const rows = await db
    .delete(campaignTemplates)
    .where(and(eq(campaignTemplates.userId, userId), eq(campaignTemplates.id, id)))
    .returning({ id: campaignTemplates.id });
  return rows.length > 0;
}
