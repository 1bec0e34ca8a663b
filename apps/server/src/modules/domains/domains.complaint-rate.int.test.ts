import { afterAll, describe, expect, it } from 'vitest';
import type { Domain } from '@sendwell/contract/domains';
import { domainDailySends, emailEvents } from '../../db/schema/index.ts';
import { signUpUser, TEST_SENDER, useTestApp, type TestClient } from '../../../test/build-app.ts';
import { startTestDnsServer } from '../../../test/dns-server.ts';

const dns = await startTestDnsServer();
afterAll(() => dns.close());

const DAY = 24 * 60 * 60 * 1000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

describe("a domain's spam rate over the last 7 days", () => {
  const t = useTestApp({ DNS_SERVERS: dns.server });

  async function addDomain(client: TestClient, domain: string): Promise<Domain> {
    const response = await client.post('/api/domains', { domain });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Domain;
  }

  /** A campaign stored as sent from `fromEmail` (the domain need not be verified now). */
  async function campaignFrom(client: TestClient, fromEmail: string): Promise<number> {
    const response = await client.post('/api/campaigns', {
      name: fromEmail,
      subject: 'Hi',
      fromEmail: TEST_SENDER,
      content: { html: '<p>Hi</p>' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const id = (response.json() as { id: number }).id;
    await t().ctx.database.raw.executeSql('UPDATE campaigns SET from_email = $1 WHERE id = $2', [fromEmail, id]);
    return id;
  }

  it("counts the last 7 days' sends and complaints of the domain's own mail, for its own account only", async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const quiet = await addDomain(a.client, 'quiet.example');
    const busy = await addDomain(a.client, 'busy.example');
    const theirs = await addDomain(b.client, 'busy.example');
    const now = new Date();
    const db = t().ctx.db;
    // busy.example: 1,000 messages this week and 500 ten days ago; B's domain of the same name sends too.
    await db.insert(domainDailySends).values([
      { domainId: busy.id, day: dayOf(now), sent: 600 },
      { domainId: busy.id, day: dayOf(new Date(now.getTime() - 6 * DAY)), sent: 400 },
      { domainId: busy.id, day: dayOf(new Date(now.getTime() - 10 * DAY)), sent: 500 },
      { domainId: theirs.id, day: dayOf(now), sent: 100 },
    ]);
    const fromBusy = await campaignFrom(a.client, 'news@busy.example');
    const fromTheirs = await campaignFrom(b.client, 'news@busy.example');
    const event = (userId: string, campaignId: number, type: string, daysAgo: number) => ({
      userId,
      campaignId,
      type,
      createdAt: new Date(now.getTime() - daysAgo * DAY),
    });
    await db.insert(emailEvents).values([
      // This week: 2 complaints (0.2% of 1,000), a hard bounce (not a complaint).
      event(a.user.id, fromBusy, 'complaint', 0),
      event(a.user.id, fromBusy, 'complaint', 5),
      event(a.user.id, fromBusy, 'bounce', 1),
      // Ten days ago: in the 30-day spam rate, not in this one.
      event(a.user.id, fromBusy, 'complaint', 10),
      event(a.user.id, fromBusy, 'complaint', 10),
      // Another account's complaints never count for A (and A's none for B).
      event(b.user.id, fromTheirs, 'complaint', 0),
    ]);

    const mine = Object.fromEntries(
      ((await a.client.get('/api/domains')).json() as Domain[]).map((domain) => [domain.domain, domain]),
    );
    expect(mine['busy.example']?.complaintRate7Days).toEqual({ sent: 1000, complaints: 2, rate: 0.2 });
    expect(mine['busy.example']?.spamRate).toBe(0.27);
    expect(mine['quiet.example']?.complaintRate7Days).toEqual({ sent: 0, complaints: 0, rate: null });
    expect((await a.client.get(`/api/domains/${quiet.id}`)).json()).toMatchObject({
      complaintRate7Days: { sent: 0, complaints: 0, rate: null },
    });
    expect((await b.client.get(`/api/domains/${theirs.id}`)).json()).toMatchObject({
      complaintRate7Days: { sent: 100, complaints: 1, rate: 1 },
    });
    // One account cannot read another's domain.
    expect((await b.client.get(`/api/domains/${busy.id}`)).statusCode).toBe(404);
  });
});
