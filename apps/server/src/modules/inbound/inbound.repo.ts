import { and, count, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { campaigns, campaignSends, contacts, emailEvents, inboundTokens, suppressions } from '../../db/schema/index.ts';

export type SendRow = typeof campaignSends.$inferSelect;
export type CampaignRow = typeof campaigns.$inferSelect;
type NewEmailEvent = typeof emailEvents.$inferInsert;

export type InboundTokenRow = typeof inboundTokens.$inferSelect;

/** The account whose inbound token has this SHA-256. */
export async function findInboundTokenOwner(db: DbOrTx, tokenHash: string): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: inboundTokens.userId })
    .from(inboundTokens)
    .where(eq(inboundTokens.tokenHash, tokenHash))
    .limit(1);
  return row?.userId;
}

export async function findInboundToken(db: DbOrTx, userId: string): Promise<InboundTokenRow | undefined> {
  const [row] = await db.select().from(inboundTokens).where(eq(inboundTokens.userId, userId)).limit(1);
  return row;
}

/** Stores the account's first token; answers undefined when it has one already (another request was first). */
export async function insertInboundToken(
  db: DbOrTx,
  values: { userId: string; tokenHash: string; tokenSealed: string },
): Promise<InboundTokenRow | undefined> {
  const [row] = await db.insert(inboundTokens).values(values).onConflictDoNothing().returning();
  return row;
}

/** Stores a new token for the account in place of any it had: the old one stops working at once. */
export async function replaceInboundToken(
  db: DbOrTx,
  values: { userId: string; tokenHash: string; tokenSealed: string },
): Promise<void> {
  await db
    .insert(inboundTokens)
    .values(values)
    .onConflictDoUpdate({
      target: inboundTokens.userId,
      set: { tokenHash: values.tokenHash, tokenSealed: values.tokenSealed, createdAt: new Date() },
    });
}

/** The account's sent message a report is about, by the Message-ID it went out with. */
export async function findSendByMessageId(db: DbOrTx, userId: string, messageId: string): Promise<SendRow | undefined> {
  const [send] = await db
    .select()
    .from(campaignSends)
    .where(and(eq(campaignSends.userId, userId), eq(campaignSends.messageId, messageId)))
    .limit(1);
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

/** Marks the account's contact unsubscribed. */
export async function deactivateContact(db: DbOrTx, userId: string, contactId: number): Promise<void> {
  await db
    .update(contacts)
    .set({ isActive: false, updatedAt: new Date() })
    .where(and(eq(contacts.userId, userId), eq(contacts.id, contactId)));
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

/** Pauses the account's campaign if it is sending; answers the paused campaign, or undefined if it was not sending. */
export async function pauseSendingCampaign(
  db: DbOrTx,
  userId: string,
  campaignId: number,
): Promise<CampaignRow | undefined> {
  const [paused] = await db
    .update(campaigns)
    .set({ status: 'paused', updatedAt: new Date() })
    .where(and(eq(campaigns.userId, userId), eq(campaigns.id, campaignId), eq(campaigns.status, 'sending')))
    .returning();
  return paused;
}
