import {
  OPEN_RATE_INDUSTRY_AVERAGE,
  PURCHASE_CAMPAIGN_NOT_FOUND,
  PURCHASE_CAMPAIGN_NOT_SENT,
  PURCHASE_NOT_A_CONTACT,
  TREND_WINDOW_DAYS,
  type Purchase,
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
