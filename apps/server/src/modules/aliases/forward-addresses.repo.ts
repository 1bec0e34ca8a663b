import { and, eq, inArray, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { forwardAddresses } from '../../db/schema/index.ts';

// The addresses an account forwards to, and their confirmation (forward_addresses).

export type ForwardAddressRow = typeof forwardAddresses.$inferSelect;

export async function forwardAddressesOf(db: DbOrTx, userId: string, emails: string[]): Promise<ForwardAddressRow[]> {
  if (emails.length === 0) return [];
  return db
    .select()
    .from(forwardAddresses)
    .where(and(eq(forwardAddresses.userId, userId), inArray(forwardAddresses.email, emails)));
}

/** The account's row for an address, made (unconfirmed) when it has none. */
export async function ensureForwardAddress(db: DbOrTx, userId: string, email: string): Promise<ForwardAddressRow> {
  await db.insert(forwardAddresses).values({ userId, email }).onConflictDoNothing();
  const [row] = await db
    .select()
    .from(forwardAddresses)
    .where(and(eq(forwardAddresses.userId, userId), eq(forwardAddresses.email, email)));
  if (!row) throw new Error('forward address vanished');
  return row;
}

export async function findForwardAddressById(db: DbOrTx, id: number): Promise<ForwardAddressRow | undefined> {
  const [row] = await db.select().from(forwardAddresses).where(eq(forwardAddresses.id, id)).limit(1);
  return row;
}

/**
 * Claims the next confirmation mail of a forwarding address: sets its time to `now` unless a mail
 * went after `notSentAfter` (one statement, so two requests at once mail once). Undefined when not.
 */
export async function claimForwardConfirmation(
  db: DbOrTx,
  id: number,
  now: Date,
  notSentAfter: Date,
): Promise<ForwardAddressRow | undefined> {
  const [row] = await db
    .update(forwardAddresses)
    .set({ confirmationSentAt: now })
    .where(
      and(
        eq(forwardAddresses.id, id),
        isNull(forwardAddresses.confirmedAt),
        or(isNull(forwardAddresses.confirmationSentAt), lte(forwardAddresses.confirmationSentAt, notSentAfter)),
      ),
    )
    .returning();
  return row;
}

/** Sets (or, with null, clears) when the address was last mailed its link. */
export async function setForwardConfirmationSent(db: DbOrTx, id: number, at: Date | null): Promise<void> {
  await db.update(forwardAddresses).set({ confirmationSentAt: at }).where(eq(forwardAddresses.id, id));
}

export async function markForwardAddressConfirmed(db: DbOrTx, id: number, at: Date): Promise<void> {
  await db.update(forwardAddresses).set({ confirmedAt: at }).where(eq(forwardAddresses.id, id));
}

/** The account's confirmed forward addresses among `emails`. */
export async function confirmedForwardEmails(db: DbOrTx, userId: string, emails: string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await db
    .select({ email: forwardAddresses.email })
    .from(forwardAddresses)
    .where(
      and(
        eq(forwardAddresses.userId, userId),
        inArray(forwardAddresses.email, emails),
        isNotNull(forwardAddresses.confirmedAt),
      ),
    );
  return new Set(rows.map((row) => row.email));
}
