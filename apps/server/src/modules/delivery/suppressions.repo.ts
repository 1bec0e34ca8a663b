import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { suppressions } from '../../db/schema/index.ts';

export async function isSuppressed(db: DbOrTx, userId: string, email: string): Promise<boolean> {
  const [row] = await db
    .select({ email: suppressions.email })
    .from(suppressions)
    .where(and(eq(suppressions.userId, userId), eq(suppressions.email, email.toLowerCase())))
    .limit(1);
  return row !== undefined;
}

export async function addSuppression(
  db: DbOrTx,
  userId: string,
  email: string,
  reason: 'bounce' | 'complaint' | 'unsubscribe',
): Promise<void> {
  await db.insert(suppressions).values({ userId, email: email.toLowerCase(), reason }).onConflictDoNothing();
}
