import { createHash } from 'node:crypto';
import { purchasablePlanIds, type PlanId, type SubscriptionStatus } from '@sendwell/contract/billing';
import type { StripeEventJob } from '@sendwell/contract/jobs';
import type { AppContext } from '../../context.ts';
import type { Config } from '../../config.ts';
import { AppError, ProviderError } from '../../lib/app-error.ts';
import { newToken } from '../../lib/tokens.ts';
import { planById } from './plan-catalogue.ts';
import { stripeFor, type Stripe } from './stripe-client.ts';
import * as repo from './subscriptions.repo.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Our own idempotency key for a creating Stripe call: the account, the operation and the request
 * (the client's Idempotency-Key header when it sends one), so the SDK's retries of one request
 * never create two objects, and two requests never share one.
 */
function idempotencyKey(userId: string, operation: string, requestKey: string): string {
  return createHash('sha256').update(`${userId}\n${operation}\n${requestKey}`).digest('hex');
}

/** The request part of an idempotency key: the client's Idempotency-Key header, else a fresh token. */
export function requestKeyOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && value.length <= 255 ? value : newToken(16);
}

async function stripeOrNotConfigured(config: Config, what: 'Stripe checkout' | 'Billing portal'): Promise<Stripe> {
  if (!config.billingEnabled) throw new ProviderError(`${what} not configured: billing is off on this server`);
  const stripe = await stripeFor(config);
  if (!stripe) throw new ProviderError(`${what} not configured`);
  return stripe;
}

/** The Stripe price of a plan, or null when the plan is not sold through Stripe here. */
function priceOf(config: Config, planId: PlanId): string | undefined {
  return planId === 'unlimited' ? undefined : config.stripe.prices[planId];
}

/** The plan a Stripe price id belongs to (STRIPE_PRICE_*). */
function planOfPrice(config: Config, priceId: string | undefined): PlanId | undefined {
  return purchasablePlanIds.find((id) => priceId !== undefined && config.stripe.prices[id] === priceId);
}

/** Stripe's subscription status as ours; null for states that change nothing (incomplete: first payment pending). */
function toSubscriptionStatus(status: Stripe.Subscription.Status): SubscriptionStatus | null {
  switch (status) {
    case 'trialing':
      return 'trialing';
    case 'active':
      return 'active';
    case 'past_due':
    case 'unpaid':
      return 'past_due';
    case 'canceled':
    case 'incomplete_expired':
    case 'paused':
      return 'canceled';
    default:
      return null;
  }
}

const LIVE_STATUSES: readonly string[] = ['trialing', 'active', 'past_due'];

/**
 * POST /api/payment/create-checkout: a first subscription goes through a Stripe Checkout Session
 * (subscription mode, the plan's price, the rest of the 14-day trial while the account never had a
 * Stripe trial) and answers its url; an account with a live subscription changes plan by a prorated
 * subscription update and is sent to the success page.
 */
export async function createCheckout(
  ctx: AppContext,
  userId: string,
  planId: PlanId,
  requestKey: string,
): Promise<{ url: string }> {
  const stripe = await stripeOrNotConfigured(ctx.config, 'Stripe checkout');
  if (planId === 'unlimited') {
    throw new AppError('bad_request', 'The Unlimited plan is granted, not bought: activate it at /unlimited-setup.');
  }
  const price = priceOf(ctx.config, planId);
  if (!price) throw new ProviderError(`Stripe checkout not configured: no price for the ${planById(planId).name} plan`);
  const account = await repo.findBilling(ctx.db, userId);
  if (!account) throw new AppError('not_found', 'Account not found');
  if (account.plan === 'unlimited') throw new AppError('conflict', 'Your account is on the Unlimited plan already.');

  if (
    account.stripeSubscriptionId &&
    account.subscriptionStatus &&
    LIVE_STATUSES.includes(account.subscriptionStatus)
  ) {
    const subscription = await stripe.subscriptions.retrieve(account.stripeSubscriptionId);
    if (LIVE_STATUSES.includes(subscription.status)) {
      await changeSubscriptionPlan(
        ctx,
        stripe,
        subscription,
        planId,
        price,
        idempotencyKey(userId, `update:${planId}`, requestKey),
      );
      return { url: `${ctx.config.publicUrl}/checkout/success` };
    }
  }

  const customer = await customerOf(ctx, stripe, account, requestKey);
  const trialDays = trialDaysLeft(account);
  const session = await stripe.checkout.sessions.create(
    {
      mode: 'subscription',
      customer,
      client_reference_id: userId,
      line_items: [{ price, quantity: 1 }],
      subscription_data: {
        metadata: { userId, planId },
        ...(trialDays > 0 ? { trial_period_days: trialDays } : {}),
      },
      metadata: { userId, planId },
      success_url: `${ctx.config.publicUrl}/checkout/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${ctx.config.publicUrl}/billing`,
    },
    { idempotencyKey: idempotencyKey(userId, `checkout:${planId}`, requestKey) },
  );
  if (!session.url) throw new ProviderError('Failed to create checkout session', 'unavailable');
  return { url: session.url };
}

/**
 * Days of trial a new subscription gets: what is left of the account's 14 days from sign-up, and
 * none once any Stripe subscription of it had a trial (the trial is given once).
 */
function trialDaysLeft(
  account: Pick<repo.BillingRow, 'stripeTrialUsed' | 'trialEndsAt'>,
  now: Date = new Date(),
): number {
  if (account.stripeTrialUsed || !account.trialEndsAt) return 0;
  return Math.max(0, Math.ceil((account.trialEndsAt.getTime() - now.getTime()) / DAY_MS));
}

/** The account's Stripe customer, created on first use (one per account, whichever request is first). */
async function customerOf(
  ctx: AppContext,
  stripe: Stripe,
  account: repo.BillingRow,
  requestKey: string,
): Promise<string> {
  if (account.stripeCustomerId) return account.stripeCustomerId;
  const customer = await stripe.customers.create(
    { email: account.email, metadata: { userId: account.id } },
    { idempotencyKey: idempotencyKey(account.id, 'customer', requestKey) },
  );
  // Two first checkouts at once: both create a customer, the first stored is kept and used by both.
  return (await repo.keepCustomerId(ctx.db, account.id, customer.id)) ?? customer.id;
}

/** Moves a live subscription to another plan's price, prorated, and applies the answer at once. */
async function changeSubscriptionPlan(
  ctx: AppContext,
  stripe: Stripe,
  subscription: Stripe.Subscription,
  planId: PlanId,
  price: string,
  key: string,
): Promise<void> {
  const item = subscription.items.data[0];
  if (!item) throw new ProviderError('The subscription has no item to change', 'unavailable');
  if (item.price.id === price) throw new AppError('conflict', `You are on the ${planById(planId).name} plan already.`);
  const readAt = new Date();
  const updated = await stripe.subscriptions.update(
    subscription.id,
    {
      items: [{ id: item.id, price }],
      proration_behavior: 'create_prorations',
      metadata: { ...subscription.metadata, planId },
    },
    { idempotencyKey: key },
  );
  await ctx.db.transaction((tx) => applySubscription(ctx.config, tx, updated, readAt));
}

/** POST /api/payment/billing-portal: a Stripe customer portal session of the account's customer. */
export async function openBillingPortal(ctx: AppContext, userId: string): Promise<{ url: string }> {
  const stripe = await stripeOrNotConfigured(ctx.config, 'Billing portal');
  const account = await repo.findBilling(ctx.db, userId);
  if (!account) throw new AppError('not_found', 'Account not found');
  if (!account.stripeCustomerId) {
    throw new AppError('bad_request', 'You have no billing account yet: choose a plan under Upgrade Plans first.');
  }
  const session = await stripe.billingPortal.sessions.create({
    customer: account.stripeCustomerId,
    return_url: `${ctx.config.publicUrl}/billing`,
  });
  return { url: session.url };
}

type Tx = Parameters<Parameters<AppContext['db']['transaction']>[0]>[0];

/**
 * Applies a reading of a subscription (taken at `readAt`) to its customer's account: plan (from
 * the price), status, trial end. Never moves backwards: a reading older than the last applied one
 * changes nothing, and a canceled other subscription does not replace the account's live one.
 */
async function applySubscription(
  config: Config,
  tx: Tx,
  subscription: Stripe.Subscription,
  readAt: Date,
): Promise<void> {
  const customerId = typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id;
  const account = await repo.lockBillingByCustomer(tx, customerId);
  if (!account || account.plan === 'unlimited') return;
  const status = toSubscriptionStatus(subscription.status);
  if (!status) return;
  if (account.stripeSubscriptionId && account.stripeSubscriptionId !== subscription.id && status === 'canceled') return;
  const plan =
    planOfPrice(config, subscription.items.data[0]?.price.id) ??
    purchasablePlanIds.find((id) => id === subscription.metadata['planId']) ??
    account.plan;
  await repo.applyBilling(tx, account.id, {
    plan,
    subscriptionStatus: status,
    trialEndsAt: status === 'trialing' && subscription.trial_end ? new Date(subscription.trial_end * 1000) : null,
    stripeSubscriptionId: subscription.id,
    stripeTrialUsed: account.stripeTrialUsed || subscription.trial_start !== null,
    pastDueSince: status === 'past_due' ? (account.pastDueSince ?? readAt) : null,
    billingSyncedAt: readAt,
  });
}

/** What the webhook route keeps of a verified event for the job: its id, type and subscription. */
export function stripeEventJobData(event: Stripe.Event): StripeEventJob {
  return { eventId: event.id, type: event.type, subscriptionId: subscriptionIdOf(event) };
}

/** The subscription an event is about, in each event shape we subscribe to. */
function subscriptionIdOf(event: Stripe.Event): string | null {
  const object = event.data.object as unknown as Record<string, unknown>;
  if (event.type.startsWith('customer.subscription.')) return typeof object['id'] === 'string' ? object['id'] : null;
  const direct = idOf(object['subscription']);
  if (direct) return direct;
  // Invoices of newer API versions name it under parent.subscription_details.
  const parent = object['parent'] as { subscription_details?: { subscription?: unknown } } | null | undefined;
  return idOf(parent?.subscription_details?.subscription);
}

function idOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string') {
    return (value as { id: string }).id;
  }
  return null;
}

/** The events that change an account; others are acknowledged and skipped. */
const HANDLED_STRIPE_EVENTS = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
] as const;

/**
 * The webhook job: reads the event's subscription as it is now at Stripe (events arrive late and
 * twice; the current state is the truth), then records the event id and applies the state in one
 * transaction, so a repeat of the event changes nothing.
 */
export async function handleStripeEvent(ctx: AppContext, job: StripeEventJob): Promise<void> {
  const stripe = await stripeFor(ctx.config);
  let subscription: Stripe.Subscription | null = null;
  const readAt = new Date();
  if (stripe && job.subscriptionId && (HANDLED_STRIPE_EVENTS as readonly string[]).includes(job.type)) {
    subscription = await stripe.subscriptions.retrieve(job.subscriptionId);
  }
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.recordStripeEvent(tx, job.eventId, job.type))) return;
    if (subscription) await applySubscription(ctx.config, tx, subscription, readAt);
  });
}
