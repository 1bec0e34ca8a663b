import { and, asc, between, count, desc, eq, gte, isNotNull, lt, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import {
  analyticsContactsDaily,
  analyticsLinkDaily,
  analyticsMailDaily,
  campaigns,
  contacts,
  emailEvents,
} from '../../db/schema/index.ts';

/** A time as a query parameter (ISO text cast in SQL: the same on pg and PGlite). */
const ts = (at: Date) => sql`${at.toISOString()}::timestamptz`;

export async function countActiveContacts(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(contacts)
    .where(and(eq(contacts.userId, userId), eq(contacts.isActive, true)));
  return row?.n ?? 0;
}

/**
 * Contacts that were active at `at`, as far as stored rows tell: created by then, and active now or
 * deactivated after `at` by an unsubscribe or complaint (the only deactivations that leave an event).
 */
export async function countContactsActiveAt(db: DbOrTx, userId: string, at: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(contacts)
    .where(
      and(
        eq(contacts.userId, userId),
        sql`${contacts.createdAt} <= ${ts(at)}`,
        sql`(${contacts.isActive} OR EXISTS (
          SELECT 1 FROM ${emailEvents}
          WHERE ${emailEvents.contactId} = ${contacts.id} AND ${emailEvents.type} IN ('unsubscribe', 'complaint') AND ${emailEvents.createdAt} > ${ts(at)}))`,
      ),
    );
  return row?.n ?? 0;
}

/** Sums over the user's sent campaigns, the basis of the average rates. */
export async function sumSentCampaignTotals(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({
      sent: sql<number>`coalesce(sum(${campaigns.totalSent}), 0)`.mapWith(Number),
      opens: sql<number>`coalesce(sum(${campaigns.totalOpens}), 0)`.mapWith(Number),
      machineOpens: sql<number>`coalesce(sum(${campaigns.machineOpens}), 0)`.mapWith(Number),
      clicks: sql<number>`coalesce(sum(${campaigns.totalClicks}), 0)`.mapWith(Number),
    })
    .from(campaigns)
    .where(and(eq(campaigns.userId, userId), eq(campaigns.status, 'sent')));
  return row ?? { sent: 0, opens: 0, machineOpens: 0, clicks: 0 };
}

export type CampaignTotals = { sent: number; opens: number; clicks: number };
/** Two adjacent periods: previous = [previousFrom, currentFrom), current = [currentFrom, to). */
export type TrendWindows = { previousFrom: Date; currentFrom: Date; to: Date };

/** Sums of the user's sent campaigns in each period, by sent_at. */
export async function sumSentCampaignsByWindow(
  db: DbOrTx,
  userId: string,
  w: TrendWindows,
): Promise<{ current: CampaignTotals; previous: CampaignTotals }> {
  const inCurrent = sql`${campaigns.sentAt} >= ${ts(w.currentFrom)} AND ${campaigns.sentAt} < ${ts(w.to)}`;
  const inPrevious = sql`${campaigns.sentAt} >= ${ts(w.previousFrom)} AND ${campaigns.sentAt} < ${ts(w.currentFrom)}`;
  const sumIf = (column: SQLWrapper, period: SQL) =>
    sql<number>`coalesce(sum(${column}) FILTER (WHERE ${period}), 0)`.mapWith(Number);
  const [row] = await db
    .select({
      currentSent: sumIf(campaigns.totalSent, inCurrent),
      currentOpens: sumIf(campaigns.totalOpens, inCurrent),
      currentClicks: sumIf(campaigns.totalClicks, inCurrent),
      previousSent: sumIf(campaigns.totalSent, inPrevious),
      previousOpens: sumIf(campaigns.totalOpens, inPrevious),
      previousClicks: sumIf(campaigns.totalClicks, inPrevious),
    })
    .from(campaigns)
    .where(
      and(
        eq(campaigns.userId, userId),
        eq(campaigns.status, 'sent'),
        sql`${campaigns.sentAt} >= ${ts(w.previousFrom)}`,
      ),
    );
  return {
    current: { sent: row?.currentSent ?? 0, opens: row?.currentOpens ?? 0, clicks: row?.currentClicks ?? 0 },
    previous: { sent: row?.previousSent ?? 0, opens: row?.previousOpens ?? 0, clicks: row?.previousClicks ?? 0 },
  };
}

export type PurchaseTotals = { count: number; cents: number };

/** The user's purchases in cents: all time, and count and sum in each period (by created_at). */
export async function sumPurchases(
  db: DbOrTx,
  userId: string,
  w: TrendWindows,
): Promise<{ totalCents: number; current: PurchaseTotals; previous: PurchaseTotals }> {
  const inCurrent = sql`${emailEvents.createdAt} >= ${ts(w.currentFrom)} AND ${emailEvents.createdAt} < ${ts(w.to)}`;
  const inPrevious = sql`${emailEvents.createdAt} >= ${ts(w.previousFrom)} AND ${emailEvents.createdAt} < ${ts(w.currentFrom)}`;
  const [row] = await db
    .select({
      totalCents: sql<number>`coalesce(sum(${emailEvents.amountCents}), 0)`.mapWith(Number),
      currentCount: sql<number>`count(*) FILTER (WHERE ${inCurrent})`.mapWith(Number),
      currentCents: sql<number>`coalesce(sum(${emailEvents.amountCents}) FILTER (WHERE ${inCurrent}), 0)`.mapWith(
        Number,
      ),
      previousCount: sql<number>`count(*) FILTER (WHERE ${inPrevious})`.mapWith(Number),
      previousCents: sql<number>`coalesce(sum(${emailEvents.amountCents}) FILTER (WHERE ${inPrevious}), 0)`.mapWith(
        Number,
      ),
    })
    .from(emailEvents)
    .where(and(eq(emailEvents.userId, userId), eq(emailEvents.type, 'purchase')));
  return {
    totalCents: row?.totalCents ?? 0,
    current: { count: row?.currentCount ?? 0, cents: row?.currentCents ?? 0 },
    previous: { count: row?.previousCount ?? 0, cents: row?.previousCents ?? 0 },
  };
}

export async function findContactIdByEmail(db: DbOrTx, userId: string, email: string): Promise<number | undefined> {
  const [row] = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.userId, userId), eq(contacts.email, email)))
    .limit(1);
  return row?.id;
}

export async function findCampaignForCredit(db: DbOrTx, userId: string, id: number) {
  const [row] = await db
    .select({ id: campaigns.id, totalSent: campaigns.totalSent })
    .from(campaigns)
    .where(and(eq(campaigns.userId, userId), eq(campaigns.id, id)))
    .limit(1);
  return row;
}

export async function insertPurchase(
  db: DbOrTx,
  values: { userId: string; contactId: number; campaignId: number | null; amountCents: number },
): Promise<number> {
  const [row] = await db
    .insert(emailEvents)
    .values({ ...values, type: 'purchase' })
    .returning({ id: emailEvents.id });
  if (!row) throw new Error('purchase insert returned no row');
  return row.id;
}

export type PurchaseRow = {
  id: number;
  email: string | null;
  contactId: number | null;
  campaignId: number | null;
  campaignName: string | null;
  amountCents: number;
  createdAt: Date;
};

const purchaseColumns = {
  id: emailEvents.id,
  email: contacts.email,
  contactId: emailEvents.contactId,
  campaignId: emailEvents.campaignId,
  campaignName: campaigns.name,
  amountCents: sql<number>`coalesce(${emailEvents.amountCents}, 0)`.mapWith(Number),
  createdAt: emailEvents.createdAt,
};

/** The user's purchases, newest first. */
export async function listPurchases(
  db: DbOrTx,
  userId: string,
  page: { limit: number; offset: number },
): Promise<PurchaseRow[]> {
  return db
    .select(purchaseColumns)
    .from(emailEvents)
    .leftJoin(contacts, eq(contacts.id, emailEvents.contactId))
    .leftJoin(campaigns, eq(campaigns.id, emailEvents.campaignId))
    .where(and(eq(emailEvents.userId, userId), eq(emailEvents.type, 'purchase')))
    .orderBy(desc(emailEvents.createdAt), desc(emailEvents.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function findPurchase(db: DbOrTx, userId: string, id: number): Promise<PurchaseRow | undefined> {
  const [row] = await db
    .select(purchaseColumns)
    .from(emailEvents)
    .leftJoin(contacts, eq(contacts.id, emailEvents.contactId))
    .leftJoin(campaigns, eq(campaigns.id, emailEvents.campaignId))
    .where(and(eq(emailEvents.userId, userId), eq(emailEvents.type, 'purchase'), eq(emailEvents.id, id)))
    .limit(1);
  return row;
}

export async function countPurchases(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(emailEvents)
    .where(and(eq(emailEvents.userId, userId), eq(emailEvents.type, 'purchase')));
  return row?.n ?? 0;
}

// ── /analytics: reads of the daily rollups (kept by triggers, see db/schema/analytics.ts) ──────────

const sumOf = (column: SQLWrapper) => sql<number>`coalesce(sum(${column}), 0)`.mapWith(Number);
const mailSums = {
  sent: sumOf(analyticsMailDaily.sent),
  opened: sumOf(analyticsMailDaily.opened),
  machineOpened: sumOf(analyticsMailDaily.machineOpened),
  clicked: sumOf(analyticsMailDaily.clicked),
  bounced: sumOf(analyticsMailDaily.bounced),
  complaints: sumOf(analyticsMailDaily.complaints),
  unsubscribes: sumOf(analyticsMailDaily.unsubscribes),
};
export type MailSums = {
  sent: number;
  opened: number;
  machineOpened: number;
  clicked: number;
  bounced: number;
  complaints: number;
  unsubscribes: number;
};

/** Days are 'YYYY-MM-DD', both ends included. */
export type DayRange = { from: string; to: string };
const mailInRange = (userId: string, range: DayRange) =>
  and(eq(analyticsMailDaily.userId, userId), between(analyticsMailDaily.day, range.from, range.to));

/** The account's mail per day of the range (days without mail are absent). */
export async function mailByDay(db: DbOrTx, userId: string, range: DayRange): Promise<(MailSums & { day: string })[]> {
  return db
    .select({ day: analyticsMailDaily.day, ...mailSums })
    .from(analyticsMailDaily)
    .where(mailInRange(userId, range))
    .groupBy(analyticsMailDaily.day)
    .orderBy(asc(analyticsMailDaily.day));
}

/** The account's mail of the range per sending domain. */
export async function mailByDomain(
  db: DbOrTx,
  userId: string,
  range: DayRange,
): Promise<(MailSums & { domain: string })[]> {
  return db
    .select({ domain: analyticsMailDaily.domain, ...mailSums })
    .from(analyticsMailDaily)
    .where(mailInRange(userId, range))
    .groupBy(analyticsMailDaily.domain);
}

/** Whether the account has ever sent a message (any rollup row with mail sent). */
export async function hasSentMail(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ day: analyticsMailDaily.day })
    .from(analyticsMailDaily)
    .where(and(eq(analyticsMailDaily.userId, userId), sql`${analyticsMailDaily.sent} > 0`))
    .limit(1);
  return row !== undefined;
}

/** Contacts added and lost per day of the range (days without change are absent). */
export async function listChangesByDay(db: DbOrTx, userId: string, range: DayRange) {
  return db
    .select({
      day: analyticsContactsDaily.day,
      added: analyticsContactsDaily.added,
      unsubscribed: analyticsContactsDaily.unsubscribed,
      bounced: analyticsContactsDaily.bounced,
      complained: analyticsContactsDaily.complained,
    })
    .from(analyticsContactsDaily)
    .where(and(eq(analyticsContactsDaily.userId, userId), between(analyticsContactsDaily.day, range.from, range.to)))
    .orderBy(asc(analyticsContactsDaily.day));
}

/** The links with the most human clicks in the range. */
export async function topLinks(db: DbOrTx, userId: string, range: DayRange, limit: number) {
  const clicks = sumOf(analyticsLinkDaily.clicks);
  return db
    .select({ url: analyticsLinkDaily.url, clicks })
    .from(analyticsLinkDaily)
    .where(and(eq(analyticsLinkDaily.userId, userId), between(analyticsLinkDaily.day, range.from, range.to)))
    .groupBy(analyticsLinkDaily.url)
    .having(sql`sum(${analyticsLinkDaily.clicks}) > 0`)
    .orderBy(desc(clicks), asc(analyticsLinkDaily.url))
    .limit(limit);
}

/**
 * The account's campaigns finished in [start, end) with at least `minSent` messages, best human
 * open rate first, then click rate (their counters are kept as events arrive, modules/tracking).
 */
export async function topCampaigns(
  db: DbOrTx,
  userId: string,
  window: { start: Date; end: Date },
  minSent: number,
  limit: number,
) {
  const openRate = sql`${campaigns.totalOpens}::float / ${campaigns.totalSent}`;
  const clickRate = sql`${campaigns.totalClicks}::float / ${campaigns.totalSent}`;
  return db
    .select({
      id: campaigns.id,
      name: campaigns.name,
      sentAt: campaigns.sentAt,
      sent: campaigns.totalSent,
      opens: campaigns.totalOpens,
      clicks: campaigns.totalClicks,
    })
    .from(campaigns)
    .where(
      and(
        eq(campaigns.userId, userId),
        isNotNull(campaigns.sentAt),
        gte(campaigns.sentAt, window.start),
        lt(campaigns.sentAt, window.end),
        gte(campaigns.totalSent, minSent),
      ),
    )
    .orderBy(desc(openRate), desc(clickRate), desc(campaigns.sentAt))
    .limit(limit);
}
