import { and, desc, eq, gte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { aliasForwards, aliasMessages } from '../../db/schema/index.ts';

// What the alias screens show of the mail the inbound module stored for an alias (its activity log
// and daily counts): reads alias_messages and alias_forwards, which inbound writes.

type AliasMessageRow = typeof aliasMessages.$inferSelect;

/** The last `limit` messages of an alias, newest first. */
export async function aliasActivity(db: DbOrTx, aliasId: number, limit: number): Promise<AliasMessageRow[]> {
  return db
    .select()
    .from(aliasMessages)
    .where(eq(aliasMessages.aliasId, aliasId))
    .orderBy(desc(aliasMessages.receivedAt), desc(aliasMessages.id))
    .limit(limit);
}

export type DailyCounts = {
  day: string;
  received: number;
  blocked: number;
  unrouted: number;
  forwarded: number;
  failed: number;
  autoReplied: number;
};

/**
 * Per UTC day since `since`: messages received, blocked, unrouted; forwards sent and failed; auto-replies
 * sent. Real mail only: test messages (and their forwards) are counted apart, as `tests` in the totals.
 */
export async function dailyCounts(
  db: DbOrTx,
  userId: string,
  aliasId: number | undefined,
  since: Date,
): Promise<{ messages: DailyCounts[]; totals: Omit<DailyCounts, 'day'> & { tests: number } }> {
  const day = (column: unknown) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
  const ownMessages = and(
    eq(aliasMessages.userId, userId),
    aliasId === undefined ? undefined : eq(aliasMessages.aliasId, aliasId),
  );
  const messageFilter = and(ownMessages, eq(aliasMessages.isTest, false));
  // A forward or auto-reply counts when the message it came from was real mail, not a test.
  const forwardFilter = and(
    eq(aliasForwards.userId, userId),
    aliasId === undefined ? undefined : eq(aliasForwards.aliasId, aliasId),
    eq(aliasMessages.isTest, false),
  );
  const messageRows = await db
    .select({
      day: day(aliasMessages.receivedAt),
      received: sql<number>`count(*)::int`,
      blocked: sql<number>`count(*) filter (where ${aliasMessages.outcome} = 'blocked')::int`,
      unrouted: sql<number>`count(*) filter (where ${aliasMessages.outcome} = 'unrouted')::int`,
    })
    .from(aliasMessages)
    .where(and(messageFilter, gte(aliasMessages.receivedAt, since)))
    .groupBy(sql`1`);
  const forwardRows = await db
    .select({
      day: day(aliasForwards.createdAt),
      forwarded: sql<number>`count(*) filter (where ${aliasForwards.kind} = 'forward' and ${aliasForwards.status} = 'sent')::int`,
      failed: sql<number>`count(*) filter (where ${aliasForwards.kind} = 'forward' and ${aliasForwards.status} = 'failed')::int`,
      autoReplied: sql<number>`count(*) filter (where ${aliasForwards.kind} = 'auto_reply' and ${aliasForwards.status} = 'sent')::int`,
    })
    .from(aliasForwards)
    .innerJoin(aliasMessages, eq(aliasMessages.id, aliasForwards.aliasMessageId))
    .where(and(forwardFilter, gte(aliasForwards.createdAt, since)))
    .groupBy(sql`1`);
  const [messageTotals] = await db
    .select({
      received: sql<number>`count(*)::int`,
      blocked: sql<number>`count(*) filter (where ${aliasMessages.outcome} = 'blocked')::int`,
      unrouted: sql<number>`count(*) filter (where ${aliasMessages.outcome} = 'unrouted')::int`,
    })
    .from(aliasMessages)
    .where(messageFilter);
  const [forwardTotals] = await db
    .select({
      forwarded: sql<number>`count(*) filter (where ${aliasForwards.kind} = 'forward' and ${aliasForwards.status} = 'sent')::int`,
      failed: sql<number>`count(*) filter (where ${aliasForwards.kind} = 'forward' and ${aliasForwards.status} = 'failed')::int`,
      autoReplied: sql<number>`count(*) filter (where ${aliasForwards.kind} = 'auto_reply' and ${aliasForwards.status} = 'sent')::int`,
    })
    .from(aliasForwards)
    .innerJoin(aliasMessages, eq(aliasMessages.id, aliasForwards.aliasMessageId))
    .where(forwardFilter);
  const [testTotals] = await db
    .select({ tests: sql<number>`count(*)::int` })
    .from(aliasMessages)
    .where(and(ownMessages, eq(aliasMessages.isTest, true)));
  const byDay = new Map<string, DailyCounts>();
  const entry = (key: string) => {
    let found = byDay.get(key);
    if (!found) {
      found = { day: key, received: 0, blocked: 0, unrouted: 0, forwarded: 0, failed: 0, autoReplied: 0 };
      byDay.set(key, found);
    }
    return found;
  };
  for (const row of messageRows) Object.assign(entry(row.day), { ...row, day: row.day });
  for (const row of forwardRows) Object.assign(entry(row.day), { ...row, day: row.day });
  return {
    messages: [...byDay.values()],
    totals: {
      received: messageTotals?.received ?? 0,
      blocked: messageTotals?.blocked ?? 0,
      unrouted: messageTotals?.unrouted ?? 0,
      forwarded: forwardTotals?.forwarded ?? 0,
      failed: forwardTotals?.failed ?? 0,
      autoReplied: forwardTotals?.autoReplied ?? 0,
      tests: testTotals?.tests ?? 0,
    },
  };
}
