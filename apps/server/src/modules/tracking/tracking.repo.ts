import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import {
  campaignLinks,
  campaigns,
  campaignSends,
  contactListMembers,
  contactLists,
  contacts,
  emailEvents,
  emailSequences,
  emailSequenceVersions,
  sequenceSends,
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
 * Where one send stands: whether it has a human open, a machine open, a human click, a bot click
 * (on the send_id index). Read before and after each event to move the counters that derive from it.
 */
export type SendEngagement = { humanOpen: boolean; machineOpen: boolean; humanClick: boolean; botClick: boolean };

export async function sendEngagement(db: DbOrTx, send: SendRow): Promise<SendEngagement> {
  const result = await db.execute(sql`
    SELECT coalesce(bool_or(type = 'open' AND NOT machine), false) AS "humanOpen",
           coalesce(bool_or(type = 'open' AND machine), false) AS "machineOpen",
           coalesce(bool_or(type = 'click' AND NOT machine), false) AS "humanClick",
           coalesce(bool_or(type = 'click' AND machine), false) AS "botClick"
    FROM ${emailEvents} WHERE send_id = ${send.id} AND type IN ('open', 'click') AND campaign_id = ${send.campaignId}`);
  return result.rows[0] as SendEngagement;
}

/**
 * Whether the send has an open of this kind (human or machine) within the last `withinMinutes`
 * minutes (by the database's clock, which stamps events).
 */
export async function hasRecentOpen(
  db: DbOrTx,
  send: SendRow,
  withinMinutes: number,
  machine: boolean,
): Promise<boolean> {
  const [row] = await db
    .select({ id: emailEvents.id })
    .from(emailEvents)
    .where(
      and(
        eq(emailEvents.sendId, send.id),
        eq(emailEvents.type, 'open'),
        eq(emailEvents.campaignId, send.campaignId),
        eq(emailEvents.machine, machine),
        sql`${emailEvents.createdAt} > now() - make_interval(mins => ${withinMinutes})`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Marks the send's human clicks on other links within the last `withinSeconds` seconds as a bot's
 * (a scanner following every link); answers how many there were.
 */
export async function flagClickBurst(
  db: DbOrTx,
  send: SendRow,
  linkId: number,
  withinSeconds: number,
): Promise<number> {
  const flagged = await db.execute(sql`
    WITH burst AS (
      SELECT id FROM ${emailEvents}
      WHERE send_id = ${send.id} AND type = 'click' AND campaign_id = ${send.campaignId}
        AND link_id IS DISTINCT FROM ${linkId} AND created_at > now() - make_interval(secs => ${withinSeconds})
    )
    UPDATE ${emailEvents} SET machine = true WHERE id IN (SELECT id FROM burst) RETURNING id`);
  return flagged.rows.length;
}

/** Appends an event of a send (open, click, unsubscribe) to the event log. */
export async function insertSendEvent(
  db: DbOrTx,
  send: SendRow,
  type: EngagementType | 'unsubscribe',
  linkId: number | null = null,
  machine = false,
): Promise<void> {
  await db.insert(emailEvents).values({
    userId: send.userId,
    campaignId: send.campaignId,
    sendId: send.id,
    contactId: send.contactId,
    type,
    linkId,
    machine,
  });
}

/** Moves the campaign's derived counters by these amounts (each -1, 0 or 1 per event). */
export async function adjustCampaignTotals(
  db: DbOrTx,
  campaignId: number,
  by: { opens: number; machineOpens: number; clicks: number; botClicks: number },
): Promise<void> {
  await db.execute(sql`UPDATE ${campaigns}
    SET total_opens = total_opens + ${by.opens}, machine_opens = machine_opens + ${by.machineOpens},
        total_clicks = total_clicks + ${by.clicks}, bot_clicks = bot_clicks + ${by.botClicks}
    WHERE id = ${campaignId}`);
}

/**
 * Moves the contact's opened and clicked emails by these amounts; a rise marks them active now.
 * Their score is recomputed.
 */
export async function adjustContactEngagement(
  db: DbOrTx,
  contactId: number,
  by: { opened: number; clicked: number },
): Promise<void> {
  const active = by.opened > 0 || by.clicked > 0 ? sql`, last_activity_at = now()` : sql``;
  await db.execute(sql`UPDATE ${contacts}
    SET total_emails_opened = greatest(0, total_emails_opened + ${by.opened}),
        total_emails_clicked = greatest(0, total_emails_clicked + ${by.clicked})${active}
    WHERE id = ${contactId}`);
  await db.execute(sql`UPDATE ${contacts} SET engagement_score = ${sql.raw(ENGAGEMENT_SQL)} WHERE id = ${contactId}`);
}

/** Adds one to the contact's opened or clicked emails, marks them active now and recomputes their score. */
export async function incrementContactEngagement(db: DbOrTx, contactId: number, type: EngagementType): Promise<void> {
  await adjustContactEngagement(db, contactId, { opened: type === 'open' ? 1 : 0, clicked: type === 'click' ? 1 : 0 });
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

/** The lists of the owner's that a contact belongs to, by name (the preferences page). */
export async function listsOfContact(
  db: DbOrTx,
  userId: string,
  contactId: number,
): Promise<{ id: number; name: string }[]> {
  return db
    .select({ id: contactLists.id, name: contactLists.name })
    .from(contactListMembers)
    .innerJoin(contactLists, eq(contactLists.id, contactListMembers.listId))
    .where(and(eq(contactListMembers.contactId, contactId), eq(contactLists.userId, userId)))
    .orderBy(asc(contactLists.name));
}

/** Takes one contact out of one of the owner's lists, keeping the list's count exact; true when it was in it. */
export async function leaveList(db: DbOrTx, userId: string, listId: number, contactId: number): Promise<boolean> {
  const result = await db.execute(sql`
    WITH removed AS (
      DELETE FROM ${contactListMembers} m USING ${contacts} c
      WHERE m.list_id = ${listId} AND m.contact_id = c.id AND c.user_id = ${userId} AND c.id = ${contactId}
      RETURNING 1
    )
    UPDATE ${contactLists} SET subscriber_count = subscriber_count - (SELECT count(*)::int FROM removed)
    WHERE id = ${listId} AND user_id = ${userId}
    RETURNING (SELECT count(*)::int FROM removed) AS n`);
  return Number((result.rows[0] as { n?: number } | undefined)?.n ?? 0) > 0;
}

/** A sequence send as the tracking routes see it: whose mail it is, to whom, and from which sender. */
export type SequenceSendRow = {
  id: number;
  userId: string;
  sequenceId: number;
  contactId: number | null;
  email: string;
  status: string;
  fromName: string | null;
  fromEmail: string | null;
  sentAt: Date | null;
};

const sequenceSendColumns = {
  id: sequenceSends.id,
  userId: sequenceSends.userId,
  sequenceId: sequenceSends.sequenceId,
  contactId: sequenceSends.contactId,
  email: sequenceSends.email,
  status: sequenceSends.status,
  fromName: emailSequences.fromName,
  fromEmail: emailSequences.fromEmail,
  sentAt: sequenceSends.sentAt,
};

/**
 * One sequence send (one email step to one contact) with its sequence's sender (a sequence without
 * a from address sends from the account's own, as sequence-batch.ts does).
 */
export async function findSequenceSend(db: DbOrTx, sequenceSendId: number): Promise<SequenceSendRow | undefined> {
  const [row] = await db
    .select({
      ...sequenceSendColumns,
      fromEmail: sql<string | null>`coalesce(${emailSequences.fromEmail}, ${users.email})`,
    })
    .from(sequenceSends)
    .innerJoin(emailSequences, eq(emailSequences.id, sequenceSends.sequenceId))
    .leftJoin(users, eq(users.id, sequenceSends.userId))
    .where(eq(sequenceSends.id, sequenceSendId))
    .limit(1);
  return row;
}

/**
 * The sequence send, its row locked until the transaction ends (opens and clicks of one message are
 * counted one after the other, as for campaign sends). Only a message that went out: undefined otherwise.
 */
export async function lockSentSequenceSend(db: DbOrTx, sequenceSendId: number): Promise<SequenceSendRow | undefined> {
  const [row] = await db
    .select(sequenceSendColumns)
    .from(sequenceSends)
    .innerJoin(emailSequences, eq(emailSequences.id, sequenceSends.sequenceId))
    .where(and(eq(sequenceSends.id, sequenceSendId), eq(sequenceSends.status, 'sent')))
    .limit(1)
    .for('update', { of: sequenceSends });
  return row;
}

/** Whether the sequence send already has a reader's (not a machine's) event of this type (on the sequence_send_id index). */
export async function hasSequenceEvent(db: DbOrTx, sequenceSendId: number, type: EngagementType): Promise<boolean> {
  const [row] = await db
    .select({ id: emailEvents.id })
    .from(emailEvents)
    .where(
      and(eq(emailEvents.sequenceSendId, sequenceSendId), eq(emailEvents.type, type), eq(emailEvents.machine, false)),
    )
    .limit(1);
  return row !== undefined;
}

/** Whether the sequence send has an open of this kind within the last `withinMinutes` minutes (see hasRecentOpen). */
export async function hasRecentSequenceOpen(
  db: DbOrTx,
  sequenceSendId: number,
  withinMinutes: number,
  machine: boolean,
): Promise<boolean> {
  const [row] = await db
    .select({ id: emailEvents.id })
    .from(emailEvents)
    .where(
      and(
        eq(emailEvents.sequenceSendId, sequenceSendId),
        eq(emailEvents.type, 'open'),
        eq(emailEvents.machine, machine),
        sql`${emailEvents.createdAt} > now() - make_interval(mins => ${withinMinutes})`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Appends an event of a sequence send (open, click, unsubscribe) to the event log; campaign_id and send_id stay null. */
export async function insertSequenceEvent(
  db: DbOrTx,
  send: Pick<SequenceSendRow, 'id' | 'userId' | 'sequenceId' | 'contactId'>,
  type: EngagementType | 'unsubscribe',
  detail: string | null = null,
  machine = false,
): Promise<void> {
  await db.insert(emailEvents).values({
    userId: send.userId,
    sequenceId: send.sequenceId,
    sequenceSendId: send.id,
    contactId: send.contactId,
    type,
    detail,
    machine,
  });
}

/** A sequence email's first open or click time (the condition steps read opened_at / clicked_at). */
export async function markSequenceEngaged(db: DbOrTx, sequenceSendId: number, type: EngagementType): Promise<void> {
  await db
    .update(sequenceSends)
    .set(
      type === 'open'
        ? { openedAt: sql`coalesce(${sequenceSends.openedAt}, now())` }
        : { clickedAt: sql`coalesce(${sequenceSends.clickedAt}, now())` },
    )
    .where(eq(sequenceSends.id, sequenceSendId));
}

/**
 * The email step a sent sequence email was made from: its node id and the sequence's flows that may
 * hold it (the published one first, then older versions, newest first). Undefined when the send is
 * unknown or did not go out.
 */
export async function sequenceSendFlows(
  db: DbOrTx,
  sequenceSendId: number,
): Promise<{ nodeId: string; flows: (typeof emailSequences.$inferSelect)['flowData'][] } | undefined> {
  const [send] = await db
    .select({ nodeId: sequenceSends.nodeId, sequenceId: sequenceSends.sequenceId, flowData: emailSequences.flowData })
    .from(sequenceSends)
    .innerJoin(emailSequences, eq(emailSequences.id, sequenceSends.sequenceId))
    .where(and(eq(sequenceSends.id, sequenceSendId), eq(sequenceSends.status, 'sent')))
    .limit(1);
  if (!send) return undefined;
  const versions = await db
    .select({ flowData: emailSequenceVersions.flowData })
    .from(emailSequenceVersions)
    .where(eq(emailSequenceVersions.sequenceId, send.sequenceId))
    .orderBy(desc(emailSequenceVersions.version));
  return { nodeId: send.nodeId, flows: [send.flowData, ...versions.map((v) => v.flowData)] };
}
