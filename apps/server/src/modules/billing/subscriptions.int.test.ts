import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { signUpUser, useTestApp, type TestApp } from '../../../test/build-app.ts';
import { signedStripeEvent, startFakeStripe, type FakeStripe } from '../../../test/fake-stripe.ts';
import { runStripeEventJobs } from '../../../test/stripe-jobs.ts';
import { stripeEvents, users } from '../../db/schema/index.ts';
import { handleStripeEvent } from './subscriptions.service.ts';

const WEBHOOK_SECRET = 'whsec_test_secret_for_sendwell';
const PRICES = { starter: 'price_starter_test', pro: 'price_pro_test', enterprise: 'price_enterprise_test' };

let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(async () => fake.close());

async function accountRow(t: TestApp, id: string) {
  const [row] = await t.ctx.db.select().from(users).where(eq(users.id, id));
  if (!row) throw new Error('no such user');
  return row;
}

/** Posts a signed webhook call and runs the job it queued. */
async function deliver(
  t: TestApp,
  event: { id: string; type: string; object: Record<string, unknown> },
  options: { timestamp?: number; tamper?: boolean } = {},
) {
  const { payload, signature } = signedStripeEvent(WEBHOOK_SECRET, event, options.timestamp);
  const response = await t.client().request({
    method: 'POST',
    url: '/api/webhook/stripe',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload: options.tamper ? payload.replace('"livemode":false', '"livemode":true') : payload,
  });
  await runStripeEventJobs(t);
  return response;
}

/** Signs up, starts a checkout (which creates the account's Stripe customer) and answers its customer id. */
async function checkedOutUser(t: TestApp, plan: 'starter' | 'pro' = 'pro') {
  const signedUp = await signUpUser(t);
  const response = await signedUp.client.post('/api/payment/create-checkout', { planId: plan });
  expect(response.statusCode).toBe(200);
  const customer = (await accountRow(t, signedUp.user.id)).stripeCustomerId;
  if (!customer) throw new Error('no customer stored');
  return { ...signedUp, customer };
}

describe('Stripe checkout, portal and plan changes', () => {
  const t = useTestApp(() => ({
    STRIPE_SECRET_KEY: 'sk_test_sendwell',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PRICE_STARTER: PRICES.starter,
    STRIPE_PRICE_PRO: PRICES.pro,
    STRIPE_PRICE_ENTERPRISE: PRICES.enterprise,
    STRIPE_API_BASE: fake.apiBase,
  }));

  it('creates a subscription Checkout Session for the plan price with the trial, and answers its url', async () => {
    const { client, user } = await signUpUser(t());
    const before = fake.calls.length;
    const response = await client.post('/api/payment/create-checkout', { planId: 'starter' });
    expect(response.statusCode).toBe(200);
    expect(response.json().url).toMatch(new RegExp(`^${fake.apiBase}/c/pay/cs_`));
    const calls = fake.calls.slice(before);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /v1/customers', 'POST /v1/checkout/sessions']);
    const [customerCall, sessionCall] = calls;
    expect(customerCall?.params['metadata[userId]']).toBe(user.id);
    expect(sessionCall?.params).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': PRICES.starter,
      'line_items[0][quantity]': '1',
      'subscription_data[trial_period_days]': '14',
      client_reference_id: user.id,
      success_url: 'http://localhost:5000/checkout/success?session_id={CHECKOUT_SESSION_ID}',
    });
    // Our own idempotency keys on both creating calls, different per call.
    expect(customerCall?.idempotencyKey).toMatch(/^[0-9a-f]{64}$/);
    expect(sessionCall?.idempotencyKey).toMatch(/^[0-9a-f]{64}$/);
    expect(sessionCall?.idempotencyKey).not.toBe(customerCall?.idempotencyKey);
    // A second checkout reuses the stored customer.
    const again = await client.post('/api/payment/create-checkout', { planId: 'pro' });
    expect(again.statusCode).toBe(200);
    expect(fake.calls.slice(before + 2).map((c) => c.path)).toEqual(['/v1/checkout/sessions']);
  });

  it('the same Idempotency-Key from the client gives the same session; another request a new one', async () => {
    const { client } = await signUpUser(t());
    const ask = (key: string) =>
      client.request({
        method: 'POST',
        url: '/api/payment/create-checkout',
        headers: { 'idempotency-key': key },
        payload: { planId: 'pro' },
      });
    const first = await ask('retry-1');
    const repeat = await ask('retry-1');
    const other = await ask('retry-2');
    expect(repeat.json().url).toBe(first.json().url);
    expect(other.json().url).not.toBe(first.json().url);
  });

  it('gives the trial only once: not after a subscription of the account had one', async () => {
    const { client, user, customer } = await checkedOutUser(t());
    const subscription = fake.putSubscription({
      customer,
      price: PRICES.pro,
      trialEnd: new Date(Date.now() + 14 * 86_400_000),
    });
    await deliver(t(), {
      id: 'evt_trial_once_1',
      type: 'customer.subscription.created',
      object: subscription,
    });
    expect((await accountRow(t(), user.id)).stripeTrialUsed).toBe(true);
    subscription.status = 'canceled';
    await deliver(t(), { id: 'evt_trial_once_2', type: 'customer.subscription.deleted', object: subscription });
    const before = fake.calls.length;
    expect((await client.post('/api/payment/create-checkout', { planId: 'pro' })).statusCode).toBe(200);
    const sessionCall = fake.calls.slice(before).find((c) => c.path === '/v1/checkout/sessions');
    expect(sessionCall?.params['subscription_data[trial_period_days]']).toBeUndefined();
  });

  it('changes the plan of a live subscription by a prorated update instead of a second checkout', async () => {
    const { client, user, customer } = await checkedOutUser(t(), 'starter');
    const subscription = fake.putSubscription({ customer, price: PRICES.starter, status: 'active' });
    await deliver(t(), {
      id: 'evt_upgrade_1',
      type: 'checkout.session.completed',
      object: { id: 'cs_x', object: 'checkout.session', customer, subscription: subscription.id },
    });
    expect(await accountRow(t(), user.id)).toMatchObject({ plan: 'starter', subscriptionStatus: 'active' });

    const before = fake.calls.length;
    const response = await client.post('/api/payment/create-checkout', { planId: 'pro' });
    expect(response.statusCode).toBe(200);
    expect(response.json().url).toBe('http://localhost:5000/checkout/success');
    const calls = fake.calls.slice(before);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      `GET /v1/subscriptions/${subscription.id}`,
      `POST /v1/subscriptions/${subscription.id}`,
    ]);
    expect(calls[1]?.params).toMatchObject({
      'items[0][id]': subscription.items.data[0]?.id,
      'items[0][price]': PRICES.pro,
      proration_behavior: 'create_prorations',
    });
    expect(calls[1]?.idempotencyKey).toMatch(/^[0-9a-f]{64}$/);
    expect((await accountRow(t(), user.id)).plan).toBe('pro');
    // The same plan again is a conflict, not a charge.
    expect((await client.post('/api/payment/create-checkout', { planId: 'pro' })).statusCode).toBe(409);
  });

  it('opens the billing portal of the account customer; before any checkout it says to choose a plan', async () => {
    const fresh = await signUpUser(t());
    expect((await fresh.client.post('/api/payment/billing-portal')).statusCode).toBe(400);
    const { client, customer } = await checkedOutUser(t());
    const response = await client.post('/api/payment/billing-portal');
    expect(response.statusCode).toBe(200);
    expect(response.json().url).toMatch(new RegExp(`^${fake.apiBase}/p/session/bps_`));
    const call = fake.calls.at(-1);
    expect(call?.params).toMatchObject({ customer, return_url: 'http://localhost:5000/billing' });
  });

  it('refuses to sell the Unlimited plan', async () => {
    const { client } = await signUpUser(t());
    expect((await client.post('/api/payment/create-checkout', { planId: 'unlimited' })).statusCode).toBe(400);
  });

  describe('webhooks', () => {
    it('answers 200 to a validly signed event and 400 to a tampered or stale one', async () => {
      const event = {
        id: 'evt_sig_1',
        type: 'invoice.paid',
        object: { id: 'in_1', object: 'invoice', subscription: null },
      };
      expect((await deliver(t(), event)).statusCode).toBe(200);
      const tampered = await deliver(t(), { ...event, id: 'evt_sig_2' }, { tamper: true });
      expect(tampered.statusCode).toBe(400);
      const stale = await deliver(
        t(),
        { ...event, id: 'evt_sig_3' },
        { timestamp: Math.floor(Date.now() / 1000) - 301 },
      );
      expect(stale.statusCode).toBe(400);
      const unsigned = await t()
        .client()
        .request({
          method: 'POST',
          url: '/api/webhook/stripe',
          headers: { 'content-type': 'application/json' },
          payload: '{}',
        });
      expect(unsigned.statusCode).toBe(400);
      const applied = await t().ctx.db.select().from(stripeEvents).where(eq(stripeEvents.id, 'evt_sig_1'));
      expect(applied).toHaveLength(1);
      expect(await t().ctx.db.select().from(stripeEvents).where(eq(stripeEvents.id, 'evt_sig_2'))).toHaveLength(0);
    });

    it('applies a duplicate event once', async () => {
      const { user, customer } = await checkedOutUser(t());
      const subscription = fake.putSubscription({ customer, price: PRICES.pro, status: 'past_due' });
      const event = {
        id: 'evt_dup_1',
        type: 'invoice.payment_failed',
        object: { id: 'in_dup', object: 'invoice', customer, subscription: subscription.id },
      };
      expect((await deliver(t(), event)).statusCode).toBe(200);
      const first = await accountRow(t(), user.id);
      expect(first.subscriptionStatus).toBe('past_due');
      // Stripe moves on; a repeat of the old event id must not be applied again (nothing re-read, nothing written).
      subscription.status = 'active';
      await handleStripeEvent(t().ctx, {
        eventId: 'evt_dup_1',
        type: 'invoice.payment_failed',
        subscriptionId: subscription.id,
      });
      expect((await deliver(t(), event)).statusCode).toBe(200);
      const second = await accountRow(t(), user.id);
      expect(second.subscriptionStatus).toBe('past_due');
      expect(second.billingSyncedAt).toEqual(first.billingSyncedAt);
      expect(await t().ctx.db.select().from(stripeEvents).where(eq(stripeEvents.id, 'evt_dup_1'))).toHaveLength(1);
    });

    it('ignores an older event that arrives late: the subscription is read as it is now', async () => {
      const { user, customer } = await checkedOutUser(t());
      const subscription = fake.putSubscription({ customer, price: PRICES.pro, status: 'active' });
      await deliver(t(), { id: 'evt_order_2', type: 'customer.subscription.updated', object: { ...subscription } });
      expect((await accountRow(t(), user.id)).subscriptionStatus).toBe('active');
      // The earlier 'trialing' event arrives after: its object says trialing, Stripe says active.
      await deliver(t(), {
        id: 'evt_order_1',
        type: 'customer.subscription.created',
        object: { ...subscription, status: 'trialing' },
      });
      expect((await accountRow(t(), user.id)).subscriptionStatus).toBe('active');
    });

    it('a canceled old subscription does not cancel the account live one', async () => {
      const { user, customer } = await checkedOutUser(t());
      const old = fake.putSubscription({ customer, price: PRICES.starter, status: 'canceled' });
      const live = fake.putSubscription({ customer, price: PRICES.pro, status: 'active' });
      await deliver(t(), { id: 'evt_two_1', type: 'customer.subscription.created', object: live });
      await deliver(t(), { id: 'evt_two_2', type: 'customer.subscription.deleted', object: old });
      expect(await accountRow(t(), user.id)).toMatchObject({
        subscriptionStatus: 'active',
        stripeSubscriptionId: live.id,
      });
    });

    it("changes only the account whose customer the subscription is; each account's portal opens its own customer", async () => {
      const a = await checkedOutUser(t(), 'starter');
      const b = await checkedOutUser(t(), 'starter');
      const before = await accountRow(t(), b.user.id);
      const subscription = fake.putSubscription({ customer: a.customer, price: PRICES.pro, status: 'active' });
      await deliver(t(), { id: 'evt_iso_1', type: 'customer.subscription.created', object: subscription });
      expect(await accountRow(t(), a.user.id)).toMatchObject({ plan: 'pro', subscriptionStatus: 'active' });
      expect(await accountRow(t(), b.user.id)).toMatchObject({
        plan: before.plan,
        subscriptionStatus: before.subscriptionStatus,
        stripeSubscriptionId: null,
      });
      expect((await b.client.post('/api/payment/billing-portal')).statusCode).toBe(200);
      expect(fake.calls.at(-1)?.params).toMatchObject({ customer: b.customer });
      // B cannot move A's subscription: a plan change from B makes a checkout for B's own customer.
      expect((await b.client.post('/api/payment/create-checkout', { planId: 'pro' })).statusCode).toBe(200);
      expect(fake.calls.at(-1)).toMatchObject({ path: '/v1/checkout/sessions', params: { customer: b.customer } });
      expect(
        fake.calls.some((call) => call.method === 'POST' && call.path === `/v1/subscriptions/${subscription.id}`),
      ).toBe(false);
    });

    it('moves through trialing → active → past_due → active → canceled with plan and trial end', async () => {
      const { user, customer } = await checkedOutUser(t(), 'starter');
      const trialEnd = new Date(Math.floor(Date.now() / 1000 + 10 * 86_400) * 1000);
      const subscription = fake.putSubscription({ customer, price: PRICES.starter, trialEnd });
      const session = { id: 'cs_tr', object: 'checkout.session', customer, subscription: subscription.id };
      await deliver(t(), { id: 'evt_tr_1', type: 'checkout.session.completed', object: session });
      expect(await accountRow(t(), user.id)).toMatchObject({
        plan: 'starter',
        subscriptionStatus: 'trialing',
        trialEndsAt: trialEnd,
      });

      subscription.status = 'active';
      const invoice = {
        id: 'in_tr',
        object: 'invoice',
        customer,
        parent: { subscription_details: { subscription: subscription.id } },
      };
      await deliver(t(), { id: 'evt_tr_2', type: 'invoice.paid', object: invoice });
      expect(await accountRow(t(), user.id)).toMatchObject({ subscriptionStatus: 'active', trialEndsAt: null });

      subscription.status = 'past_due';
      await deliver(t(), { id: 'evt_tr_3', type: 'invoice.payment_failed', object: invoice });
      const pastDue = await accountRow(t(), user.id);
      expect(pastDue.subscriptionStatus).toBe('past_due');
      expect(pastDue.pastDueSince).not.toBeNull();

      subscription.status = 'active';
      subscription.items.data[0]!.price.id = PRICES.pro;
      await deliver(t(), { id: 'evt_tr_4', type: 'customer.subscription.updated', object: subscription });
      expect(await accountRow(t(), user.id)).toMatchObject({
        plan: 'pro',
        subscriptionStatus: 'active',
        pastDueSince: null,
      });

      subscription.status = 'canceled';
      await deliver(t(), { id: 'evt_tr_5', type: 'customer.subscription.deleted', object: subscription });
      expect(await accountRow(t(), user.id)).toMatchObject({ plan: 'pro', subscriptionStatus: 'canceled' });
    });
  });
});

describe('Stripe not configured', () => {
  const t = useTestApp();

  it('answers 503 not configured for checkout, portal and webhook', async () => {
    const { client } = await signUpUser(t());
    const checkout = await client.post('/api/payment/create-checkout', { planId: 'pro' });
    expect(checkout.statusCode).toBe(503);
    expect(checkout.json()).toEqual({ error: 'Stripe checkout not configured' });
    const portal = await client.post('/api/payment/billing-portal');
    expect(portal.statusCode).toBe(503);
    expect(portal.json()).toEqual({ error: 'Billing portal not configured' });
    const webhook = await t()
      .client()
      .request({
        method: 'POST',
        url: '/api/webhook/stripe',
        headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
        payload: '{}',
      });
    expect(webhook.statusCode).toBe(503);
  });
});
