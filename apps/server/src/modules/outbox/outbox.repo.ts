import { and, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { campaigns, emailSequences, outboxMessages } from '../../db/schema/index.ts';

type OutboxRow = typeof outboxMessages.$inferSelect;
/** A stored message with the name of the campaign or sequence that sent it (null when none or deleted). */
export type OutboxRowWithSender = OutboxRow & { campaignName: string | null; sequenceName: string | null };

/** Escapes LIKE wildcards so a search for "50%" means the characters, not a pattern. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function outboxWhere(userId: string, search: string | undefined): SQL {
  const mine = eq(outboxMessages.userId, userId);
  if (!search) return mine;
  const pattern = likePattern(search);
  return and(
    mine,
    or(
      ilike(outboxMessages.fromAddress, pattern),
      ilike(outboxMessages.toAddress, pattern),
      ilike(outboxMessages.subject, pattern),
    ),
  ) as SQL;
}

// The joins also check the owner, so a row can never show another user's campaign or sequence name.
const campaignOfRow = and(eq(campaigns.id, outboxMessages.campaignId), eq(campaigns.userId, outboxMessages.userId));
const sequenceOfRow = and(
  eq(emailSequences.id, outboxMessages.sequenceId),
  eq(emailSequences.userId, outboxMessages.userId),
);
const rowWithSender = { row: outboxMessages, campaignName: campaigns.name, sequenceName: emailSequences.name };

/** One page of the user's stored messages, newest first, and how many match the search. */
export async function listOutboxMessages(
  db: DbOrTx,
  userId: string,
  filter: { search?: string; offset: number; limit: number },
): Promise<{ rows: OutboxRowWithSender[]; total: number }> {
  const where = outboxWhere(userId, filter.search);
  const [rows, [counted]] = await Promise.all([
    db
      .select(rowWithSender)
      .from(outboxMessages)
      .leftJoin(campaigns, campaignOfRow)
      .leftJoin(emailSequences, sequenceOfRow)
      .where(where)
      .orderBy(desc(outboxMessages.createdAt), desc(outboxMessages.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ n: count() }).from(outboxMessages).where(where),
  ]);
  return {
    rows: rows.map(({ row, campaignName, sequenceName }) => ({ ...row, campaignName, sequenceName })),
    total: counted?.n ?? 0,
  };
}

/** One of the user's stored messages; undefined when it does not exist or is someone else's. */
export async function findOutboxMessage(
  db: DbOrTx,
  userId: string,
  id: number,
): Promise<OutboxRowWithSender | undefined> {
  const [found] = await db
    .select(rowWithSender)
    .from(outboxMessages)
    .leftJoin(campaigns, campaignOfRow)
    .leftJoin(emailSequences, sequenceOfRow)
    .where(and(eq(outboxMessages.userId, userId), eq(outboxMessages.id, id)))
    .limit(1);
  return found ? { ...found.row, campaignName: found.campaignName, sequenceName: found.sequenceName } : undefined;
}
/** Stores a message the built-in catcher received (no SMTP_URL). */
export async function insertOutboxMessage(
  db: DbOrTx,
  message: {
    userId: string;
    campaignId: number | null;
    sequence?: { id: number; step: string } | null;
    messageId: string;
    from: string;
    to: string;
    subject: string;
    raw: Buffer;
    isTest: boolean;
  },
): Promise<void> {
  await db.insert(outboxMessages).values({
    userId: message.userId,
    campaignId: message.campaignId,
    sequenceId: message.sequence?.id ?? null,
    sequenceStep: message.sequence?.step ?? null,
    messageId: message.messageId,
    fromAddress: message.from,
    toAddress: message.to,
    subject: message.subject,
    raw: message.raw.toString('utf8'),
    isTest: message.isTest ? 1 : 0,
  });
}
