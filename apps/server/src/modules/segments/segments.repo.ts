import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import {
  contactFields,
  contacts,
  contactSegmentMembers,
  contactSegments,
  type ContactRow,
} from '../../db/schema/index.ts';

export type SegmentRow = typeof contactSegments.$inferSelect;
export type NewSegmentRow = typeof contactSegments.$inferInsert;

export async function listSegments(db: DbOrTx, userId: string): Promise<SegmentRow[]> {
  return db
    .select()
    .from(contactSegments)
    .where(eq(contactSegments.userId, userId))
    .orderBy(asc(contactSegments.createdAt), asc(contactSegments.id));
}

export async function findSegment(db: DbOrTx, userId: string, id: number): Promise<SegmentRow | undefined> {
  const [row] = await db
    .select()
    .from(contactSegments)
    .where(and(eq(contactSegments.userId, userId), eq(contactSegments.id, id)))
    .limit(1);
  return row;
}

export async function insertSegment(db: DbOrTx, values: NewSegmentRow): Promise<SegmentRow> {
  const [row] = await db.insert(contactSegments).values(values).returning();
  if (!row) throw new Error('segment insert returned nothing');
  return row;
}

export async function updateSegment(
  db: DbOrTx,
  userId: string,
  id: number,
  values: Partial<NewSegmentRow>,
): Promise<SegmentRow | undefined> {
  const [row] = await db
    .update(contactSegments)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(contactSegments.userId, userId), eq(contactSegments.id, id)))
    .returning();
  return row;
}

export async function deleteSegment(db: DbOrTx, userId: string, id: number): Promise<boolean> {
  const rows = await db
    .delete(contactSegments)
    .where(and(eq(contactSegments.userId, userId), eq(contactSegments.id, id)))
    .returning({ id: contactSegments.id });
  return rows.length > 0;
}

/** How many of the user's contacts match a compiled predicate. */
export async function countMatching(db: DbOrTx, userId: string, predicate: SQL): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(contacts)
    .where(and(eq(contacts.userId, userId), predicate));
  return row?.n ?? 0;
}

/** The first matching contacts, newest first. */
export async function firstMatching(db: DbOrTx, userId: string, predicate: SQL, limit: number): Promise<ContactRow[]> {
  return db
    .select(contactFields)
    .from(contacts)
    .where(and(eq(contacts.userId, userId), predicate))
    .orderBy(desc(contacts.createdAt), desc(contacts.id))
    .limit(limit);
}

/**
 * Brings the stored membership in line with the predicate: drops members that no longer match,
 * adds the ones that now do, and stores the new count. Answers the count.
 */
export async function recomputeMembership(db: DbOrTx, segment: SegmentRow, predicate: SQL): Promise<number> {
  await db.execute(sql`
    DELETE FROM ${contactSegmentMembers} m
    WHERE m.segment_id = ${segment.id}
      AND NOT EXISTS (SELECT 1 FROM ${contacts} WHERE ${contacts.id} = m.contact_id AND ${contacts.userId} = ${segment.userId} AND ${predicate})`);
  await db.execute(sql`
    INSERT INTO ${contactSegmentMembers} (segment_id, contact_id)
    SELECT ${segment.id}, ${contacts.id} FROM ${contacts} WHERE ${contacts.userId} = ${segment.userId} AND ${predicate}
    ON CONFLICT DO NOTHING`);
  const [row] = await db
    .select({ n: count() })
    .from(contactSegmentMembers)
    .where(eq(contactSegmentMembers.segmentId, segment.id));
  const total = row?.n ?? 0;
  await db
    .update(contactSegments)
    .set({ contactCount: total, lastUpdatedAt: new Date() })
    .where(eq(contactSegments.id, segment.id));
  return total;
}

/** One page of a segment's stored members, newest contacts first, with the total. */
export async function segmentMembers(db: DbOrTx, segmentId: number, page: { offset: number; limit: number }) {
  const where = sql`EXISTS (SELECT 1 FROM ${contactSegmentMembers} m WHERE m.segment_id = ${segmentId} AND m.contact_id = ${contacts.id})`;
  const [rows, totals] = await Promise.all([
    db
      .select(contactFields)
      .from(contacts)
      .where(where)
      .orderBy(desc(contacts.createdAt), desc(contacts.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(contactSegmentMembers).where(eq(contactSegmentMembers.segmentId, segmentId)),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

export async function autoUpdateSegmentsOf(db: DbOrTx, userId: string | undefined): Promise<SegmentRow[]> {
  const auto = eq(contactSegments.isAutoUpdate, true);
  return db
    .select()
    .from(contactSegments)
    .where(userId ? and(auto, eq(contactSegments.userId, userId)) : auto);
}
