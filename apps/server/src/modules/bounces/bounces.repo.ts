import { and, asc, count, desc, eq, gte, inArray, like, lt, not, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import {
  bounceMailboxStatus,
  bounceProviderSecrets,
  bounceSettings,
  campaigns,
  campaignSends,
  contacts,
  emailEvents,
  sequenceSends,
  webhookReplayTokens,
} from '../../db/schema/index.ts';

export type SendRow = typeof campaignSends.$inferSelect;
export type CampaignRow = typeof campaigns.$inferSelect;
type NewEmailEvent = typeof emailEvents.$inferInsert;

/** A send row by its id (what a VERP return path names). */
export async function findSendById(db: DbOrTx, sendId: number): Promise<SendRow | undefined> {
  const [send] = await db.select().from(campaignSends).where(eq(campaignSends.id, sendId)).limit(1);
  return send;
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

/**
 * A message that may bounce: a campaign send or a sequence send, with what bounce handling needs of
 * either (whose it is, to whom, which campaign or sequence it belongs to).
 */
export type BouncedMail = {
  ledger: 'campaign' | 'sequence';
  id: number;
  userId: string;
  email: string;
  contactId: number | null;
  campaignId: number | null;
  sequenceId: number | null;
};

const sequenceMailColumns = {
  id: sequenceSends.id,
  userId: sequenceSends.userId,
  email: sequenceSends.email,
  contactId: sequenceSends.contactId,
  sequenceId: sequenceSends.sequenceId,
};
const asSequenceMail = (row: Omit<BouncedMail, 'ledger' | 'campaignId'>): BouncedMail => ({
  ...row,
  ledger: 'sequence',
  campaignId: null,
});

/** A sequence send row by its id (what a sequence send's VERP return path names). */
export async function findSequenceSendById(db: DbOrTx, id: number): Promise<BouncedMail | undefined> {
  const [row] = await db.select(sequenceMailColumns).from(sequenceSends).where(eq(sequenceSends.id, id)).limit(1);
  return row && asSequenceMail(row);
}

/** The account's sent sequence email with this Message-ID (on the (user_id, message_id) index). */
export async function findSequenceSendByMessageId(
  db: DbOrTx,
  userId: string,
  messageId: string,
): Promise<BouncedMail | undefined> {
  const [row] = await db
    .select(sequenceMailColumns)
    .from(sequenceSends)
    .where(and(eq(sequenceSends.userId, userId), eq(sequenceSends.messageId, messageId)))
    .limit(1);
  return row && asSequenceMail(row);
}

export async function insertEmailEvent(db: DbOrTx, values: NewEmailEvent): Promise<void> {
  await db.insert(emailEvents).values(values);
}

/** A hard-bounced send, campaign or sequence alike: 'bounced', with why in its error. */
export async function markSendBounced(
  db: DbOrTx,
  send: Pick<BouncedMail, 'ledger' | 'id'>,
  error: string | null,
): Promise<void> {
  const table = send.ledger === 'campaign' ? campaignSends : sequenceSends;
  await db.update(table).set({ status: 'bounced', error }).where(eq(table.id, send.id));
}

/** The account's soft bounces for this address since a moment (soft bounce events carry a 'soft:' detail), campaign and sequence mail alike. */
export async function softBouncesSince(db: DbOrTx, userId: string, email: string, since: Date): Promise<number> {
  const softSince = and(
    eq(emailEvents.userId, userId),
    eq(emailEvents.type, 'bounce'),
    like(emailEvents.detail, 'soft:%'),
    gte(emailEvents.createdAt, since),
  );
  const [row] = await db
    .select({ n: count() })
    .from(emailEvents)
    .innerJoin(campaignSends, eq(campaignSends.id, emailEvents.sendId))
    .where(and(softSince, eq(campaignSends.userId, userId), eq(campaignSends.email, email)));
  const [sequenceRow] = await db
    .select({ n: count() })
    .from(emailEvents)
    .innerJoin(sequenceSends, eq(sequenceSends.id, emailEvents.sequenceSendId))
    .where(and(softSince, eq(sequenceSends.userId, userId), eq(sequenceSends.email, email)));
  return (row?.n ?? 0) + (sequenceRow?.n ?? 0);
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

/**
 * Of the campaign's first `window` messages out (in send order; a row rejected in the SMTP
 * conversation counts as one out), how many there are and how many hard-bounced (status 'bounced').
 */
export async function earlyHardBounces(
  db: DbOrTx,
  campaignId: number,
  window: number,
): Promise<{ sent: number; hardBounced: number }> {
  const first = db
    .select({ status: campaignSends.status })
    .from(campaignSends)
    .where(and(eq(campaignSends.campaignId, campaignId), inArray(campaignSends.status, ['sent', 'bounced'])))
    .orderBy(asc(campaignSends.id))
    .limit(window)
    .as('first_sends');
  const [row] = await db
    .select({
      sent: count(),
      hardBounced: sql<number>`count(*) filter (where ${first.status} = 'bounced')`.mapWith(Number),
    })
    .from(first);
  return { sent: row?.sent ?? 0, hardBounced: row?.hardBounced ?? 0 };
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

export type BounceSettingsRow = typeof bounceSettings.$inferSelect;

/** The account's stored bounce settings, if it saved any. */
export async function findBounceSettings(db: DbOrTx, userId: string): Promise<BounceSettingsRow | undefined> {
  const [row] = await db.select().from(bounceSettings).where(eq(bounceSettings.userId, userId)).limit(1);
  return row;
}

export async function saveBounceSettings(
  db: DbOrTx,
  userId: string,
  values: Omit<typeof bounceSettings.$inferInsert, 'userId' | 'updatedAt'>,
): Promise<void> {
  await db
    .insert(bounceSettings)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: bounceSettings.userId, set: { ...values, updatedAt: new Date() } });
}

/** The account's latest send to this address: what a provider event that names only the recipient is about. */
export async function findLatestSendToEmail(db: DbOrTx, userId: string, email: string): Promise<SendRow | undefined> {
  const [send] = await db
    .select()
    .from(campaignSends)
    .where(and(eq(campaignSends.userId, userId), eq(campaignSends.email, email)))
    .orderBy(desc(campaignSends.id))
    .limit(1);
  return send;
}

/**
 * Whether this send already has an event of this kind: a bounce reported twice (a provider's retry, a
 * notice that came both by return path and by webhook) is counted once. Soft and hard bounces are
 * told apart, so a delay followed by the final failure still suppresses.
 */
export async function hasSendEvent(
  db: DbOrTx,
  send: Pick<BouncedMail, 'ledger' | 'id'>,
  type: 'bounce' | 'complaint',
  soft: boolean | null = null,
): Promise<boolean> {
  const ofSend = send.ledger === 'campaign' ? eq(emailEvents.sendId, send.id) : eq(emailEvents.sequenceSendId, send.id);
  const detail =
    soft === null ? undefined : soft ? like(emailEvents.detail, 'soft:%') : not(like(emailEvents.detail, 'soft:%'));
  const [row] = await db
    .select({ id: emailEvents.id })
    .from(emailEvents)
    .where(and(ofSend, eq(emailEvents.type, type), detail))
    .limit(1);
  return row !== undefined;
}

export type ProviderSecretRow = typeof bounceProviderSecrets.$inferSelect;

export async function findProviderSecrets(db: DbOrTx, userId: string): Promise<ProviderSecretRow[]> {
  return db.select().from(bounceProviderSecrets).where(eq(bounceProviderSecrets.userId, userId));
}

export async function findProviderSecret(
  db: DbOrTx,
  userId: string,
  provider: string,
): Promise<ProviderSecretRow | undefined> {
  const [row] = await db
    .select()
    .from(bounceProviderSecrets)
    .where(and(eq(bounceProviderSecrets.userId, userId), eq(bounceProviderSecrets.provider, provider)))
    .limit(1);
  return row;
}

export async function saveProviderSecret(
  db: DbOrTx,
  values: { userId: string; provider: string; secretSealed: string; hint: string },
): Promise<void> {
  await db
    .insert(bounceProviderSecrets)
    .values(values)
    .onConflictDoUpdate({
      target: [bounceProviderSecrets.userId, bounceProviderSecrets.provider],
      set: { secretSealed: values.secretSealed, hint: values.hint, updatedAt: new Date() },
    });
}

export async function deleteProviderSecret(db: DbOrTx, userId: string, provider: string): Promise<boolean> {
  const deleted = await db
    .delete(bounceProviderSecrets)
    .where(and(eq(bounceProviderSecrets.userId, userId), eq(bounceProviderSecrets.provider, provider)))
    .returning({ provider: bounceProviderSecrets.provider });
  return deleted.length > 0;
}

export async function recordMailboxPoll(
  db: DbOrTx,
  input: { mailbox: string; at: Date; error: string | null; processed: number },
): Promise<void> {
  await db
    .insert(bounceMailboxStatus)
    .values({
      mailbox: input.mailbox,
      lastPolledAt: input.at,
      lastSuccessAt: input.error ? null : input.at,
      error: input.error,
      processedCount: input.processed,
    })
    .onConflictDoUpdate({
      target: bounceMailboxStatus.mailbox,
      set: {
        lastPolledAt: input.at,
        error: input.error,
        processedCount: sql`${bounceMailboxStatus.processedCount} + ${input.processed}`,
        ...(input.error ? {} : { lastSuccessAt: input.at }),
      },
    });
}

export async function findMailboxStatus(
  db: DbOrTx,
  mailbox: string,
): Promise<typeof bounceMailboxStatus.$inferSelect | undefined> {
  const [row] = await db.select().from(bounceMailboxStatus).where(eq(bounceMailboxStatus.mailbox, mailbox)).limit(1);
  return row;
}

/**
 * Remembers a provider post's signature token until `expiresAt`: true when it is new, false when
 * it was seen already (a replay). Tokens past their time are dropped first.
 */
export async function rememberWebhookToken(
  db: DbOrTx,
  provider: string,
  token: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  await db.delete(webhookReplayTokens).where(lt(webhookReplayTokens.expiresAt, now));
  const rows = await db
    .insert(webhookReplayTokens)
    .values({ provider, token, expiresAt })
    .onConflictDoNothing()
    .returning({ token: webhookReplayTokens.token });
  return rows.length > 0;
}
