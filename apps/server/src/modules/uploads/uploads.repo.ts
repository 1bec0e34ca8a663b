import { and, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { campaigns, uploadedImages } from '../../db/schema/index.ts';

export type UploadedImageRow = typeof uploadedImages.$inferSelect;
export type NewUploadedImageRow = typeof uploadedImages.$inferInsert;

export async function insertUploadedImage(db: DbOrTx, values: NewUploadedImageRow): Promise<UploadedImageRow> {
  const [row] = await db.insert(uploadedImages).values(values).returning();
  if (!row) throw new Error('upload insert returned nothing');
  return row;
}

/** The user's logo library, newest first. */
export async function listLogos(db: DbOrTx, userId: string): Promise<UploadedImageRow[]> {
  return db
    .select()
    .from(uploadedImages)
    .where(and(eq(uploadedImages.userId, userId), eq(uploadedImages.kind, 'logo')))
    .orderBy(desc(uploadedImages.createdAt), desc(uploadedImages.id));
}

/**
 * The bytes the user's uploads take, read under a per-user lock held until the transaction ends, so
 * that two uploads at once cannot both fit in the room left for one.
 */
export async function lockedUploadBytes(tx: DbOrTx, userId: string): Promise<number> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`uploads:${userId}`}, 0))`);
  const [row] = await tx
    .select({ bytes: sql<string>`coalesce(sum(${uploadedImages.bytes}), 0)` })
    .from(uploadedImages)
    .where(eq(uploadedImages.userId, userId));
  return Number(row?.bytes ?? 0);
}

/** One of the user's logos, locked until the transaction ends. */
export async function lockLogo(tx: DbOrTx, userId: string, id: number): Promise<UploadedImageRow | undefined> {
  const [row] = await tx
    .select()
    .from(uploadedImages)
    .where(and(eq(uploadedImages.userId, userId), eq(uploadedImages.id, id), eq(uploadedImages.kind, 'logo')))
    .for('update');
  return row;
}

/** Whether one of the user's campaigns (its blocks or its HTML) shows the stored file. */
export async function campaignShows(db: DbOrTx, userId: string, storageKey: string): Promise<boolean> {
  // Stored names are hex digits, a dot and an extension: nothing LIKE would read as a wildcard.
  const pattern = `%${storageKey}%`;
  const [row] = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(
      and(
        eq(campaigns.userId, userId),
        sql`(${campaigns.blocks}::text LIKE ${pattern} OR ${campaigns.contentHtml} LIKE ${pattern})`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function deleteUploadedImage(db: DbOrTx, id: number): Promise<void> {
  await db.delete(uploadedImages).where(eq(uploadedImages.id, id));
}

/** Takes a logo out of the library while its file stays (a campaign still shows it): a plain upload now. */
export async function retireLogo(db: DbOrTx, id: number): Promise<void> {
  await db.update(uploadedImages).set({ kind: 'image' }).where(eq(uploadedImages.id, id));
}
