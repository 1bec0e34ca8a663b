import { bounceReasonSchema, type BounceReason } from '@sendwell/contract/bounces';
import type { CampaignReport } from '@sendwell/contract/campaigns';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { ratePercent } from '../analytics/index.ts';
import { campaignReportFigures, findCampaign } from './campaigns.repo.ts';
import { CAMPAIGN_NOT_FOUND } from './campaigns.service.ts';

/** Bounce counts by reason, those without a known reason as 'undetermined', most frequent first. */
function bouncesByReason(rows: { reason: string | null; soft: boolean; count: number }[]) {
  const counts = new Map<string, { reason: BounceReason; hard: boolean; count: number }>();
  for (const row of rows) {
    const parsed = bounceReasonSchema.safeParse(row.reason);
    const reason = parsed.success ? parsed.data : 'undetermined';
    const hard = !row.soft;
    const key = `${reason}/${hard}`;
    const entry = counts.get(key) ?? { reason, hard, count: 0 };
    entry.count += row.count;
    counts.set(key, entry);
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
}

/** A campaign's report, computed from its send ledger and events (rates over delivered mail). */
export async function campaignReport(db: Db, userId: string, id: number): Promise<CampaignReport> {
  const campaign = await findCampaign(db, userId, id);
  if (!campaign) throw new AppError('not_found', CAMPAIGN_NOT_FOUND);
  const { ledger: l, events: e, timeline, topLinks, bounces } = await campaignReportFigures(db, id);
  // sent = accepted by the mail server; a bounce report after that takes it out of delivered.
  const delivered = l.sent - l.bouncedAfterSending;
  return {
    recipients: campaign.totalRecipients,
    sent: l.sent,
    delivered,
    bounced: l.bounced,
    failed: l.failed,
    uniqueOpens: e.opens,
    uniqueClicks: e.clicks,
    machineOpens: e.machineOpens,
    botClicks: e.botClicks,
    unsubscribes: e.unsubscribes,
    complaints: e.complaints,
    openRate: ratePercent(e.opens, delivered),
    machineOpenRate: ratePercent(e.machineOpens, delivered),
    clickRate: ratePercent(e.clicks, delivered),
    clickToOpenRate: ratePercent(e.clicks, e.opens),
    timeline: timeline.map((row) => ({
      at: new Date(row.at).toISOString(),
      opens: row.opens,
      clicks: row.clicks,
      machineOpens: row.machineOpens,
    })),
    topLinks,
    bouncesByReason: bouncesByReason(bounces),
  };
}
