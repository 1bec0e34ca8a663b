import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { EmailAlias } from '@sendwell/contract/aliases';
import type { Domain } from '@sendwell/contract/domains';
import type { BillingUsage } from '@sendwell/contract/billing';
import {
  followConfirmationLink,
  signUpUser,
  useTestApp,
  type TestApp,
  type TestClient,
} from '../../../test/build-app.ts';
import { startTestDnsServer } from '../../../test/dns-server.ts';
import { runForwardJobs } from '../../../test/forward-jobs.ts';
import { startSmtpSink, type ReceivedMessage } from '../../../test/smtp-sink.ts';
import { aliasForwards, users } from '../../db/schema/index.ts';
import { FORWARD_DEFER_RETRY_MS } from '../inbound/forwarder.ts';
import { recoverForwards } from '../inbound/index.ts';

const dns = await startTestDnsServer();
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink.close();
  await dns.close();
});

const STARTER_EMAILS = 15_000;
const receivedTo = (to: string, subject: string) =>
  sink.received.filter((m) => m.to.includes(to) && m.parsed.subject === subject);

function forwardingLinkIn(message: ReceivedMessage | undefined): string {
  const link = /https?:\/\/\S+\/confirm-forwarding\?token=\S+/.exec(message?.parsed.text ?? '')?.[0];
  if (!link) throw new Error(`no forwarding confirmation link in ${message?.parsed.subject}`);
  return link;
}

/** `count` test mails this month, straight in the table: they count against the monthly emails. */
async function seedSentMail(t: TestApp, userId: string, count: number) {
  await t.ctx.database.raw.executeSql(
    `INSERT INTO campaign_test_sends (user_id, email) SELECT $1, 'seed' || g || '@seed.example' FROM generate_series(1, $2::int) g`,
    [userId, count],
  );
}
async function unseedSentMail(t: TestApp, userId: string, count: number) {
  await t.ctx.database.raw.executeSql(
    `DELETE FROM campaign_test_sends WHERE id IN (SELECT id FROM campaign_test_sends WHERE user_id = $1 LIMIT $2)`,
    [userId, count],
  );
}

type Notification = { title: string; body: string };
const notificationsOf = async (client: TestClient) =>
  ((await client.get('/api/notifications')).json() as { notifications: Notification[] }).notifications;

describe('forwarded mail counts against the monthly emails; over the limit it waits, not lost', () => {
  const t = useTestApp(() => ({ SMTP_URL: sink.url, DNS_SERVERS: dns.server, MAIL_FROM_DOMAIN: 'mail.sendwell.test' }));
  let client: TestClient;
  let userId: string;
  let alias: EmailAlias;

  const testForward = async (subject: string) => {
    const response = await client.post('/api/test-forwarding', {
      alias: alias.address,
      fromEmail: 'alice@sender.example',
      subject,
      content: 'hi',
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  const forwardRows = () =>
    t()
      .ctx.db.select({ status: aliasForwards.status, error: aliasForwards.error })
      .from(aliasForwards)
      .where(and(eq(aliasForwards.userId, userId), eq(aliasForwards.kind, 'forward')));

  beforeAll(async () => {
    const signed = await signUpUser(t(), { plan: 'starter' });
    client = signed.client;
    userId = signed.user.id;
    await t().ctx.db.update(users).set({ plan: 'starter', subscriptionStatus: 'active' }).where(eq(users.id, userId));
    const added = (await client.post('/api/domains', { domain: 'allowance.example' })).json() as Domain;
    for (const record of added.records) dns.setTxt(record.host, [record.value]);
    expect(((await client.post(`/api/domains/${added.id}/verify`)).json() as Domain).isVerified).toBe(true);
    const created = await client.post(`/api/domains/${added.id}/aliases`, {
      alias: 'desk',
      destination: 'owner@dest.example',
    });
    expect(created.statusCode, created.body).toBe(201);
    alias = created.json() as EmailAlias;
    const link = forwardingLinkIn(sink.received.filter((m) => m.to.includes('owner@dest.example')).at(-1));
    expect((await followConfirmationLink(t().client(), link)).statusCode).toBe(200);
  });

  it('sends forwards up to the allowance, defers the rest with the paused-sending banner, warns once, and sends them when there is room', async () => {
    await seedSentMail(t(), userId, STARTER_EMAILS - 2);
    expect(((await client.get('/api/billing/usage')).json() as BillingUsage).sendingPausedReason).toBeNull();

    await testForward('first');
    await testForward('second');
    await testForward('third');
    await runForwardJobs(t());
    // Two go (whichever the workers take first); the third waits, with the reason, and counts for nothing.
    const subjects = ['first', 'second', 'third'];
    const delivered = subjects.filter((subject) => receivedTo('owner@dest.example', subject).length === 1);
    expect(delivered).toHaveLength(2);
    const waiting = subjects.find((subject) => !delivered.includes(subject)) ?? '';
    const rows = await forwardRows();
    expect(rows.map((r) => r.status).sort()).toEqual(['deferred', 'sent', 'sent']);
    expect(rows.find((r) => r.status === 'deferred')?.error).toMatch(/used all 15,000 emails/);

    const usage = (await client.get('/api/billing/usage')).json() as BillingUsage;
    expect(usage.emailsThisMonth).toEqual({ used: STARTER_EMAILS, limit: STARTER_EMAILS });
    expect(usage.sendingPausedReason).toMatch(
      /^You have used all 15,000 emails of your Starter plan this month, so sending is paused\. Forwarded mail waits/,
    );
    const limitTitle = "You have reached your plan's monthly email limit";
    expect((await notificationsOf(client)).map((n) => n.title)).toEqual([limitTitle]);

    // Offered again while still over: it keeps waiting.
    expect(await recoverForwards(t().ctx, new Date(Date.now() + FORWARD_DEFER_RETRY_MS + 1000))).toBe(1);
    await runForwardJobs(t());
    expect(receivedTo('owner@dest.example', waiting)).toHaveLength(0);

    // Room again (one email freed): the waiting forward goes. Reaching 100% a second time this month
    // does not warn again.
    await unseedSentMail(t(), userId, 1);
    expect(await recoverForwards(t().ctx, new Date(Date.now() + FORWARD_DEFER_RETRY_MS + 1000))).toBe(1);
    await runForwardJobs(t());
    expect(receivedTo('owner@dest.example', waiting)).toHaveLength(1);
    expect((await notificationsOf(client)).map((n) => n.title)).toEqual([limitTitle]);
    const activity = (await client.get(`/api/email-aliases/${alias.id}/activity`)).json() as Array<{
      subject: string;
      outcome: string;
    }>;
    expect(activity.find((a) => a.subject === waiting)?.outcome).toBe('forwarded');

    // A bigger plan: forwards go at once and the banner is gone.
    await t().ctx.db.update(users).set({ plan: 'pro' }).where(eq(users.id, userId));
    await testForward('fourth');
    await runForwardJobs(t());
    expect(receivedTo('owner@dest.example', 'fourth')).toHaveLength(1);
    expect(((await client.get('/api/billing/usage')).json() as BillingUsage).sendingPausedReason).toBeNull();
  });

  it('holds forwards while sending is paused by billing (subscription canceled), then sends them', async () => {
    await t().ctx.db.update(users).set({ subscriptionStatus: 'canceled' }).where(eq(users.id, userId));
    await testForward('while canceled');
    await runForwardJobs(t());
    expect(receivedTo('owner@dest.example', 'while canceled')).toHaveLength(0);
    expect(((await client.get('/api/billing/usage')).json() as BillingUsage).sendingPausedReason).toMatch(
      /canceled, so sending is paused/,
    );
    await t().ctx.db.update(users).set({ subscriptionStatus: 'active' }).where(eq(users.id, userId));
    await recoverForwards(t().ctx, new Date(Date.now() + FORWARD_DEFER_RETRY_MS + 1000));
    await runForwardJobs(t());
    expect(receivedTo('owner@dest.example', 'while canceled')).toHaveLength(1);
  });
});

describe('usage warnings are sent once per threshold and month', () => {
  const t = useTestApp();

  it('adding, deleting and adding a contact across 80% warns once', async () => {
    const { client, user } = await signUpUser(t());
    await t().ctx.db.update(users).set({ plan: 'starter' }).where(eq(users.id, user.id));
    await t().ctx.database.raw.executeSql(
      `INSERT INTO contacts (user_id, email) SELECT $1, 'seed' || g || '@seed.example' FROM generate_series(1, 1999) g`,
      [user.id],
    );
    const first = await client.post('/api/contacts', { email: 'crossing@x.io', firstName: 'A', lastName: 'B' });
    expect(first.statusCode, first.body).toBe(201);
    expect((await client.delete(`/api/contacts/${(first.json() as { id: number }).id}`)).statusCode).toBe(204);
    const again = await client.post('/api/contacts', { email: 'crossing-again@x.io', firstName: 'A', lastName: 'B' });
    expect(again.statusCode, again.body).toBe(201);
    expect((await notificationsOf(client)).map((n) => n.title)).toEqual([
      "You have used 80% of your plan's subscribers",
    ]);
  });
});
