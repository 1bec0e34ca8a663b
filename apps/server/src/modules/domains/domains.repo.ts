import { and, asc, desc, eq, gte, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { campaigns, domainDailySends, domains, emailEvents, emailSequences, users } from '../../db/schema/index.ts';

export type DomainRow = typeof domains.$inferSelect;
export type NewDomainRow = typeof domains.$inferInsert;
export type DomainCheckUpdate = Pick<
  NewDomainRow,
  | 'spfStatus'
  | 'dkimStatus'
  | 'dmarcStatus'
  | 'spfFound'
  | 'dkimFound'
  | 'dmarcFound'
  | 'bounceMxStatus'
  | 'bounceMxFound'
  | 'bounceSpfStatus'
  | 'bounceSpfFound'
  | 'isVerified'
  | 'verifiedAt'
  | 'warmingStartedAt'
  | 'lastCheckedAt'
>;

/** The user's domains whose DKIM record is verified: the candidates for signing. */
export async function dkimVerifiedDomains(db: DbOrTx, userId: string): Promise<DomainRow[]> {
  return db
    .select()
    .from(domains)
    .where(and(eq(domains.userId, userId), eq(domains.dkimStatus, 'verified')));
}

/** Whether some account verified `host` (its DKIM record), or `host` is the bounces. host of such a domain. */
export async function isVerifiedMailHost(db: DbOrTx, host: string): Promise<boolean> {
  const parent = host.startsWith('bounces.') ? host.slice('bounces.'.length) : host;
  const [row] = await db
    .select({ id: domains.id })
    .from(domains)
    .where(and(inArray(domains.domain, [host, parent]), eq(domains.dkimStatus, 'verified')))
    .limit(1);
  return row !== undefined;
}

/** The user's domains, primary first, then in the order they were added. */
export async function listDomains(db: DbOrTx, userId: string): Promise<DomainRow[]> {
  return db
    .select()
    .from(domains)
    .where(eq(domains.userId, userId))
    .orderBy(desc(domains.isPrimary), asc(domains.createdAt), asc(domains.id));
}

export async function findDomain(db: DbOrTx, userId: string, id: number): Promise<DomainRow | undefined> {
  const [row] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.userId, userId), eq(domains.id, id)))
    .limit(1);
  return row;
}

/** A domain by id alone, for background work that is not acting for a signed-in user. */
export async function findDomainById(db: DbOrTx, id: number): Promise<DomainRow | undefined> {
  const [row] = await db.select().from(domains).where(eq(domains.id, id)).limit(1);
  return row;
}

export async function findDomainByName(db: DbOrTx, userId: string, name: string): Promise<DomainRow | undefined> {
  const [row] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.userId, userId), eq(domains.domain, name)))
    .limit(1);
  return row;
}

/** Locks a domain row for a read-modify-write (a check result, a reservation). */
export async function lockDomain(tx: DbOrTx, id: number): Promise<DomainRow | undefined> {
  const [row] = await tx.select().from(domains).where(eq(domains.id, id)).for('update');
  return row;
}

/** Locks the user's row: adding domains one at a time keeps the plan's limit exact under concurrent requests. */
export async function lockUserPlan(tx: DbOrTx, userId: string): Promise<string | undefined> {
  const [row] = await tx.select({ plan: users.plan }).from(users).where(eq(users.id, userId)).for('update');
  return row?.plan;
}

export async function hasPrimaryDomain(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: domains.id })
    .from(domains)
    .where(and(eq(domains.userId, userId), eq(domains.isPrimary, true)))
    .limit(1);
  return row !== undefined;
}

export async function insertDomain(db: DbOrTx, values: NewDomainRow): Promise<DomainRow> {
  const [row] = await db.insert(domains).values(values).returning();
  if (!row) throw new Error('domain insert returned nothing');
  return row;
}

export async function updateDomainCheck(
  db: DbOrTx,
  id: number,
  values: DomainCheckUpdate,
): Promise<DomainRow | undefined> {
  const [row] = await db.update(domains).set(values).where(eq(domains.id, id)).returning();
  return row;
}

export async function deleteDomain(db: DbOrTx, userId: string, id: number): Promise<DomainRow | undefined> {
  const [row] = await db
    .delete(domains)
    .where(and(eq(domains.userId, userId), eq(domains.id, id)))
    .returning();
  return row;
}

/** Makes one of the user's domains the only primary one; false when the id is not the user's. */
export async function setPrimaryDomain(tx: DbOrTx, userId: string, id: number): Promise<boolean> {
  const target = await findDomain(tx, userId, id);
  if (!target) return false;
  await tx
    .update(domains)
    .set({ isPrimary: false })
    .where(and(eq(domains.userId, userId), eq(domains.isPrimary, true)));
  await tx.update(domains).set({ isPrimary: true }).where(eq(domains.id, id));
  return true;
}

/** After the primary domain is deleted, the oldest remaining domain takes its place. */
export async function promoteOldestDomain(tx: DbOrTx, userId: string): Promise<void> {
  const [oldest] = await tx
    .select({ id: domains.id })
    .from(domains)
    .where(eq(domains.userId, userId))
    .orderBy(asc(domains.createdAt), asc(domains.id))
    .limit(1);
  if (oldest) await tx.update(domains).set({ isPrimary: true }).where(eq(domains.id, oldest.id));
}

/**
 * Domains whose next scheduled check has come (see domains.jobs.ts for the intervals): pending
 * ones added less than `youngFor` ago every `young`, older pending ones every `old`, verified
 * ones every `verified`. Never-checked domains come first, then the longest unchecked.
 */
export async function domainsDueForCheck(
  db: DbOrTx,
  now: Date,
  intervals: { youngFor: number; young: number; old: number; verified: number },
  limit: number,
): Promise<DomainRow[]> {
  const before = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const checkedBefore = (ms: number) =>
    sql`(${domains.lastCheckedAt} IS NULL OR ${domains.lastCheckedAt} <= ${before(ms)}::timestamptz)`;
  return db
    .select()
    .from(domains)
    .where(
      sql`(${domains.isVerified} AND ${checkedBefore(intervals.verified)})
        OR (NOT ${domains.isVerified} AND ${domains.createdAt} > ${before(intervals.youngFor)}::timestamptz AND ${checkedBefore(intervals.young)})
        OR (NOT ${domains.isVerified} AND ${domains.createdAt} <= ${before(intervals.youngFor)}::timestamptz AND ${checkedBefore(intervals.old)})`,
    )
    .orderBy(sql`${domains.lastCheckedAt} ASC NULLS FIRST`, asc(domains.id))
    .limit(limit);
}

export type SendCounts = { sentToday: number; sentInWindow: number };

/** Messages sent per domain today and since `sinceDay` (inclusive), from the daily counts. */
export async function sendCounts(
  db: DbOrTx,
  domainIds: readonly number[],
  today: string,
  sinceDay: string,
): Promise<Map<number, SendCounts>> {
  const counts = new Map<number, SendCounts>();
  if (domainIds.length === 0) return counts;
  const rows = await db
    .select({
      domainId: domainDailySends.domainId,
      sentToday: sql<number>`coalesce(sum(${domainDailySends.sent}) filter (where ${domainDailySends.day} = ${today}), 0)::int`,
      sentInWindow: sql<number>`coalesce(sum(${domainDailySends.sent}), 0)::int`,
    })
    .from(domainDailySends)
    .where(and(inArray(domainDailySends.domainId, [...domainIds]), gte(domainDailySends.day, sinceDay)))
    .groupBy(domainDailySends.domainId);
  for (const row of rows)
    counts.set(row.domainId, { sentToday: Number(row.sentToday), sentInWindow: Number(row.sentInWindow) });
  return counts;
}

export type FeedbackByFromDomain = { fromDomain: string; bounces: number; complaints: number };

/**
 * Hard bounces and spam complaints on the user's campaign and sequence mail since `since`, per
 * From-address domain (a sequence without its own From sends as the account's address; soft
 * bounces, recorded with a 'soft:' detail, do not count against reputation).
 */
export async function feedbackByFromDomain(db: DbOrTx, userId: string, since: Date): Promise<FeedbackByFromDomain[]> {
  const fromDomain = sql<string>`lower(split_part(coalesce(${campaigns.fromEmail}, ${emailSequences.fromEmail}, ${users.email}), '@', 2))`;
  const rows = await db
    .select({
      fromDomain,
      bounces: sql<number>`count(*) filter (where ${emailEvents.type} = 'bounce' and coalesce(${emailEvents.detail}, '') not like 'soft:%')::int`,
      complaints: sql<number>`count(*) filter (where ${emailEvents.type} = 'complaint')::int`,
    })
    .from(emailEvents)
    .leftJoin(campaigns, eq(campaigns.id, emailEvents.campaignId))
    .leftJoin(emailSequences, eq(emailSequences.id, emailEvents.sequenceId))
    .innerJoin(users, eq(users.id, emailEvents.userId))
    .where(
      and(
        eq(emailEvents.userId, userId),
        inArray(emailEvents.type, ['bounce', 'complaint']),
        gte(emailEvents.createdAt, since),
        or(isNotNull(campaigns.id), isNotNull(emailSequences.id)),
      ),
    )
    .groupBy(fromDomain);
  return rows.map((row) => ({
    fromDomain: row.fromDomain,
    bounces: Number(row.bounces),
    complaints: Number(row.complaints),
  }));
}

/** Today's count row of a domain, created at 0 if needed and locked until the transaction ends. */
export async function lockDailySends(tx: DbOrTx, domainId: number, day: string): Promise<number> {
  await tx.insert(domainDailySends).values({ domainId, day, sent: 0 }).onConflictDoNothing();
  const [row] = await tx
    .select({ sent: domainDailySends.sent })
    .from(domainDailySends)
    .where(and(eq(domainDailySends.domainId, domainId), eq(domainDailySends.day, day)))
    .for('update');
  return row?.sent ?? 0;
}

/** Adds (or, negative, takes back) messages on a domain's day count. */
export async function addDailySends(tx: DbOrTx, domainId: number, day: string, delta: number): Promise<void> {
  await tx
    .update(domainDailySends)
    .set({ sent: sql`greatest(0, ${domainDailySends.sent} + ${delta})` })
    .where(and(eq(domainDailySends.domainId, domainId), eq(domainDailySends.day, day)));
}
