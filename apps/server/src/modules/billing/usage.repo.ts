import { and, count, eq, gte, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import {
  aliasForwards,
  campaignSends,
  campaignTestSends,
  contactCounts,
  domains,
  sequenceSends,
  srsReturnPaths,
  users,
} from '../../db/schema/index.ts';

// What an account uses of its plan, counted where the plan's limits are (reads the tables of the
// modules that send, hold contacts and hold domains; they write them).

/** A message that left and bounced later (a DSN) was sent all the same; one refused in the SMTP conversation was not. */
const leftAndBounced = (sends: typeof campaignSends | typeof sequenceSends) =>
  and(eq(sends.status, 'bounced'), isNotNull(sends.sentAt));

/**
 * Emails the user has sent since the start of this calendar month (UTC): campaign messages, test
 * mails, sequence emails (those claimed for sending or sent: a sequence's queued steps wait for
 * the allowance, see sequences/sequence-batch.ts) and forwards.
 */
export async function sentThisMonth(db: DbOrTx, userId: string): Promise<number> {
  const now = new Date();
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const [row] = await db
    .select({ n: count() })
    .from(campaignSends)
    .where(
      and(
        eq(campaignSends.userId, userId),
        // Queued mail counts from the moment its send starts, so two sends cannot both claim the same allowance.
        or(inArray(campaignSends.status, ['queued', 'sent', 'sending']), leftAndBounced(campaignSends)),
        gte(sql`coalesce(${campaignSends.sentAt}, ${campaignSends.createdAt})`, monthStart),
      ),
    );
  const [tests] = await db
    .select({ n: count() })
    .from(campaignTestSends)
    .where(and(eq(campaignTestSends.userId, userId), gte(campaignTestSends.sentAt, monthStart)));
  const [sequenceMail] = await db
    .select({ n: count() })
    .from(sequenceSends)
    .where(
      and(
        eq(sequenceSends.userId, userId),
        or(inArray(sequenceSends.status, ['sending', 'sent']), leftAndBounced(sequenceSends)),
        gte(sql`coalesce(${sequenceSends.sentAt}, ${sequenceSends.claimedAt}, ${sequenceSends.createdAt})`, monthStart),
      ),
    );
  // Forwarded mail goes out from the account's domain too, so it counts against the same allowance.
  const forwards = await forwardsCountedSince(db, userId, monthStart);
  return (row?.n ?? 0) + (tests?.n ?? 0) + (sequenceMail?.n ?? 0) + forwards;
}

/**
 * What leaves on behalf of an account's aliases and counts against its monthly emails since
 * `since`: forwards and auto-replies claimed for sending (they passed the allowance check) or
 * sent, and delivery reports relayed through its SRS return paths. Waiting and failed ones do not count.
 */
async function forwardsCountedSince(db: DbOrTx, userId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(aliasForwards)
    .where(
      and(
        eq(aliasForwards.userId, userId),
        inArray(aliasForwards.status, ['sending', 'sent']),
        gte(sql`coalesce(${aliasForwards.sentAt}, ${aliasForwards.claimedAt})`, since),
      ),
    );
  const [relays] = await db
    .select({ n: count() })
    .from(srsReturnPaths)
    .where(and(eq(srsReturnPaths.userId, userId), gte(srsReturnPaths.relayedAt, since)));
  return (row?.n ?? 0) + (relays?.n ?? 0);
}

/** Locks the account's row: sends of one account are counted against its plan one at a time. */
export async function lockAccount(tx: DbOrTx, userId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

/** How many contacts (subscribers) the account has. */
export async function subscriberCount(db: DbOrTx, userId: string): Promise<number> {
  // contact_counts is kept exact by triggers in the writing transaction, so it is one row read.
  const [row] = await db.select({ n: contactCounts.total }).from(contactCounts).where(eq(contactCounts.userId, userId));
  return row?.n ?? 0;
}

/** How many sending domains the account has. */
export async function domainCount(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(domains).where(eq(domains.userId, userId));
  return row?.n ?? 0;
}
