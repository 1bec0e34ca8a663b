import { sql } from 'drizzle-orm';
import type { CampaignReport } from '@sendwell/contract/campaigns';
import type { Db } from '../../db/client.ts';
import { campaignLinks, campaignSends, emailEvents } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { ratePercent } from '../analytics/analytics.service.ts';
import { findCampaign } from './campaigns.repo.ts';
import { CAMPAIGN_NOT_FOUND } from './campaigns.service.ts';

/** A campaign's report, computed from its send ledger and events (rates over delivered mail). */
export async function campaignReport(db: Db, userId: string, id: number): Promise<CampaignReport> {
  const campaign = await findCampaign(db, userId, id);
  if (!campaign) throw new AppError('not_found', CAMPAIGN_NOT_FOUND);
  const [ledger, events, timeline, links] = await Promise.all([
    db.execute(sql`
      SELECT count(*) FILTER (WHERE sent_at IS NOT NULL)::int AS sent,
             count(*) FILTER (WHERE status = 'bounced')::int AS bounced,
             count(*) FILTER (WHERE status = 'bounced' AND sent_at IS NOT NULL)::int AS "bouncedAfterSending",
             count(*) FILTER (WHERE status = 'failed')::int AS failed
      FROM ${campaignSends} WHERE campaign_id = ${id}`),
    db.execute(sql`
      SELECT count(DISTINCT send_id) FILTER (WHERE type = 'open')::int AS opens,
             count(DISTINCT send_id) FILTER (WHERE type = 'click')::int AS clicks,
             count(DISTINCT send_id) FILTER (WHERE type = 'unsubscribe')::int AS unsubscribes,
             count(DISTINCT send_id) FILTER (WHERE type = 'complaint')::int AS complaints
      FROM ${emailEvents} WHERE campaign_id = ${id}`),
    db.execute(sql`
      SELECT date_trunc('hour', created_at) AS at,
             count(*) FILTER (WHERE type = 'open')::int AS opens,
             count(*) FILTER (WHERE type = 'click')::int AS clicks
      FROM ${emailEvents} WHERE campaign_id = ${id} AND type IN ('open', 'click')
      GROUP BY 1 ORDER BY 1`),
    db.execute(sql`
      SELECT l.url, count(e.id)::int AS clicks, count(DISTINCT e.send_id)::int AS "uniqueClicks"
      FROM ${campaignLinks} l JOIN ${emailEvents} e ON e.link_id = l.id AND e.type = 'click' AND e.campaign_id = ${id}
      WHERE l.campaign_id = ${id}
      GROUP BY l.url ORDER BY clicks DESC, l.url LIMIT 10`),
  ]);
  // sent = accepted by the mail server; a bounce report after that takes it out of delivered.
  const l = ledger.rows[0] as { sent: number; bounced: number; bouncedAfterSending: number; failed: number };
  const e = events.rows[0] as { opens: number; clicks: number; unsubscribes: number; complaints: number };
  const delivered = l.sent - l.bouncedAfterSending;
  return {
    recipients: campaign.totalRecipients,
    sent: l.sent,
    delivered,
    bounced: l.bounced,
    failed: l.failed,
    uniqueOpens: e.opens,
    uniqueClicks: e.clicks,
    unsubscribes: e.unsubscribes,
    complaints: e.complaints,
    openRate: ratePercent(e.opens, delivered),
    clickRate: ratePercent(e.clicks, delivered),
    timeline: (timeline.rows as { at: Date | string; opens: number; clicks: number }[]).map((row) => ({
      at: new Date(row.at).toISOString(),
      opens: row.opens,
      clicks: row.clicks,
    })),
    topLinks: links.rows as { url: string; clicks: number; uniqueClicks: number }[],
  };
}
