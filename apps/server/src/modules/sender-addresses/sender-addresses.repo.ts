import { and, asc, count, eq, gte, isNotNull, isNull, lt, max } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { senderAddresses, senderConfirmationMails, users } from '../../db/schema/index.ts';

export type SenderAddressRow = typeof senderAddresses.$inferSelect;

/** The account's sender addresses in the order they were added. */
export async function listAddresses(db: DbOrTx, userId: string): Promise<SenderAddressRow[]> {
  return db
    .select()
    .from(senderAddresses)
    .where(eq(senderAddresses.userId, userId))
    .orderBy(asc(senderAddresses.createdAt), asc(senderAddresses.id));
}

/** The account's confirmed sender addresses. */
export async function confirmedEmails(db: DbOrTx, userId: string): Promise<string[]> {
  const rows = await db
    .select({ email: senderAddresses.email })
    .from(senderAddresses)
    .where(and(eq(senderAddresses.userId, userId), isNotNull(senderAddresses.confirmedAt)));
  return rows.map((row) => row.email);
}

export async function findAddress(db: DbOrTx, userId: string, id: number): Promise<SenderAddressRow | undefined> {
  const [row] = await db
    .select()
    .from(senderAddresses)
    .where(and(eq(senderAddresses.userId, userId), eq(senderAddresses.id, id)))
    .limit(1);
  return row;
}

/** A sender address by id alone: a confirmation link names it, and the owner is checked after. */
export async function findAddressById(db: DbOrTx, id: number): Promise<SenderAddressRow | undefined> {
  const [row] = await db.select().from(senderAddresses).where(eq(senderAddresses.id, id)).limit(1);
  return row;
}

export async function findAddressByEmail(
  db: DbOrTx,
  userId: string,
  email: string,
): Promise<SenderAddressRow | undefined> {
  const [row] = await db
    .select()
    .from(senderAddresses)
    .where(and(eq(senderAddresses.userId, userId), eq(senderAddresses.email, email)))
    .limit(1);
  return row;
}

export async function countAddresses(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(senderAddresses).where(eq(senderAddresses.userId, userId));
  return row?.n ?? 0;
}

export async function insertAddress(db: DbOrTx, userId: string, email: string): Promise<SenderAddressRow> {
  const [row] = await db.insert(senderAddresses).values({ userId, email }).returning();
  if (!row) throw new Error('sender address insert returned nothing');
  return row;
}

export async function deleteAddress(db: DbOrTx, userId: string, id: number): Promise<SenderAddressRow | undefined> {
  const [row] = await db
    .delete(senderAddresses)
    .where(and(eq(senderAddresses.userId, userId), eq(senderAddresses.id, id)))
    .returning();
  return row;
}

export async function setConfirmationSentAt(db: DbOrTx, id: number, at: Date): Promise<SenderAddressRow | undefined> {
  const [row] = await db
    .update(senderAddresses)
    .set({ confirmationSentAt: at })
    .where(eq(senderAddresses.id, id))
    .returning();
  return row;
}

/** Marks the address confirmed (once: a later call keeps the first time). */
export async function markConfirmed(db: DbOrTx, id: number, at: Date): Promise<void> {
  await db
    .update(senderAddresses)
    .set({ confirmedAt: at })
    .where(and(eq(senderAddresses.id, id), isNull(senderAddresses.confirmedAt)));
}

/** Locks the account's row: confirmation mails are counted and logged one request at a time per account. */
export async function lockAccount(tx: DbOrTx, userId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

/** How many confirmation mails the account sent since `since`, and when the last one to `email` went. */
export async function confirmationMailsSince(
  db: DbOrTx,
  userId: string,
  email: string,
  since: Date,
): Promise<{ count: number; oldest: Date | null; lastToEmail: Date | null }> {
  const [all] = await db
    .select({ n: count() })
    .from(senderConfirmationMails)
    .where(and(eq(senderConfirmationMails.userId, userId), gte(senderConfirmationMails.sentAt, since)));
  const [oldestRow] = await db
    .select({ at: senderConfirmationMails.sentAt })
    .from(senderConfirmationMails)
    .where(and(eq(senderConfirmationMails.userId, userId), gte(senderConfirmationMails.sentAt, since)))
    .orderBy(asc(senderConfirmationMails.sentAt))
    .limit(1);
  const [toEmail] = await db
    .select({ last: max(senderConfirmationMails.sentAt) })
    .from(senderConfirmationMails)
    .where(and(eq(senderConfirmationMails.userId, userId), eq(senderConfirmationMails.email, email)));
  return { count: all?.n ?? 0, oldest: oldestRow?.at ?? null, lastToEmail: toEmail?.last ?? null };
}

/** Logs a confirmation mail, and forgets the account's mails older than `forgetBefore` (the log is only for limits). */
export async function logConfirmationMail(
  db: DbOrTx,
  userId: string,
  email: string,
  at: Date,
  forgetBefore: Date,
): Promise<void> {
  await db
    .delete(senderConfirmationMails)
    .where(and(eq(senderConfirmationMails.userId, userId), lt(senderConfirmationMails.sentAt, forgetBefore)));
  await db.insert(senderConfirmationMails).values({ userId, email, sentAt: at });
}
