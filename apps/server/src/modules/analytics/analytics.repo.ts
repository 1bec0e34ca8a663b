import { and, count, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { campaigns, contacts } from '../../db/schema/index.ts';

export async function countActiveContacts(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(contacts)
    .where(and(eq(contacts.userId, userId), eq(contacts.isActive, true)));
  return row?.n ?? 0;
}

/** Sums over the user's sent campaigns, the basis of the average rates. */
export async function sumSentCampaignTotals(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({
      sent: sql<number>`coalesce(sum(${campaigns.totalSent}), 0)`.mapWith(Number),
      opens: sql<number>`coalesce(sum(${campaigns.totalOpens}), 0)`.mapWith(Number),
      clicks: sql<number>`coalesce(sum(${campaigns.totalClicks}), 0)`.mapWith(Number),
    })
    .from(campaigns)
    .where(and(eq(campaigns.userId, userId), eq(campaigns.status, 'sent')));
  return row ?? { sent: 0, opens: 0, clicks: 0 };
}
