import { and, eq, isNull, or, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { stripeEvents, users } from '../../db/schema/index.ts';

export type BillingRow = Pick<
  typeof users.$inferSelect,
  | 'id'
  | 'email'
  | 'plan'
  | 'subscriptionStatus'
  | 'trialEndsAt'
  | 'stripeCustomerId'
  | 'stripeSubscriptionId'
  | 'billingSyncedAt'
  | 'stripeTrialUsed'
  | 'pastDueSince'
>;

const billingColumns = {
  id: users.id,
  email: users.email,
  plan: users.plan,
  subscriptionStatus: users.subscriptionStatus,
  trialEndsAt: users.trialEndsAt,
  stripeCustomerId: users.stripeCustomerId,
  stripeSubscriptionId: users.stripeSubscriptionId,
  billingSyncedAt: users.billingSyncedAt,
  stripeTrialUsed: users.stripeTrialUsed,
  pastDueSince: users.pastDueSince,
};

export async function findBilling(db: DbOrTx, userId: string): Promise<BillingRow | undefined> {
  const [row] = await db.select(billingColumns).from(users).where(eq(users.id, userId)).limit(1);
  return row;
}

/** The account of a Stripe customer, its row locked until the transaction ends. */
export async function lockBillingByCustomer(tx: DbOrTx, customerId: string): Promise<BillingRow | undefined> {
  const [row] = await tx.select(billingColumns).from(users).where(eq(users.stripeCustomerId, customerId)).for('update');
  return row;
}

/** Stores the account's Stripe customer unless it has one already; answers the one it keeps. */
export async function keepCustomerId(db: DbOrTx, userId: string, customerId: string): Promise<string | undefined> {
  await db
    .update(users)
    .set({ stripeCustomerId: customerId })
    .where(and(eq(users.id, userId), isNull(users.stripeCustomerId)));
  return (await findBilling(db, userId))?.stripeCustomerId ?? undefined;
}

export type BillingUpdate = {
  plan?: string;
  subscriptionStatus: string;
  trialEndsAt: Date | null;
  stripeSubscriptionId: string;
  stripeTrialUsed: boolean;
  pastDueSince: Date | null;
  billingSyncedAt: Date;
};

/** Applies a reading of the subscription unless a newer reading was applied already. */
export async function applyBilling(tx: DbOrTx, userId: string, update: BillingUpdate): Promise<boolean> {
  const rows = await tx
    .update(users)
    .set({ ...update, updatedAt: new Date() })
    .where(
      and(eq(users.id, userId), or(isNull(users.billingSyncedAt), lt(users.billingSyncedAt, update.billingSyncedAt))),
    )
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Records a webhook event as applied; false when it was applied before (a repeat). */
export async function recordStripeEvent(tx: DbOrTx, id: string, type: string): Promise<boolean> {
  const rows = await tx
    .insert(stripeEvents)
    .values({ id, type })
    .onConflictDoNothing()
    .returning({ id: stripeEvents.id });
  return rows.length > 0;
}
