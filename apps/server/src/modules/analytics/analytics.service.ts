import type { StatsResponse } from '@sendwell/contract/analytics';
import type { Db } from '../../db/client.ts';
import { countActiveContacts, sumSentCampaignTotals } from './analytics.repo.ts';

/** A percentage with one decimal; 0 when nothing was sent. */
export function ratePercent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;
}

/**
 * The dashboard's four figures. Rates follow spec part 1 §9 (total opens / total sent of sent
 * campaigns). Revenue: Sendwell records no orders yet, so the true total is 0.
 */
export async function dashboardStats(db: Db, userId: string): Promise<StatsResponse> {
  const [totalSubscribers, totals] = await Promise.all([countActiveContacts(db, userId), sumSentCampaignTotals(db, userId)]);
  return {
    totalSubscribers,
    avgOpenRate: ratePercent(totals.opens, totals.sent),
    avgClickRate: ratePercent(totals.clicks, totals.sent),
    totalRevenue: 0,
  };
}
