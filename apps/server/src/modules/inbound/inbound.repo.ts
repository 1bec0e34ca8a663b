import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { inboundTokens } from '../../db/schema/index.ts';

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
