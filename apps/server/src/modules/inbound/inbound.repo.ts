import { and, count, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { campaigns, campaignSends, contacts, emailEvents, suppressions } from '../../db/schema/index.ts';

export type SendRow = typeof campaignSends.$inferSelect;
export type CampaignRow = typeof campaigns.$inferSelect;
type NewEmailEvent = typeof emailEvents.$inferInsert;

/** The sent message a report is about, by the Message-ID it went out with. */
export async function findSendByMessageId(db: DbOrTx, messageId: string): Promise<SendRow | undefined> {
  const [send] = await db.select().from(campaignSends).where(eq(campaignSends.messageId, messageId)).limit(1);
  return send;
}

export async function insertEmailEvent(db: DbOrTx, values: NewEmailEvent): Promise<void> {
  await db.insert(emailEvents).values(values);
}

export async function markSendBounced(db: DbOrTx, sendId: number, error: string | null): Promise<void> {
  await db.update(campaignSends).set({ status: 'bounced', error }).where(eq(campaignSends.id, sendId));
}

/** Adds the address to the user's suppression list (already there: nothing changes). */
export async function suppressAddress(
  db: DbOrTx,
  userId: string,
  email: string,
  reason: 'bounce' | 'complaint',
): Promise<void> {
  await db.insert(suppressions).values({ userId, email, reason }).onConflictDoNothing();
}

/** Marks the contact unsubscribed. */
export async function deactivateContact(db: DbOrTx, contactId: number): Promise<void> {
  await db.update(contacts).set({ isActive: false, updatedAt: new Date() }).where(eq(contacts.id, contactId));
}

/** A campaign's complaints so far and the messages it has sent (bounced ones included). */
export async function complaintsAndSent(db: DbOrTx, campaignId: number): Promise<{ complaints: number; sent: number }> {
  const [complaints] = await db
    .select({ n: count() })
    .from(emailEvents)
    .where(and(eq(emailEvents.campaignId, campaignId), eq(emailEvents.type, 'complaint')));
  const [sent] = await db
    .select({ n: count() })
    .from(campaignSends)
    .where(and(eq(campaignSends.campaignId, campaignId), inArray(campaignSends.status, ['sent', 'bounced'])));
  return { complaints: complaints?.n ?? 0, sent: sent?.n ?? 0 };
}

/** Pauses the campaign if it is sending; answers the paused campaign, or undefined if it was not sending. */
export async function pauseSendingCampaign(db: DbOrTx, campaignId: number): Promise<CampaignRow | undefined> {
  const [paused] = await db
    .update(campaigns)
    .set({ status: 'paused', updatedAt: new Date() })
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.status, 'sending')))
    .returning();
  return paused;
}
