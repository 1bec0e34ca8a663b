import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import {
  campaignLinks,
  campaigns,
  campaignSends,
  contacts,
  emailEvents,
  suppressions,
  users,
} from '../../db/schema/index.ts';
import { ENGAGEMENT_SQL } from './engagement.ts';

/** The tracking module's only access to tables: what the tracking service reads and writes. */

export type SendRow = typeof campaignSends.$inferSelect;
export type EngagementType = 'open' | 'click';

/** One send (one recipient of one campaign) by id. */
export async function findSend(db: DbOrTx, sendId: number): Promise<SendRow | undefined> {
  const [row] = await db.select().from(campaignSends).where(eq(campaignSends.id, sendId)).limit(1);
  return row;
}

/**
 * The send, its row locked until the transaction ends: opens and clicks of one recipient are
 * counted one after the other (see countEngagement in tracking.service.ts).
 */
export async function lockSend(db: DbOrTx, sendId: number): Promise<SendRow | undefined> {
  const [row] = await db.select().from(campaignSends).where(eq(campaignSends.id, sendId)).limit(1).for('update');
  return row;
}

/** A stored link of a campaign by its id (links in mail signed before per-recipient tokens name the id). */
export async function findCampaignLink(
  db: DbOrTx,
  campaignId: number,
  linkId: number,
): Promise<{ id: number; url: string } | undefined> {
  const [row] = await db
    .select({ id: campaignLinks.id, url: campaignLinks.url })
    .from(campaignLinks)
    .where(and(eq(campaignLinks.id, linkId), eq(campaignLinks.campaignId, campaignId)))
    .limit(1);
  return row;
}

/**
 * The campaign's link at `index` among its stored links in id order (links are stored once, in
 * the order the email shows them, when the campaign's send starts).
 */
export async function findCampaignLinkAt(
  db: DbOrTx,
  campaignId: number,
  index: number,
): Promise<{ id: number; url: string } | undefined> {
  const [row] = await db
    .select({ id: campaignLinks.id, url: campaignLinks.url })
    .from(campaignLinks)
    .where(eq(campaignLinks.campaignId, campaignId))
    .orderBy(asc(campaignLinks.id))
    .limit(1)
    .offset(index);
  return row;
}

/** All of the campaign's stored links in id order (a link's index is its place here). */
export async function listCampaignLinks(db: DbOrTx, campaignId: number): Promise<{ id: number; url: string }[]> {
  return db
    .select({ id: campaignLinks.id, url: campaignLinks.url })
    .from(campaignLinks)
    .where(eq(campaignLinks.campaignId, campaignId))
    .orderBy(asc(campaignLinks.id));
}

/**
 * Whether the send already has an event of this type. The campaign narrows it to the
 * (campaign_id, type, created_at) index; email_events has no index on send_id.
 */
export async function hasEvent(db: DbOrTx, send: SendRow, type: EngagementType): Promise<boolean> {
  const [row] = await db
    .select({ id: emailEvents.id })
    .from(emailEvents)
    .where(
      and(eq(emailEvents.campaignId, send.campaignId), eq(emailEvents.type, type), eq(emailEvents.sendId, send.id)),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * The send's latest open: whether it has one, and whether that one is within the last
 * `withinMinutes` minutes (by the database's clock, which stamps events). The newest is found first
 * on the (campaign_id, type, created_at) index read backwards.
 */
export async function latestOpen(
  db: DbOrTx,
  send: SendRow,
  withinMinutes: number,
): Promise<{ recent: boolean } | undefined> {
  const [row] = await db
    .select({ recent: sql<boolean>`${emailEvents.createdAt} > now() - make_interval(mins => ${withinMinutes})` })
    .from(emailEvents)
    .where(
      and(eq(emailEvents.campaignId, send.campaignId), eq(emailEvents.type, 'open'), eq(emailEvents.sendId, send.id)),
    )
    .orderBy(desc(emailEvents.createdAt))
    .limit(1);
  return row;
}

/** Appends an event of a send (open, click, unsubscribe) to the event log. */
export async function insertSendEvent(
  db: DbOrTx,
  send: SendRow,
  type: EngagementType | 'unsubscribe',
  linkId: number | null = null,
): Promise<void> {
  await db.insert(emailEvents).values({
    userId: send.userId,
    campaignId: send.campaignId,
    sendId: send.id,
    contactId: send.contactId,
    type,
    linkId,
  });
}

/** Adds one to the campaign's unique opens or clicks (derived from the events: only for a send's first). */
export async function incrementCampaignTotal(db: DbOrTx, campaignId: number, type: EngagementType): Promise<void> {
  const column = type === 'open' ? sql`total_opens = total_opens + 1` : sql`total_clicks = total_clicks + 1`;
  await db.execute(sql`UPDATE ${campaigns} SET ${column} WHERE id = ${campaignId}`);
}

/** Adds one to the contact's opened or clicked emails, marks them active now and recomputes their score. */
export async function incrementContactEngagement(db: DbOrTx, contactId: number, type: EngagementType): Promise<void> {
  const column =
    type === 'open'
      ? sql`total_emails_opened = total_emails_opened + 1`
      : sql`total_emails_clicked = total_emails_clicked + 1`;
  await db.execute(sql`UPDATE ${contacts} SET ${column}, last_activity_at = now() WHERE id = ${contactId}`);
  await db.execute(sql`UPDATE ${contacts} SET engagement_score = ${sql.raw(ENGAGEMENT_SQL)} WHERE id = ${contactId}`);
}

/** The account holder's names, for the sender shown on the recipient pages. */
export async function findSenderAccount(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({ company: users.company, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

/** The campaign's from name and address. */
export async function findCampaignSender(db: DbOrTx, campaignId: number) {
  const [row] = await db
    .select({ fromName: campaigns.fromName, fromEmail: campaigns.fromEmail })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId))
    .limit(1);
  return row;
}

/** Why the address is suppressed for the user, if it is; `lock` holds the row for this transaction. */
export async function findSuppressionReason(
  db: DbOrTx,
  userId: string,
  email: string,
  lock = false,
): Promise<string | undefined> {
  const query = db
    .select({ reason: suppressions.reason })
    .from(suppressions)
    .where(and(eq(suppressions.userId, userId), eq(suppressions.email, email)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row?.reason;
}

/** Suppresses the address as unsubscribed; false when it was already suppressed (for any reason). */
export async function insertUnsubscribe(db: DbOrTx, userId: string, email: string): Promise<boolean> {
  const added = await db
    .insert(suppressions)
    .values({ userId, email, reason: 'unsubscribe' })
    .onConflictDoNothing()
    .returning({ email: suppressions.email });
  return added.length > 0;
}

/** Lifts the address's suppression if (and only if) it is the recipient's own unsubscribe. */
export async function deleteUnsubscribe(db: DbOrTx, userId: string, email: string): Promise<void> {
  await db
    .delete(suppressions)
    .where(and(eq(suppressions.userId, userId), eq(suppressions.email, email), eq(suppressions.reason, 'unsubscribe')));
}

/** Sets whether the user's contact receives mail. */
export async function setContactActive(db: DbOrTx, userId: string, contactId: number, active: boolean): Promise<void> {
  await db
    .update(contacts)
    .set({ isActive: active, updatedAt: new Date() })
    .where(and(eq(contacts.id, contactId), eq(contacts.userId, userId)));
}
