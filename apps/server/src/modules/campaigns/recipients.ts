import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { contactListMembers, contacts, contactSegmentMembers, suppressions } from '../../db/schema/index.ts';

/**
 * The one definition of a campaign's audience: the user's active contacts in any chosen list or
 * segment (each once), minus suppressed addresses (unsubscribed, bounced, complained).
 */
export function recipientPredicate(userId: string, listIds: number[], segmentIds: number[]): SQL {
  return sql`${contacts.userId} = ${userId} AND ${contacts.isActive}
    AND (EXISTS (SELECT 1 FROM ${contactListMembers} m WHERE m.contact_id = ${contacts.id} AND m.list_id = ANY(${sql.param(listIds)}::int[]))
      OR EXISTS (SELECT 1 FROM ${contactSegmentMembers} s WHERE s.contact_id = ${contacts.id} AND s.segment_id = ANY(${sql.param(segmentIds)}::int[])))
    AND NOT EXISTS (SELECT 1 FROM ${suppressions} x WHERE x.user_id = ${userId} AND x.email = ${contacts.email})`;
}

/** How many recipients the lists and segments add up to now (for the send confirmation). */
export async function countRecipients(
  db: DbOrTx,
  userId: string,
  listIds: number[],
  segmentIds: number[],
): Promise<number> {
  if (listIds.length === 0 && segmentIds.length === 0) return 0;
  const result = await db.execute(
    sql`SELECT count(*)::int AS n FROM ${contacts} WHERE ${recipientPredicate(userId, listIds, segmentIds)}`,
  );
  return Number((result.rows[0] as { n: number }).n);
}
