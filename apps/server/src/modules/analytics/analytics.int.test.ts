import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  PURCHASE_CAMPAIGN_NOT_FOUND,
  PURCHASE_CAMPAIGN_NOT_SENT,
  PURCHASE_NOT_A_CONTACT,
} from '@sendwell/contract/analytics';
import { campaigns, contacts, emailEvents } from '../../db/schema/index.ts';
import { signUpUser, useTestApp } from '../../../test/build-app.ts';

const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);
const sentCampaign = (
  userId: string,
  name: string,
  totals: { sent: number; opens: number; clicks: number },
  sentAt: Date,
) => ({
  userId,
  name,
  subject: 'Hi',
  fromEmail: 'a@x.io',
  status: 'sent',
  totalRecipients: totals.sent,
  totalSent: totals.sent,
  totalOpens: totals.opens,
  totalClicks: totals.clicks,
  sentAt,
});

describe('dashboard data', () => {
  const t = useTestApp();

  it('needs a session', async () => {
    const anon = t().client();
    expect((await anon.get('/api/analytics/stats')).statusCode).toBe(401);
    expect((await anon.get('/api/campaigns')).statusCode).toBe(401);
    expect((await anon.post('/api/analytics/purchases', { email: 'a@b.co', amount: 1 })).statusCode).toBe(401);
    expect((await anon.get('/api/analytics/purchases')).statusCode).toBe(401);
  });

  it('answers zeros, and no trends to compare, for a new account', async () => {
    const { client } = await signUpUser(t());
    expect((await client.get('/api/analytics/stats')).json()).toEqual({
      totalSubscribers: 0,
      avgOpenRate: 0,
      avgMachineOpenRate: 0,
      avgClickRate: 0,
      totalRevenue: 0,
      trends: {
        subscribers: { current: 0, previous: 0, changePercent: null },
        openRate: { current: null, previous: null, changePoints: null },
        clickRate: { current: null, previous: null, changePoints: null },
        revenue: { current: 0, previous: null, changePercent: null },
        openRateVsIndustry: null,
      },
    });
    expect((await client.get('/api/campaigns')).json()).toEqual([]);
  });

  it('computes the figures from the user’s own rows only', async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const db = t().ctx.db;
    await db.insert(contacts).values([
      { userId: a.user.id, email: 'one@example.com' },
      { userId: a.user.id, email: 'two@example.com' },
      { userId: a.user.id, email: 'gone@example.com', isActive: false },
      { userId: b.user.id, email: 'one@example.com' },
    ]);
    await db.insert(campaigns).values([
      {
        userId: a.user.id,
        name: 'Spring',
        subject: 'Hi',
        fromEmail: 'a@x.io',
        status: 'sent',
        totalSent: 200,
        totalOpens: 50,
        totalClicks: 7,
        sentAt: new Date(),
      },
      {
        userId: a.user.id,
        name: 'Summer',
        subject: 'Hi',
        fromEmail: 'a@x.io',
        status: 'sent',
        totalSent: 100,
        totalOpens: 40,
        totalClicks: 2,
        sentAt: new Date(),
      },
      { userId: a.user.id, name: 'Draft', subject: 'Hi', fromEmail: 'a@x.io' },
      {
        userId: b.user.id,
        name: 'B only',
        subject: 'Hi',
        fromEmail: 'b@x.io',
        status: 'sent',
        totalSent: 10,
        totalOpens: 10,
        totalClicks: 10,
      },
    ]);
    const statsA = (await a.client.get('/api/analytics/stats')).json();
    expect(statsA).toMatchObject({ totalSubscribers: 2, avgOpenRate: 30, avgClickRate: 3, totalRevenue: 0 });
    expect(Object.keys(statsA).sort()).toEqual([
      'avgClickRate',
      'avgMachineOpenRate',
      'avgOpenRate',
      'totalRevenue',
      'totalSubscribers',
      'trends',
    ]);
    const listA = (await a.client.get('/api/campaigns')).json() as { name: string; openRate: number }[];
    expect(listA.map((c) => c.name).sort()).toEqual(['Draft', 'Spring', 'Summer']);
    expect(listA.find((c) => c.name === 'Spring')?.openRate).toBe(25);
    const listB = (await b.client.get('/api/campaigns')).json() as { name: string }[];
    expect(listB.map((c) => c.name)).toEqual(['B only']);
    expect((await b.client.get('/api/analytics/stats')).json().totalSubscribers).toBe(1);
  });

  it('compares the last 30 days with the 30 before: subscribers, rates, revenue and the industry average', async () => {
    const a = await signUpUser(t());
    const db = t().ctx.db;
    const old = daysAgo(40);
    const [, , , , unsubscribed] = await db
      .insert(contacts)
      .values([
        { userId: a.user.id, email: 'o1@example.com', createdAt: old },
        { userId: a.user.id, email: 'o2@example.com', createdAt: old },
        { userId: a.user.id, email: 'o3@example.com', createdAt: old },
        { userId: a.user.id, email: 'o4@example.com', createdAt: old },
        // Unsubscribed 5 days ago: active 30 days ago.
        { userId: a.user.id, email: 'left@example.com', createdAt: old, isActive: false },
        // Switched off by hand at an unknown time: not counted as active then.
        { userId: a.user.id, email: 'off@example.com', createdAt: old, isActive: false },
        { userId: a.user.id, email: 'new1@example.com', createdAt: daysAgo(5) },
        { userId: a.user.id, email: 'new2@example.com', createdAt: daysAgo(5) },
      ])
      .returning();
    await db
      .insert(emailEvents)
      .values({ userId: a.user.id, contactId: unsubscribed!.id, type: 'unsubscribe', createdAt: daysAgo(5) });
    await db
      .insert(campaigns)
      .values([
        sentCampaign(a.user.id, 'Recent', { sent: 100, opens: 30, clicks: 5 }, daysAgo(10)),
        sentCampaign(a.user.id, 'Last month', { sent: 200, opens: 40, clicks: 4 }, daysAgo(45)),
        sentCampaign(a.user.id, 'Older', { sent: 100, opens: 50, clicks: 11 }, daysAgo(70)),
      ]);
    // $10 recorded 40 days ago (previous period) and $70 100 days ago (in neither period).
    await db.insert(emailEvents).values([
      { userId: a.user.id, type: 'purchase', amountCents: 1000, createdAt: daysAgo(40) },
      { userId: a.user.id, type: 'purchase', amountCents: 7000, createdAt: daysAgo(100) },
    ]);
    for (const amount of [19.99, 5.01]) {
      expect((await a.client.post('/api/analytics/purchases', { email: 'o1@example.com', amount })).statusCode).toBe(
        201,
      );
    }

    const stats = (await a.client.get('/api/analytics/stats')).json();
    expect(stats).toEqual({
      totalSubscribers: 6,
      // (30 + 40 + 50) / 400 and (5 + 4 + 11) / 400
      avgOpenRate: 30,
      avgMachineOpenRate: 0,
      avgClickRate: 5,
      totalRevenue: 105,
      trends: {
        // 30 days ago: the 4 old active contacts and the one who unsubscribed since.
        subscribers: { current: 6, previous: 5, changePercent: 20 },
        openRate: { current: 30, previous: 20, changePoints: 10 },
        clickRate: { current: 5, previous: 2, changePoints: 3 },
        revenue: { current: 25, previous: 10, changePercent: 150 },
        openRateVsIndustry: { industryAverage: 25, differencePoints: 5 },
      },
    });
  });

  it('says there is nothing to compare with when the previous 30 days are empty', async () => {
    const a = await signUpUser(t());
    const db = t().ctx.db;
    await db.insert(contacts).values({ userId: a.user.id, email: 'fresh@example.com', createdAt: daysAgo(2) });
    await db.insert(campaigns).values(sentCampaign(a.user.id, 'First', { sent: 50, opens: 10, clicks: 1 }, daysAgo(3)));
    expect(
      (await a.client.post('/api/analytics/purchases', { email: 'fresh@example.com', amount: 12.5 })).statusCode,
    ).toBe(201);
    const { trends } = (await a.client.get('/api/analytics/stats')).json();
    expect(trends).toEqual({
      subscribers: { current: 1, previous: 0, changePercent: null },
      openRate: { current: 20, previous: null, changePoints: null },
      clickRate: { current: 2, previous: null, changePoints: null },
      revenue: { current: 12.5, previous: null, changePercent: null },
      openRateVsIndustry: { industryAverage: 25, differencePoints: -5 },
    });
  });
});

describe('recording purchases', () => {
  const t = useTestApp();

  async function userWithContact(email = 'buyer@example.com') {
    const user = await signUpUser(t());
    const [contact] = await t().ctx.db.insert(contacts).values({ userId: user.user.id, email }).returning();
    return { ...user, contactId: contact!.id };
  }

  const storedPurchases = (userId: string) =>
    t()
      .ctx.db.select()
      .from(emailEvents)
      .where(and(eq(emailEvents.userId, userId), eq(emailEvents.type, 'purchase')));

  it('stores a purchase in cents, credited to a sent campaign, and answers it with 201', async () => {
    const a = await userWithContact();
    const [campaign] = await t()
      .ctx.db.insert(campaigns)
      .values(sentCampaign(a.user.id, 'Spring sale', { sent: 10, opens: 1, clicks: 1 }, daysAgo(1)))
      .returning();
    const response = await a.client.post('/api/analytics/purchases', {
      email: '  Buyer@Example.COM ',
      amount: 19.99,
      campaignId: campaign!.id,
    });
    expect(response.statusCode, response.body).toBe(201);
    const purchase = response.json();
    expect(purchase).toMatchObject({
      email: 'buyer@example.com',
      contactId: a.contactId,
      campaignId: campaign!.id,
      campaignName: 'Spring sale',
      amount: 19.99,
    });
    expect(Number.isInteger(purchase.id)).toBe(true);
    expect(new Date(purchase.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const [row] = await storedPurchases(a.user.id);
    expect(row).toMatchObject({
      amountCents: 1999,
      contactId: a.contactId,
      campaignId: campaign!.id,
      type: 'purchase',
    });
    expect((await a.client.get('/api/analytics/stats')).json().totalRevenue).toBe(19.99);
  });

  it('refuses bad input with 400 and the field’s message, and writes nothing', async () => {
    const a = await userWithContact();
    const cases: [unknown, string, string][] = [
      [{ email: 'not-an-email', amount: 5 }, 'email', 'Invalid email format'],
      [{ email: '', amount: 5 }, 'email', 'Email is required'],
      [{ amount: 5 }, 'email', 'Email is required'],
      [{ email: 'buyer@example.com', amount: 0 }, 'amount', 'Amount must be more than 0'],
      [{ email: 'buyer@example.com', amount: -3 }, 'amount', 'Amount must be more than 0'],
      [{ email: 'buyer@example.com', amount: 10.999 }, 'amount', 'Amount can have at most 2 decimals'],
      [{ email: 'buyer@example.com', amount: 1_000_000.01 }, 'amount', 'Amount must be at most $1,000,000'],
      [{ email: 'buyer@example.com', amount: '12' }, 'amount', 'Amount must be a number'],
      [{ email: 'buyer@example.com' }, 'amount', 'Amount must be a number'],
      [{ email: 'buyer@example.com', amount: 5, campaignId: 1.5 }, 'campaignId', 'Campaign must be a campaign id'],
    ];
    for (const [body, field, message] of cases) {
      const response = await a.client.post('/api/analytics/purchases', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().fields?.[field], JSON.stringify(body)).toBe(message);
    }
    expect(await storedPurchases(a.user.id)).toEqual([]);
  });

  it('answers 422 for an email that is not a contact and a campaign that is unknown or sent nothing, and writes nothing', async () => {
    const a = await userWithContact();
    const [draft] = await t()
      .ctx.db.insert(campaigns)
      .values({ userId: a.user.id, name: 'Draft', subject: 'Hi', fromEmail: 'a@x.io' })
      .returning();

    const stranger = await a.client.post('/api/analytics/purchases', { email: 'stranger@example.com', amount: 5 });
    expect(stranger.statusCode).toBe(422);
    expect(stranger.json()).toEqual({ message: PURCHASE_NOT_A_CONTACT, fields: { email: PURCHASE_NOT_A_CONTACT } });

    const missing = await a.client.post('/api/analytics/purchases', {
      email: 'buyer@example.com',
      amount: 5,
      campaignId: 2_000_000_000,
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual({
      message: PURCHASE_CAMPAIGN_NOT_FOUND,
      fields: { campaignId: PURCHASE_CAMPAIGN_NOT_FOUND },
    });

    const unsent = await a.client.post('/api/analytics/purchases', {
      email: 'buyer@example.com',
      amount: 5,
      campaignId: draft!.id,
    });
    expect(unsent.statusCode).toBe(422);
    expect(unsent.json().fields).toEqual({ campaignId: PURCHASE_CAMPAIGN_NOT_SENT });

    expect(await storedPurchases(a.user.id)).toEqual([]);
    expect((await a.client.get('/api/analytics/stats')).json().totalRevenue).toBe(0);
  });

  it('keeps users apart: B cannot record against A’s contact or campaign, and never sees A’s revenue', async () => {
    const a = await userWithContact('shared@example.com');
    const b = await signUpUser(t());
    const [campaignA] = await t()
      .ctx.db.insert(campaigns)
      .values(sentCampaign(a.user.id, 'A only', { sent: 10, opens: 1, clicks: 1 }, daysAgo(1)))
      .returning();
    expect(
      (
        await a.client.post('/api/analytics/purchases', {
          email: 'shared@example.com',
          amount: 100,
          campaignId: campaignA!.id,
        })
      ).statusCode,
    ).toBe(201);

    // B has no contact with A's contact's email.
    const noContact = await b.client.post('/api/analytics/purchases', { email: 'shared@example.com', amount: 1 });
    expect(noContact.statusCode).toBe(422);
    expect(noContact.json().message).toBe(PURCHASE_NOT_A_CONTACT);

    // With a contact of the same email of their own, B's purchase is B's, and A's campaign is unknown to B.
    const [contactB] = await t()
      .ctx.db.insert(contacts)
      .values({ userId: b.user.id, email: 'shared@example.com' })
      .returning();
    const otherCampaign = await b.client.post('/api/analytics/purchases', {
      email: 'shared@example.com',
      amount: 1,
      campaignId: campaignA!.id,
    });
    expect(otherCampaign.statusCode).toBe(422);
    expect(otherCampaign.json().message).toBe(PURCHASE_CAMPAIGN_NOT_FOUND);
    const own = await b.client.post('/api/analytics/purchases', { email: 'shared@example.com', amount: 2.5 });
    expect(own.statusCode).toBe(201);
    expect(own.json()).toMatchObject({ contactId: contactB!.id, campaignId: null, campaignName: null, amount: 2.5 });

    const statsA = (await a.client.get('/api/analytics/stats')).json();
    const statsB = (await b.client.get('/api/analytics/stats')).json();
    expect(statsA.totalRevenue).toBe(100);
    expect(statsA.trends.revenue.current).toBe(100);
    expect(statsB.totalRevenue).toBe(2.5);
    expect(statsB.trends.revenue.current).toBe(2.5);
    const listB = await b.client.get('/api/analytics/purchases');
    expect(listB.json().map((p: { amount: number }) => p.amount)).toEqual([2.5]);
    expect(listB.headers['x-total-count']).toBe('1');
    expect((await a.client.get('/api/analytics/purchases')).json().map((p: { amount: number }) => p.amount)).toEqual([
      100,
    ]);
  });

  it('lists purchases newest first, a page at a time, and keeps them when the contact is deleted', async () => {
    const a = await userWithContact();
    for (const amount of [1, 2, 3])
      expect((await a.client.post('/api/analytics/purchases', { email: 'buyer@example.com', amount })).statusCode).toBe(
        201,
      );
    const first = await a.client.get('/api/analytics/purchases?pageSize=2');
    expect(first.json().map((p: { amount: number }) => p.amount)).toEqual([3, 2]);
    expect(first.headers['x-total-count']).toBe('3');
    expect(
      (await a.client.get('/api/analytics/purchases?pageSize=2&page=2'))
        .json()
        .map((p: { amount: number }) => p.amount),
    ).toEqual([1]);
    expect((await a.client.get('/api/analytics/purchases?pageSize=101')).statusCode).toBe(400);

    await t().ctx.db.delete(contacts).where(eq(contacts.id, a.contactId));
    const after = (await a.client.get('/api/analytics/purchases')).json();
    expect(after).toHaveLength(3);
    expect(after[0]).toMatchObject({ email: null, contactId: null, amount: 3 });
    expect((await a.client.get('/api/analytics/stats')).json().totalRevenue).toBe(6);
  });
});
