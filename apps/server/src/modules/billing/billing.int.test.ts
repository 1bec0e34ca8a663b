import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { signUpUser, useTestApp, type TestApp, type TestClient } from '../../../test/build-app.ts';
import { users } from '../../db/schema/index.ts';
import { grantUnlimited } from '../auth/index.ts';

/** Gives the account `count` contacts straight in the table (the triggers keep its counts). */
async function seedContacts(t: TestApp, userId: string, count: number, prefix = 'seed') {
  await t.ctx.database.raw.executeSql(
    `INSERT INTO contacts (user_id, email) SELECT $1, $2 || g || '@seed.example' FROM generate_series(1, $3::int) g`,
    [userId, prefix, count],
  );
}

async function setAccount(t: TestApp, userId: string, values: Partial<typeof users.$inferInsert>) {
  await t.ctx.db.update(users).set(values).where(eq(users.id, userId));
}

/** A draft campaign to a new list of `count` contacts, ready to send (postal address set). */
async function draftCampaign(client: TestClient, name: string, count: number) {
  await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
  const list = (await client.post('/api/contact-lists', { name })).json() as { id: number };
  const rows = Array.from({ length: count }, (_, i) => `${name.toLowerCase()}${i}@x.io`).join('\n');
  await client.post('/api/contacts/import-csv', { csvData: `email\n${rows}\n`, listId: list.id });
  const campaign = await client.post('/api/campaigns', {
    name,
    subject: 'Hi',
    fromEmail: 'news@acme.example',
    content: { html: '' },
    blocks: [{ id: 'b1', type: 'text', content: { text: 'Hello', tag: 'p' } }],
    listIds: [list.id],
  });
  return (campaign.json() as { id: number }).id;
}

describe('plan limits on the server', () => {
  const t = useTestApp();

  it('refuses a contact past the subscriber limit, saying how many the plan allows; at the limit two concurrent creates: one succeeds', async () => {
    const { client, user } = await signUpUser(t(), { plan: 'starter' });
    await setAccount(t(), user.id, { plan: 'starter' });
    await seedContacts(t(), user.id, 2499);
    const [a, b] = await Promise.all([
      client.post('/api/contacts', { email: 'race-a@x.io', firstName: 'Ray', lastName: 'A' }),
      client.post('/api/contacts', { email: 'race-b@x.io', firstName: 'Ray', lastName: 'B' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 403]);
    const refused = a.statusCode === 403 ? a : b;
    expect(refused.json().message).toBe(
      'Your Starter plan allows 2,500 subscribers. Upgrade your plan on the Billing page to add more.',
    );
    const titles = async (c: TestClient) =>
      ((await c.get('/api/notifications')).json() as { notifications: { title: string; link: string }[] })
        .notifications;
    expect(await titles(client)).toEqual([
      expect.objectContaining({ title: "You have reached your plan's subscriber limit", link: '/billing' }),
    ]);
    // Another user B cannot see A's contacts, and is not counted against A's limit.
    const other = await signUpUser(t(), { plan: 'starter' });
    expect(
      (await other.client.post('/api/contacts', { email: 'race-a@x.io', firstName: 'Ray', lastName: 'A' })).statusCode,
    ).toBe(201);
  });

  it('imports up to the subscriber limit and reports the rest by row; existing contacts still update', async () => {
    const { client, user } = await signUpUser(t());
    await setAccount(t(), user.id, { plan: 'starter' });
    await seedContacts(t(), user.id, 2497);
    const csv = 'email,firstName\nseed1@seed.example,Known\nnew1@x.io,A\nnew2@x.io,B\nnew3@x.io,C\nnew4@x.io,D\n';
    const response = await client.post('/api/contacts/import-csv', { csvData: csv });
    expect(response.statusCode).toBe(200);
    const result = response.json();
    expect(result).toMatchObject({ imported: 3, updated: 1, skipped: 1 });
    const notes = (await client.get('/api/notifications')).json() as {
      notifications: { title: string; body: string }[];
    };
    expect(notes.notifications.map((n) => n.body)).toEqual([
      '3 contacts added, 1 updated. 1 row was skipped, the first (row 6): Not imported: your Starter plan allows 2,500 subscribers.',
      '2,500 of 2,500 subscribers on your Starter plan. Upgrade on the Billing page to add more.',
    ]);
    expect(result.errors).toEqual([{ row: 6, message: 'Not imported: your Starter plan allows 2,500 subscribers' }]);
  });

  it('refuses a send past the month allowance before anything is queued; two sends at the limit: one goes', async () => {
    const { client, user } = await signUpUser(t());
    await setAccount(t(), user.id, { plan: 'starter' });
    const first = await draftCampaign(client, 'First', 3);
    const second = await draftCampaign(client, 'Second', 3);
    await t().ctx.database.raw.executeSql(
      `INSERT INTO campaign_test_sends (user_id, email, sent_at) SELECT $1, 'x@x.io', now() - interval '2 hours' FROM generate_series(1, $2::int)`,
      [user.id, 15_000 - 4],
    );
    const answers = await Promise.all([
      client.post(`/api/campaigns/${first}/send`),
      client.post(`/api/campaigns/${second}/send`),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 403]);
    const refused = answers.find((a) => a.statusCode === 403);
    expect(refused?.json().message).toBe('This campaign has 3 recipients but your plan has 1 emails left this month.');
    // 14,996 + 3 queued crosses 80% long before; this send passes 14,999 of 15,000: no new threshold.
    const warnings = (await client.get('/api/notifications')).json() as { notifications: { title: string }[] };
    expect(warnings.notifications.filter((n) => n.title.includes('monthly'))).toEqual([]);
    const statuses = await t().ctx.database.raw.executeSql(
      `SELECT status FROM campaigns WHERE user_id = $1 ORDER BY id`,
      [user.id],
    );
    expect((statuses.rows as { status: string }[]).map((r) => r.status).sort()).toEqual(['draft', 'sending']);
  });

  it('stops sending when the trial ended without a subscription, or the subscription is canceled or long past_due; pages stay readable', async () => {
    const { client, user } = await signUpUser(t());
    const id = await draftCampaign(client, 'Trial', 1);
    await setAccount(t(), user.id, { subscriptionStatus: 'trialing', trialEndsAt: new Date(Date.now() - 60_000) });
    const expired = await client.post(`/api/campaigns/${id}/send`);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().message).toBe(
      'Your free trial has ended, so sending is paused. Choose a plan on the Billing page to send again.',
    );
    expect((await client.post(`/api/campaigns/${id}/test`, { emails: [user.email] })).statusCode).toBe(403);
    // Everything stays readable.
    expect((await client.get('/api/campaigns')).statusCode).toBe(200);
    expect((await client.get('/api/contacts')).statusCode).toBe(200);
    expect((await client.get('/api/contacts/export.csv')).statusCode).toBe(200);

    await setAccount(t(), user.id, { subscriptionStatus: 'canceled', trialEndsAt: null });
    expect((await client.post(`/api/campaigns/${id}/send`)).json().message).toMatch(/^Your subscription is canceled/);

    await setAccount(t(), user.id, { subscriptionStatus: 'past_due', pastDueSince: new Date(Date.now() - 86_400_000) });
    // A short past_due still sends (Stripe retries the card) ...
    expect((await client.post(`/api/campaigns/${id}/send`)).statusCode).toBe(200);
    const other = await draftCampaign(client, 'Later', 1);
    await setAccount(t(), user.id, { pastDueSince: new Date(Date.now() - 8 * 86_400_000) });
    // ... a long one does not.
    expect((await client.post(`/api/campaigns/${other}/send`)).json().message).toMatch(/^Your payment is overdue/);
  });

  it('answers the usage of each limit from data, each account its own', async () => {
    const { client, user } = await signUpUser(t());
    await setAccount(t(), user.id, { plan: 'pro' });
    await seedContacts(t(), user.id, 1234, 'usage');
    await client.post('/api/domains', { domain: 'usage.example' });
    const usage = await client.get('/api/billing/usage');
    expect(usage.statusCode).toBe(200);
    expect(usage.json()).toEqual({
      billingEnabled: true,
      subscribers: { used: 1234, limit: 10000 },
      emailsThisMonth: { used: 0, limit: 100000 },
      domains: { used: 1, limit: 5 },
      sendingPausedReason: null,
    });
    const other = await signUpUser(t());
    expect((await other.client.get('/api/billing/usage')).json()).toMatchObject({
      subscribers: { used: 0 },
      domains: { used: 0 },
    });
    expect((await t().client().get('/api/billing/usage')).statusCode).toBe(401);
  });

  it('refuses a domain past the plan limit', async () => {
    const { client, user } = await signUpUser(t());
    await setAccount(t(), user.id, { plan: 'starter' });
    expect((await client.post('/api/domains', { domain: 'one.example' })).statusCode).toBe(201);
    const second = await client.post('/api/domains', { domain: 'two.example' });
    expect(second.statusCode).toBe(403);
    expect(second.json().message).toMatch(/^Your Starter plan allows 1 sending domain\./);
  });

  it('at the domain limit two concurrent adds: exactly one succeeds', async () => {
    const { client, user } = await signUpUser(t());
    await setAccount(t(), user.id, { plan: 'pro' });
    for (const name of ['d1', 'd2', 'd3', 'd4']) {
      expect((await client.post('/api/domains', { domain: `${name}.example` })).statusCode).toBe(201);
    }
    const [a, b] = await Promise.all([
      client.post('/api/domains', { domain: 'race-a.example' }),
      client.post('/api/domains', { domain: 'race-b.example' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 403]);
    expect((a.statusCode === 403 ? a : b).json().message).toMatch(/^Your Pro plan allows 5 sending domains\./);
    expect((await client.get('/api/billing/usage')).json()).toMatchObject({ domains: { used: 5, limit: 5 } });
  });
});

describe('BILLING=off (self-hosting)', () => {
  const t = useTestApp({ BILLING: 'off' });

  it('applies no plan limits and never pauses sending', async () => {
    const { client, user } = await signUpUser(t());
    await setAccount(t(), user.id, {
      plan: 'starter',
      subscriptionStatus: 'canceled',
      trialEndsAt: new Date(Date.now() - 60_000),
    });
    await seedContacts(t(), user.id, 2500);
    expect(
      (await client.post('/api/contacts', { email: 'past-limit@x.io', firstName: 'Pat', lastName: 'L' })).statusCode,
    ).toBe(201);
    expect((await client.post('/api/domains', { domain: 'one.example' })).statusCode).toBe(201);
    expect((await client.post('/api/domains', { domain: 'two.example' })).statusCode).toBe(201);
    const id = await draftCampaign(client, 'SelfHosted', 1);
    expect((await client.post(`/api/campaigns/${id}/send`)).statusCode).toBe(200);
    const checkout = await client.post('/api/payment/create-checkout', { planId: 'pro' });
    expect(checkout.statusCode).toBe(503);
    expect(checkout.json().error).toContain('not configured');
  });
});

describe('Unlimited activation', () => {
  const t = useTestApp();

  it('activates an account granted by the admin command with its own credentials; refuses others and changes nothing', async () => {
    const entitled = await signUpUser(t());
    const other = await signUpUser(t());
    await grantUnlimited(t().ctx.db, entitled.email.toUpperCase());

    const refused = await t().client().post('/api/admin/setup-unlimited-user', {
      email: other.email,
      password: other.password,
    });
    expect(refused.json()).toEqual({ success: false, message: 'This account is not entitled to the Unlimited plan' });
    const unchanged = await t().ctx.db.select().from(users).where(eq(users.id, other.user.id));
    expect(unchanged[0]?.plan).toBe('pro');

    const wrongPassword = await t().client().post('/api/admin/setup-unlimited-user', {
      email: entitled.email,
      password: 'not-the-password-1',
    });
    const unknown = await t().client().post('/api/admin/setup-unlimited-user', {
      email: 'nobody-here@example.com',
      password: 'not-the-password-1',
    });
    expect(wrongPassword.json()).toEqual({ success: false, message: 'Invalid credentials' });
    expect(unknown.json()).toEqual(wrongPassword.json());

    const activated = await t().client().post('/api/admin/setup-unlimited-user', {
      email: entitled.email,
      password: entitled.password,
    });
    expect(activated.json()).toMatchObject({ success: true });
    const row = await t().ctx.db.select().from(users).where(eq(users.id, entitled.user.id));
    expect(row[0]).toMatchObject({ plan: 'unlimited', subscriptionStatus: 'active' });
  });
});
