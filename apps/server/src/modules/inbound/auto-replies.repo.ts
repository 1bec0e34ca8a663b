import { and, eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { aliasAutoReplies, aliasAutoReplyHours } from '../../db/schema/index.ts';

// The turns auto-replies take: one per (alias, sender) in a window, and the account's hourly count.

/**
 * Takes the auto-reply turn of (alias, sender): true when none went to the sender in the last
 * `windowMs` (and records this one), false otherwise. One statement, so two messages at once reply once.
 */
export async function takeAutoReplyTurn(
  db: DbOrTx,
  aliasId: number,
  sender: string,
  now: Date,
  windowMs: number,
): Promise<boolean> {
  const rows = await db
    .insert(aliasAutoReplies)
    .values({ aliasId, sender, lastSentAt: now })
    .onConflictDoUpdate({
      target: [aliasAutoReplies.aliasId, aliasAutoReplies.sender],
      set: { lastSentAt: now },
      setWhere: lt(aliasAutoReplies.lastSentAt, new Date(now.getTime() - windowMs)),
    })
    .returning({ aliasId: aliasAutoReplies.aliasId });
  return rows.length > 0;
}

/**
 * Counts one auto-reply of the account in `hour` if fewer than `cap` went in it: true when counted.
 * One statement (the count row is locked by the upsert), so concurrent messages never pass the cap together.
 */
export async function takeAutoReplyHour(db: DbOrTx, userId: string, hour: Date, cap: number): Promise<boolean> {
  // The account's earlier hours are done with: dropped as its next one starts.
  await db
    .delete(aliasAutoReplyHours)
    .where(and(eq(aliasAutoReplyHours.userId, userId), lt(aliasAutoReplyHours.hour, hour)));
  const rows = await db
    .insert(aliasAutoReplyHours)
    .values({ userId, hour, sent: 1 })
    .onConflictDoUpdate({
      target: [aliasAutoReplyHours.userId, aliasAutoReplyHours.hour],
      set: { sent: sql`${aliasAutoReplyHours.sent} + 1` },
      setWhere: lt(aliasAutoReplyHours.sent, cap),
    })
    .returning({ sent: aliasAutoReplyHours.sent });
  return rows.length > 0;
}

/** Hands back one count taken by takeAutoReplyHour (its reply was not due after all). */
export async function returnAutoReplyHour(db: DbOrTx, userId: string, hour: Date): Promise<void> {
  await db
    .update(aliasAutoReplyHours)
    .set({ sent: sql`greatest(${aliasAutoReplyHours.sent} - 1, 0)` })
    .where(and(eq(aliasAutoReplyHours.userId, userId), eq(aliasAutoReplyHours.hour, hour)));
}
