import { sql, type SQL } from 'drizzle-orm';
import type { CampaignActivityKind } from '@sendwell/contract/campaigns';
import type { DbOrTx } from '../../db/client.ts';
import { campaignLinks, campaignSends, emailEvents } from '../../db/schema/index.ts';

/** The report's who-lists: one row per recipient with events of a kind, read from the event log. */

export type ActivityRow = {
  contactId: number | null;
  email: string;
  firstName: string;
  lastName: string;
  at: Date | string;
  count: number;
  detail: string | null;
};

/** Which events make a recipient one of the kind: opens count human opens and clicks (a click is an open). */
const KIND_EVENTS: Record<CampaignActivityKind, SQL> = {
  opened: sql`e.type IN ('open', 'click') AND NOT e.machine`,
  clicked: sql`e.type = 'click' AND NOT e.machine`,
  bounced: sql`e.type = 'bounce'`,
  unsubscribed: sql`e.type = 'unsubscribe'`,
  complained: sql`e.type = 'complaint'`,
};

const KIND_DETAIL: Record<CampaignActivityKind, SQL> = {
  opened: sql`CASE WHEN bool_or(e.type = 'open') THEN NULL ELSE 'Implied by a click' END`,
  clicked: sql`string_agg(DISTINCT l.url, ' ')`,
  bounced: sql`nullif(concat_ws(': ', max(e.reason), max(e.detail)), '')`,
  unsubscribed: sql`NULL`,
  complained: sql`NULL`,
};

const KIND_COUNT: Record<CampaignActivityKind, SQL> = {
  opened: sql`greatest(count(*) FILTER (WHERE e.type = 'open'), 1)`,
  clicked: sql`count(*)`,
  bounced: sql`count(*)`,
  unsubscribed: sql`count(*)`,
  complained: sql`count(*)`,
};

/** LIKE's wildcards in the user's search taken literally. */
const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function activityQuery(userId: string, campaignId: number, kind: CampaignActivityKind, search: string | undefined) {
  const matching = search
    ? sql`AND (s.email ILIKE ${likePattern(search)} OR (s.first_name || ' ' || s.last_name) ILIKE ${likePattern(search)})`
    : sql``;
  return sql`
    SELECT s.id AS "sendId", s.contact_id AS "contactId", s.email, s.first_name AS "firstName",
           s.last_name AS "lastName", min(e.created_at) AS at, (${KIND_COUNT[kind]})::int AS count,
           ${KIND_DETAIL[kind]} AS detail
    FROM ${emailEvents} e
    JOIN ${campaignSends} s ON s.id = e.send_id AND s.campaign_id = ${campaignId}
    LEFT JOIN ${campaignLinks} l ON l.id = e.link_id
    WHERE e.campaign_id = ${campaignId} AND e.user_id = ${userId} AND ${KIND_EVENTS[kind]} ${matching}
    GROUP BY s.id`;
}

/** One page of the recipients of the owner's campaign with events of the kind, latest first. */
export async function listActivity(
  db: DbOrTx,
  userId: string,
  campaignId: number,
  filter: { kind: CampaignActivityKind; search: string | undefined; limit: number; offset: number },
): Promise<ActivityRow[]> {
  const result = await db.execute(sql`
    ${activityQuery(userId, campaignId, filter.kind, filter.search)}
    ORDER BY at DESC, "sendId" DESC LIMIT ${filter.limit} OFFSET ${filter.offset}`);
  return result.rows as ActivityRow[];
}

/** How many recipients of the owner's campaign have events of the kind (and match the search). */
export async function countActivity(
  db: DbOrTx,
  userId: string,
  campaignId: number,
  kind: CampaignActivityKind,
  search: string | undefined,
): Promise<number> {
  const result = await db.execute(
    sql`SELECT count(*)::int AS n FROM (${activityQuery(userId, campaignId, kind, search)}) AS matching`,
  );
  return Number((result.rows[0] as { n: number } | undefined)?.n ?? 0);
}
