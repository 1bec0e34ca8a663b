import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import {
  campaignLinks,
  campaigns,
  campaignSends,
  contactLists,
  contacts,
  contactSegmentMembers,
  contactSegments,
  emailEvents,
} from '../../db/schema/index.ts';

export type CampaignRow = typeof campaigns.$inferSelect;
export type NewCampaignRow = typeof campaigns.$inferInsert;

export async function listCampaigns(db: DbOrTx, userId: string): Promise<CampaignRow[]> {
  return db
    .select()
    .from(campaigns)
    .where(eq(campaigns.userId, userId))
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id));
}

export async function findCampaign(db: DbOrTx, userId: string, id: number): Promise<CampaignRow | undefined> {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.userId, userId), eq(campaigns.id, id)))
    .limit(1);
  return row;
}

/** Locks the campaign row for a status change in this transaction. */
export async function lockCampaign(db: DbOrTx, userId: string, id: number): Promise<CampaignRow | undefined> {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.userId, userId), eq(campaigns.id, id)))
    .limit(1)
    .for('update');
  return row;
}

export async function insertCampaign(db: DbOrTx, values: NewCampaignRow): Promise<CampaignRow> {
  const [row] = await db.insert(campaigns).values(values).returning();
  if (!row) throw new Error('campaign insert returned nothing');
  return row;
}

export async function updateCampaign(db: DbOrTx, id: number, values: Partial<NewCampaignRow>): Promise<CampaignRow> {
  const [row] = await db
    .update(campaigns)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(campaigns.id, id))
    .returning();
  if (!row) throw new Error('campaign update returned nothing');
  return row;
}

export async function deleteCampaign(db: DbOrTx, id: number): Promise<void> {
  await db.delete(campaigns).where(eq(campaigns.id, id));
}

/** The ids among `ids` that are the user's lists / segments. */
export async function ownedListIds(db: DbOrTx, userId: string, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: contactLists.id })
    .from(contactLists)
    .where(and(eq(contactLists.userId, userId), inArray(contactLists.id, ids)));
  return rows.map((r) => r.id);
}

export async function ownedSegmentIds(db: DbOrTx, userId: string, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: contactSegments.id })
    .from(contactSegments)
    .where(and(eq(contactSegments.userId, userId), inArray(contactSegments.id, ids)));
  return rows.map((r) => r.id);
}

/** What a campaign's report is computed from: its send ledger and its events, counted in four statements. */
export type CampaignReportFigures = {
  ledger: { sent: number; bounced: number; bouncedAfterSending: number; failed: number };
  /**
   * Distinct messages with each kind of event: opens = a human open or a human click (a click
   * implies an open), machineOpens = only machine opens, clicks = a human click, botClicks = only
   * bot clicks.
   */
  events: {
    opens: number;
    machineOpens: number;
    clicks: number;
    botClicks: number;
    unsubscribes: number;
    complaints: number;
  };
  timeline: { at: Date | string; opens: number; clicks: number; machineOpens: number }[];
  topLinks: { url: string; clicks: number; uniqueClicks: number }[];
  /** Bounce events by reason and hardness (reason null: recorded before reasons were). */
  bounces: { reason: string | null; soft: boolean; count: number }[];
};

export async function campaignReportFigures(db: DbOrTx, id: number): Promise<CampaignReportFigures> {
  const [ledger, events, timeline, links, bounces] = await Promise.all([
    db.execute(sql`
      SELECT count(*) FILTER (WHERE sent_at IS NOT NULL)::int AS sent,
             count(*) FILTER (WHERE status = 'bounced')::int AS bounced,
             count(*) FILTER (WHERE status = 'bounced' AND sent_at IS NOT NULL)::int AS "bouncedAfterSending",
             count(*) FILTER (WHERE status = 'failed')::int AS failed
      FROM ${campaignSends} WHERE campaign_id = ${id}`),
    db.execute(sql`
      WITH per_send AS (
        SELECT bool_or(type = 'open' AND NOT machine) AS human_open, bool_or(type = 'open' AND machine) AS machine_open,
               bool_or(type = 'click' AND NOT machine) AS human_click, bool_or(type = 'click' AND machine) AS bot_click,
               bool_or(type = 'unsubscribe') AS unsubscribed, bool_or(type = 'complaint') AS complained
        FROM ${emailEvents} WHERE campaign_id = ${id} GROUP BY send_id
      )
      SELECT count(*) FILTER (WHERE human_open OR human_click)::int AS opens,
             count(*) FILTER (WHERE machine_open AND NOT (human_open OR human_click))::int AS "machineOpens",
             count(*) FILTER (WHERE human_click)::int AS clicks,
             count(*) FILTER (WHERE bot_click AND NOT human_click)::int AS "botClicks",
             count(*) FILTER (WHERE unsubscribed)::int AS unsubscribes,
             count(*) FILTER (WHERE complained)::int AS complaints
      FROM per_send`),
    db.execute(sql`
      SELECT date_trunc('hour', created_at) AS at,
             count(*) FILTER (WHERE type = 'open' AND NOT machine)::int AS opens,
             count(*) FILTER (WHERE type = 'click' AND NOT machine)::int AS clicks,
             count(*) FILTER (WHERE type = 'open' AND machine)::int AS "machineOpens"
      FROM ${emailEvents} WHERE campaign_id = ${id} AND type IN ('open', 'click')
      GROUP BY 1 ORDER BY 1`),
    db.execute(sql`
      SELECT l.url, count(e.id)::int AS clicks, count(DISTINCT e.send_id)::int AS "uniqueClicks"
      FROM ${campaignLinks} l
      JOIN ${emailEvents} e ON e.link_id = l.id AND e.type = 'click' AND NOT e.machine AND e.campaign_id = ${id}
      WHERE l.campaign_id = ${id}
      GROUP BY l.url ORDER BY clicks DESC, l.url LIMIT 100`),
    db.execute(sql`
      SELECT reason, coalesce(detail, '') LIKE 'soft:%' AS soft, count(*)::int AS count
      FROM ${emailEvents} WHERE campaign_id = ${id} AND type = 'bounce'
      GROUP BY 1, 2 ORDER BY count DESC, reason`),
  ]);
  return {
    ledger: ledger.rows[0] as CampaignReportFigures['ledger'],
    events: events.rows[0] as CampaignReportFigures['events'],
    timeline: timeline.rows as CampaignReportFigures['timeline'],
    topLinks: links.rows as CampaignReportFigures['topLinks'],
    bounces: bounces.rows as CampaignReportFigures['bounces'],
  };
}

/** A contact of the account as the preview fills merge tags with it, and the segments it is in; undefined when not the account's. */
export async function previewContact(
  db: DbOrTx,
  userId: string,
  contactId: number,
): Promise<
  | {
      id: number;
      email: string;
      firstName: string | null;
      lastName: string | null;
      company: string | null;
      jobTitle: string | null;
      location: string | null;
      segmentIds: number[];
    }
  | undefined
> {
  const [row] = await db
    .select({
      id: contacts.id,
      email: contacts.email,
      firstName: contacts.firstName,
      lastName: contacts.lastName,
      company: contacts.company,
      jobTitle: contacts.jobTitle,
      location: contacts.location,
    })
    .from(contacts)
    .where(and(eq(contacts.userId, userId), eq(contacts.id, contactId)));
  if (!row) return undefined;
  const memberships = await db
    .select({ segmentId: contactSegmentMembers.segmentId })
    .from(contactSegmentMembers)
    .where(eq(contactSegmentMembers.contactId, contactId));
  return { ...row, segmentIds: memberships.map((m) => m.segmentId) };
}
