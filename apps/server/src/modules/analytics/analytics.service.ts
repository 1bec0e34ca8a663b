import {
  OPEN_RATE_INDUSTRY_AVERAGE,
  PURCHASE_CAMPAIGN_NOT_FOUND,
  PURCHASE_CAMPAIGN_NOT_SENT,
  PURCHASE_NOT_A_CONTACT,
  OVERVIEW_TOP_COUNT,
  REPUTATION_THRESHOLDS,
  TOP_CAMPAIGN_MIN_SENT,
  TREND_WINDOW_DAYS,
  type OverviewMailFigures,
  type OverviewQuery,
  type OverviewResponse,
  type Purchase,
  type Reputation,
  type RecordPurchase,
  type StatsResponse,
} from '@sendwell/contract/analytics';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import * as repo from './analytics.repo.ts';

/** A percentage with one decimal; 0 when nothing was sent. */
export function ratePercent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;
}

const oneDecimal = (value: number) => Math.round(value * 10) / 10;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Relative change in percent (one decimal), or null when there is no base to compare with. */
function changePercent(current: number, previous: number | null): number | null {
  return previous === null || previous === 0 ? null : oneDecimal(((current - previous) / previous) * 100);
}

/** A period's rate, or null when the period sent nothing (there is no rate to speak of). */
function periodRate(part: number, sent: number): number | null {
  return sent > 0 ? ratePercent(part, sent) : null;
}

function rateTrend(current: number | null, previous: number | null) {
  return {
    current,
    previous,
    changePoints: current === null || previous === null ? null : oneDecimal(current - previous),
  };
}

/** Dollars from integer cents (money is stored in cents, house rule 8). */
const dollars = (cents: number) => cents / 100;

/**
 * The dashboard's four figures and their trends over the last 30 days. Rates follow spec part 1 §9
 * (total opens / total sent of sent campaigns); revenue is the sum of recorded purchases.
 */
export async function dashboardStats(db: Db, userId: string, now = new Date()): Promise<StatsResponse> {
  const currentFrom = new Date(now.getTime() - TREND_WINDOW_DAYS * DAY_MS);
  const windows = { previousFrom: new Date(now.getTime() - 2 * TREND_WINDOW_DAYS * DAY_MS), currentFrom, to: now };
  const [totalSubscribers, subscribersBefore, totals, byWindow, purchases] = await Promise.all([
    repo.countActiveContacts(db, userId),
    repo.countContactsActiveAt(db, userId, currentFrom),
    repo.sumSentCampaignTotals(db, userId),
    repo.sumSentCampaignsByWindow(db, userId, windows),
    repo.sumPurchases(db, userId, windows),
  ]);
  const avgOpenRate = ratePercent(totals.opens, totals.sent);
  const previousRevenue = purchases.previous.count > 0 ? dollars(purchases.previous.cents) : null;
  return {
    totalSubscribers,
    avgOpenRate,
    avgMachineOpenRate: ratePercent(totals.machineOpens, totals.sent),
    avgClickRate: ratePercent(totals.clicks, totals.sent),
    totalRevenue: dollars(purchases.totalCents),
    trends: {
      subscribers: {
        current: totalSubscribers,
        previous: subscribersBefore,
        changePercent: changePercent(totalSubscribers, subscribersBefore),
      },
      openRate: rateTrend(
        periodRate(byWindow.current.opens, byWindow.current.sent),
        periodRate(byWindow.previous.opens, byWindow.previous.sent),
      ),
      clickRate: rateTrend(
        periodRate(byWindow.current.clicks, byWindow.current.sent),
        periodRate(byWindow.previous.clicks, byWindow.previous.sent),
      ),
      revenue: {
        current: dollars(purchases.current.cents),
        previous: previousRevenue,
        changePercent: changePercent(dollars(purchases.current.cents), previousRevenue),
      },
      openRateVsIndustry:
        totals.sent > 0
          ? {
              industryAverage: OPEN_RATE_INDUSTRY_AVERAGE,
              differencePoints: oneDecimal(avgOpenRate - OPEN_RATE_INDUSTRY_AVERAGE),
            }
          : null,
    },
  };
}

function toPurchase(row: repo.PurchaseRow): Purchase {
  return {
    id: row.id,
    email: row.email,
    contactId: row.contactId,
    campaignId: row.campaignId,
    campaignName: row.campaignName,
    amount: dollars(row.amountCents),
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Records a purchase by one of the user's contacts, credited to one of the user's campaigns that
 * has sent mail, if given. Unknown contacts and campaigns (another user's included) answer 422 with
 * the field at fault, and nothing is written.
 */
export async function recordPurchase(db: Db, userId: string, body: RecordPurchase): Promise<Purchase> {
  const contactId = await repo.findContactIdByEmail(db, userId, body.email);
  if (contactId === undefined)
    throw new AppError('unprocessable', PURCHASE_NOT_A_CONTACT, { email: PURCHASE_NOT_A_CONTACT });
  if (body.campaignId !== undefined) {
    const campaign = await repo.findCampaignForCredit(db, userId, body.campaignId);
    if (!campaign)
      throw new AppError('unprocessable', PURCHASE_CAMPAIGN_NOT_FOUND, { campaignId: PURCHASE_CAMPAIGN_NOT_FOUND });
    if (campaign.totalSent === 0)
      throw new AppError('unprocessable', PURCHASE_CAMPAIGN_NOT_SENT, { campaignId: PURCHASE_CAMPAIGN_NOT_SENT });
  }
  const id = await repo.insertPurchase(db, {
    userId,
    contactId,
    campaignId: body.campaignId ?? null,
    amountCents: Math.round(body.amount * 100),
  });
  const stored = await repo.findPurchase(db, userId, id);
  if (!stored) throw new Error('recorded purchase not found');
  return toPurchase(stored);
}

/** One page of the user's purchases, newest first, and how many there are. */
export async function listPurchases(
  db: Db,
  userId: string,
  query: { page: number; pageSize: number },
): Promise<{ purchases: Purchase[]; total: number }> {
  const [rows, total] = await Promise.all([
    repo.listPurchases(db, userId, { limit: query.pageSize, offset: (query.page - 1) * query.pageSize }),
    repo.countPurchases(db, userId),
  ]);
  return { purchases: rows.map(toPurchase), total };
}

// ── /analytics ─────────────────────────────────────────────────────────────────────────────────────

/** A rate in percent with one decimal, or null when there is nothing to divide by. */
const rateOrNull = (part: number, whole: number): number | null => (whole > 0 ? ratePercent(part, whole) : null);

/** Every UTC calendar day from `from` to `to`, both included, as 'YYYY-MM-DD'. */
function eachDay(from: string, to: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += DAY_MS)
    days.push(new Date(at).toISOString().slice(0, 10));
  return days;
}

function mailFigures(sums: repo.MailSums): OverviewMailFigures {
  return {
    sent: sums.sent,
    delivered: Math.max(0, sums.sent - sums.bounced),
    opened: sums.opened,
    machineOpened: sums.machineOpened,
    clicked: sums.clicked,
    bounced: sums.bounced,
    complaints: sums.complaints,
    unsubscribes: sums.unsubscribes,
  };
}

const NO_MAIL: repo.MailSums = {
  sent: 0,
  opened: 0,
  machineOpened: 0,
  clicked: 0,
  bounced: 0,
  complaints: 0,
  unsubscribes: 0,
};

/** A domain's standing from its rates: poor past the 'fair' limits, good within the 'good' ones. */
function reputationOf(bounceRate: number | null, complaintRate: number | null): Reputation {
  const bounce = bounceRate ?? 0;
  const complaint = complaintRate ?? 0;
  if (bounce <= REPUTATION_THRESHOLDS.good.bounceRate && complaint <= REPUTATION_THRESHOLDS.good.complaintRate)
    return 'good';
  if (bounce <= REPUTATION_THRESHOLDS.fair.bounceRate && complaint <= REPUTATION_THRESHOLDS.fair.complaintRate)
    return 'fair';
  return 'poor';
}

/**
 * /analytics over UTC days `from`..`to`: campaign and sequence mail per day, per sending domain and
 * in total, the list's growth and churn, and the top campaigns and links. Everything is read from
 * the daily rollups (a few rows per day) and the campaigns' counters, never from the event log, so
 * the answer takes the same time at ten events or ten million (bench/analytics.bench.ts).
 */
export async function analyticsOverview(db: Db, userId: string, range: OverviewQuery): Promise<OverviewResponse> {
  const window = {
    start: new Date(`${range.from}T00:00:00Z`),
    end: new Date(Date.parse(`${range.to}T00:00:00Z`) + DAY_MS),
  };
  const [byDay, byDomain, listDays, links, campaignRows, sentAny] = await Promise.all([
    repo.mailByDay(db, userId, range),
    repo.mailByDomain(db, userId, range),
    repo.listChangesByDay(db, userId, range),
    repo.topLinks(db, userId, range, OVERVIEW_TOP_COUNT),
    repo.topCampaigns(db, userId, window, TOP_CAMPAIGN_MIN_SENT, OVERVIEW_TOP_COUNT),
    repo.hasSentMail(db, userId),
  ]);
  const mailOn = new Map(byDay.map((row) => [row.day, row]));
  const listOn = new Map(listDays.map((row) => [row.day, row]));
  const total = byDay.reduce<repo.MailSums>(
    (sum, row) => ({
      sent: sum.sent + row.sent,
      opened: sum.opened + row.opened,
      machineOpened: sum.machineOpened + row.machineOpened,
      clicked: sum.clicked + row.clicked,
      bounced: sum.bounced + row.bounced,
      complaints: sum.complaints + row.complaints,
      unsubscribes: sum.unsubscribes + row.unsubscribes,
    }),
    NO_MAIL,
  );
  const totals = mailFigures(total);
  const listGrowth = eachDay(range.from, range.to).map((day) => {
    const row = listOn.get(day);
    const added = row?.added ?? 0;
    const unsubscribed = row?.unsubscribed ?? 0;
    const bounced = row?.bounced ?? 0;
    const complained = row?.complained ?? 0;
    return { day, added, unsubscribed, bounced, complained, net: added - unsubscribed - bounced - complained };
  });
  return {
    from: range.from,
    to: range.to,
    hasSentMail: sentAny,
    totals: {
      ...totals,
      openRate: rateOrNull(totals.opened, totals.sent),
      machineOpenRate: rateOrNull(totals.machineOpened, totals.sent),
      clickRate: rateOrNull(totals.clicked, totals.sent),
      bounceRate: rateOrNull(totals.bounced, totals.sent),
      complaintRate: rateOrNull(totals.complaints, totals.delivered),
      unsubscribeRate: rateOrNull(totals.unsubscribes, totals.delivered),
      contactsAdded: listGrowth.reduce((sum, day) => sum + day.added, 0),
      contactsLost: listGrowth.reduce((sum, day) => sum + day.unsubscribed + day.bounced + day.complained, 0),
    },
    days: eachDay(range.from, range.to).map((day) => ({ day, ...mailFigures(mailOn.get(day) ?? NO_MAIL) })),
    domains: byDomain
      .filter((row) => row.sent > 0)
      .map((row) => {
        const figures = mailFigures(row);
        const bounceRate = rateOrNull(figures.bounced, figures.sent);
        const complaintRate = rateOrNull(figures.complaints, figures.delivered);
        return {
          domain: row.domain,
          sent: figures.sent,
          delivered: figures.delivered,
          bounced: figures.bounced,
          complaints: figures.complaints,
          bounceRate,
          complaintRate,
          reputation: reputationOf(bounceRate, complaintRate),
        };
      })
      .sort((a, b) => b.sent - a.sent || a.domain.localeCompare(b.domain)),
    listGrowth,
    topCampaigns: campaignRows.map((row) => ({
      id: row.id,
      name: row.name,
      sentAt: (row.sentAt ?? window.start).toISOString(),
      sent: row.sent,
      openRate: ratePercent(row.opens, row.sent),
      clickRate: ratePercent(row.clicks, row.sent),
    })),
    topLinks: links,
  };
}
