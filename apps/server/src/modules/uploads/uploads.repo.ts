import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { uploadedImages } from '../../db/schema/index.ts';

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

/** Removes one of the user's logos; answers whether there was one. */
export async function deleteLogo(db: DbOrTx, userId: string, id: number): Promise<boolean> {
  const deleted = await db
    .delete(uploadedImages)
    .where(and(eq(uploadedImages.userId, userId), eq(uploadedImages.id, id), eq(uploadedImages.kind, 'logo')))
    .returning({ id: uploadedImages.id });
  return deleted.length > 0;
}
