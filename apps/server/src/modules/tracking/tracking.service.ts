import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
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

type SendRow = typeof campaignSends.$inferSelect;

async function findSend(db: Db, sendId: number): Promise<SendRow | undefined> {
  const [row] = await db.select().from(campaignSends).where(eq(campaignSends.id, sendId)).limit(1);
  return row;
}

/**
 * Records an open or a click. The first one per recipient moves the campaign's unique total and
 * the contact's counters (and engagement score); repeats are stored as events only.
 */
async function recordEngagement(db: Db, send: SendRow, type: 'open' | 'click', linkId: number | null): Promise<void> {
  await db.transaction(async (tx) => {
    const [earlier] = await tx
      .select({ id: emailEvents.id })
      .from(emailEvents)
      .where(and(eq(emailEvents.sendId, send.id), eq(emailEvents.type, type)))
      .limit(1);
    await tx.insert(emailEvents).values({
      userId: send.userId,
      campaignId: send.campaignId,
      sendId: send.id,
      contactId: send.contactId,
      type,
      linkId,
    });
    if (earlier) return;
    const campaignColumn = type === 'open' ? sql`total_opens = total_opens + 1` : sql`total_clicks = total_clicks + 1`;
    await tx.execute(sql`UPDATE ${campaigns} SET ${campaignColumn} WHERE id = ${send.campaignId}`);
    if (send.contactId !== null) {
      const contactColumn =
        type === 'open'
          ? sql`total_emails_opened = total_emails_opened + 1`
          : sql`total_emails_clicked = total_emails_clicked + 1`;
      await tx.execute(
        sql`UPDATE ${contacts} SET ${contactColumn}, last_activity_at = now() WHERE id = ${send.contactId}`,
      );
      await tx.execute(
        sql`UPDATE ${contacts} SET engagement_score = ${sql.raw(ENGAGEMENT_SQL)} WHERE id = ${send.contactId}`,
      );
    }
  });
}

/** Open pixel: true when the token's send exists. */
export async function recordOpen(db: Db, sendId: number): Promise<boolean> {
  const send = await findSend(db, sendId);
  if (!send) return false;
  await recordEngagement(db, send, 'open', null);
  return true;
}

/** Click: the stored link's URL when the send and link belong together, else null (no open redirect). */
export async function recordClick(db: Db, sendId: number, linkId: number): Promise<string | null> {
  const send = await findSend(db, sendId);
  if (!send) return null;
  const [link] = await db
    .select()
    .from(campaignLinks)
    .where(and(eq(campaignLinks.id, linkId), eq(campaignLinks.campaignId, send.campaignId)))
    .limit(1);
  if (!link) return null;
  await recordEngagement(db, send, 'click', link.id);
  return link.url;
}

/**
 * Where a recipient stands with one sender: subscribed, unsubscribed by their own choice (which
 * they may undo), or stopped by the sender's system because mail bounced or was reported as spam
 * (which a link in an email cannot undo).
 */
export type SubscriptionStatus = 'subscribed' | 'unsubscribed' | 'bounced' | 'complained';

export type UnsubscribeView = {
  email: string;
  /** Who the mail is from: the sender's company, else the campaign's from name, else the account holder's name. */
  sender: string;
  /** The campaign's from address, so the recipient can tell which sender this is. */
  senderAddress: string | null;
  status: SubscriptionStatus;
};

function statusOf(reason: string | undefined): SubscriptionStatus {
  if (reason === undefined) return 'subscribed';
  if (reason === 'bounce') return 'bounced';
  if (reason === 'complaint') return 'complained';
  return 'unsubscribed';
}

/** What the unsubscribe and preferences pages show: whose list it is and where the address stands. */
export async function unsubscribeView(db: Db, sendId: number): Promise<UnsubscribeView | null> {
  const send = await findSend(db, sendId);
  if (!send) return null;
  const [sender] = await db
    .select({ company: users.company, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, send.userId))
    .limit(1);
  const [campaign] = await db
    .select({ fromName: campaigns.fromName, fromEmail: campaigns.fromEmail })
    .from(campaigns)
    .where(eq(campaigns.id, send.campaignId))
    .limit(1);
  const [suppressed] = await db
    .select({ reason: suppressions.reason })
    .from(suppressions)
    .where(and(eq(suppressions.userId, send.userId), eq(suppressions.email, send.email)))
    .limit(1);
  const accountName = `${sender?.firstName ?? ''} ${sender?.lastName ?? ''}`.trim();
  return {
    email: send.email,
    sender: sender?.company || campaign?.fromName || accountName || 'this sender',
    senderAddress: campaign?.fromEmail ?? null,
    status: statusOf(suppressed?.reason),
  };
}

/** Unsubscribes the recipient of a send at once; safe to repeat. */
export async function unsubscribe(db: Db, sendId: number): Promise<boolean> {
  const send = await findSend(db, sendId);
  if (!send) return false;
  await db.transaction(async (tx) => {
    const added = await tx
      .insert(suppressions)
      .values({ userId: send.userId, email: send.email, reason: 'unsubscribe' })
      .onConflictDoNothing()
      .returning();
    if (send.contactId !== null)
      await tx.update(contacts).set({ isActive: false, updatedAt: new Date() }).where(eq(contacts.id, send.contactId));
    if (added.length > 0) {
      await tx.insert(emailEvents).values({
        userId: send.userId,
        campaignId: send.campaignId,
        sendId: send.id,
        contactId: send.contactId,
        type: 'unsubscribe',
      });
    }
  });
  return true;
}

/**
 * Undoes the recipient's own unsubscribe: the suppression is removed and the contact is active
 * again. Safe to repeat ('subscribed' when there is nothing to undo). A bounce or spam complaint
 * is not the recipient's choice made here, so it stays ('blocked'). Null when the send is unknown.
 */
export async function resubscribe(db: Db, sendId: number): Promise<'resubscribed' | 'subscribed' | 'blocked' | null> {
  const send = await findSend(db, sendId);
  if (!send) return null;
  return db.transaction(async (tx) => {
    const [suppressed] = await tx
      .select({ reason: suppressions.reason })
      .from(suppressions)
      .where(and(eq(suppressions.userId, send.userId), eq(suppressions.email, send.email)))
      .for('update')
      .limit(1);
    if (suppressed && suppressed.reason !== 'unsubscribe') return 'blocked';
    // Nothing to undo: a contact the sender set inactive themselves stays as they left it.
    if (!suppressed) return 'subscribed';
    await tx
      .delete(suppressions)
      .where(
        and(
          eq(suppressions.userId, send.userId),
          eq(suppressions.email, send.email),
          eq(suppressions.reason, 'unsubscribe'),
        ),
      );
    if (send.contactId !== null) {
      await tx
        .update(contacts)
        .set({ isActive: true, updatedAt: new Date() })
        .where(and(eq(contacts.id, send.contactId), eq(contacts.userId, send.userId)));
    }
    return 'resubscribed';
  });
}
