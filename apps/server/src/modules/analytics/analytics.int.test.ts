import { describe, expect, it } from 'vitest';
import { campaigns, contacts } from '../../db/schema/index.ts';
import { signUpUser, useTestApp } from '../../../test/build-app.ts';

describe('dashboard data', () => {
  const t = useTestApp();

  it('needs a session', async () => {
    expect((await t().client().get('/api/analytics/stats')).statusCode).toBe(401);
    expect((await t().client().get('/api/campaigns')).statusCode).toBe(401);
  });

  it('answers zeros for a new account', async () => {
    const { client } = await signUpUser(t());
    expect((await client.get('/api/analytics/stats')).json()).toEqual({ totalSubscribers: 0, avgOpenRate: 0, avgClickRate: 0, totalRevenue: 0 });
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
      { userId: a.user.id, name: 'Spring', subject: 'Hi', fromEmail: 'a@x.io', status: 'sent', totalSent: 200, totalOpens: 50, totalClicks: 7, sentAt: new Date() },
      { userId: a.user.id, name: 'Summer', subject: 'Hi', fromEmail: 'a@x.io', status: 'sent', totalSent: 100, totalOpens: 40, totalClicks: 2, sentAt: new Date() },
      { userId: a.user.id, name: 'Draft', subject: 'Hi', fromEmail: 'a@x.io' },
      { userId: b.user.id, name: 'B only', subject: 'Hi', fromEmail: 'b@x.io', status: 'sent', totalSent: 10, totalOpens: 10, totalClicks: 10 },
    ]);
    const statsA = (await a.client.get('/api/analytics/stats')).json();
    expect(statsA).toEqual({ totalSubscribers: 2, avgOpenRate: 30, avgClickRate: 3, totalRevenue: 0 });
    const listA = (await a.client.get('/api/campaigns')).json() as { name: string; openRate: number }[];
    expect(listA.map((c) => c.name).sort()).toEqual(['Draft', 'Spring', 'Summer']);
    expect(listA.find((c) => c.name === 'Spring')?.openRate).toBe(25);
    const listB = (await b.client.get('/api/campaigns')).json() as { name: string }[];
    expect(listB.map((c) => c.name)).toEqual(['B only']);
    expect((await b.client.get('/api/analytics/stats')).json().totalSubscribers).toBe(1);
  });
});
