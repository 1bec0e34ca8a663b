import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { eq } from 'drizzle-orm';
import { runSendJobs } from '../../../test/send-jobs.ts';
import { signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';
import { campaignSends, outboxMessages } from '../../db/schema/index.ts';
import { arf, dsn } from '../../../test/feedback-reports.ts';
import { sendBatchJob } from './campaigns.jobs.ts';
import { catcherTransport, suppress } from '../delivery/index.ts';
import { storeCaughtMessage } from '../outbox/index.ts';

const blocks = [{ id: 'b1', type: 'text', content: { text: 'Hello {{firstName}}', tag: 'p' } }];

async function campaignTo(client: TestClient, count: number, name = 'Campaign') {
  await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
  const list = (await client.post('/api/contact-lists', { name: `${name} list` })).json() as { id: number };
  const csv = `email,firstName\n${Array.from({ length: count }, (_, i) => `r${i}-${name.replace(/\W/g, '')}@x.io,R${i}`).join('\n')}\n`;
  await client.post('/api/contacts/import-csv', { csvData: csv, listId: list.id });
  const campaign = (
    await client.post('/api/campaigns', {
      name,
      subject: 'Hi',
      fromEmail: 'news@acme.example',
      content: { html: '' },
      blocks,
      listIds: [list.id],
    })
  ).json();
  return campaign.id as number;
}

describe('delivery on the built-in catcher', () => {
  const t = useTestApp();

  it('stores every message in the outbox when no SMTP_URL is set', async () => {
    const { client, user } = await signUpUser(t());
    const id = await campaignTo(client, 3, 'Catcher');
    expect((await client.post(`/api/campaigns/${id}/send`)).statusCode).toBe(200);
    await runSendJobs(t());
    const stored = await t().ctx.db.select().from(outboxMessages).where(eq(outboxMessages.campaignId, id));
    expect(stored.map((m) => m.toAddress).sort()).toEqual(['r0-catcher@x.io', 'r1-catcher@x.io', 'r2-catcher@x.io']);
    expect(stored.every((m) => m.userId === user.id)).toBe(true);
    expect(stored[0]?.raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    // One List-Id for the campaign's every message: its id, the account's and the installation's host.
    const host = new URL(t().ctx.config.publicUrl).hostname;
    const listIds = stored.map((m) => /^List-Id: (.*)$/m.exec(m.raw)?.[1]?.trim());
    expect(listIds).toEqual(Array(3).fill(`"Catcher" <campaign-${id}.${user.id.replaceAll('-', '')}.${host}>`));
    expect((await client.get(`/api/campaigns/${id}`)).json()).toMatchObject({ status: 'sent', totalSent: 3 });
    // The bell says it went, once, linked to the report.
    const sentNotices = (await client.get('/api/notifications'))
      .json()
      .notifications.filter((n: { title: string }) => n.title === '“Catcher” was sent');
    expect(sentNotices).toEqual([
      expect.objectContaining({
        body: expect.stringContaining('It went to 3 recipients.'),
        link: `/campaigns/${id}/report`,
      }),
    ]);

    const outbox = await client.get('/api/outbox?pageSize=2');
    // The three messages, and the two confirmation links sign-up sent.
    expect(outbox.headers['x-total-count']).toBe('5');
    const listed = outbox.json();
    expect(listed.transport).toBe('catcher');
    expect(listed.messages).toHaveLength(2);
    expect(listed.messages[0]).toMatchObject({
      from: 'news@acme.example',
      subject: 'Hi',
      isTest: false,
      campaignId: id,
    });
    const message = (await client.get(`/api/outbox/${listed.messages[0].id}`)).json();
    expect(message.html).toContain('Hello R');
    expect(message.headers).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    const other = await signUpUser(t());
    expect((await other.client.get(`/api/outbox/${listed.messages[0].id}`)).statusCode).toBe(404);
    expect(
      (await other.client.get('/api/outbox'))
        .json()
        .messages.filter((m: { campaignId: number | null }) => m.campaignId),
    ).toEqual([]);
    expect((await client.get('/api/outbox?pageSize=500')).statusCode).toBe(400);
  });

  it('sends nothing to an address suppressed after Send: the policy checks each claimed chunk, and the row ends canceled', async () => {
    const { client, user } = await signUpUser(t());
    const id = await campaignTo(client, 3, 'Late unsubscribe');
    expect((await client.post(`/api/campaigns/${id}/send`)).statusCode).toBe(200);
    // Unsubscribed from another mail after the audience was queued, before its batch ran.
    await suppress(t().ctx.db, user.id, 'r1-lateunsubscribe@x.io', 'unsubscribe');
    await runSendJobs(t());
    const stored = await t().ctx.db.select().from(outboxMessages).where(eq(outboxMessages.campaignId, id));
    expect(stored.map((m) => m.toAddress).sort()).toEqual(['r0-lateunsubscribe@x.io', 'r2-lateunsubscribe@x.io']);
    const rows = await t().ctx.db.select().from(campaignSends).where(eq(campaignSends.campaignId, id));
    expect(rows.find((row) => row.email === 'r1-lateunsubscribe@x.io')).toMatchObject({
      status: 'canceled',
      error: expect.stringMatching(/suppression list/),
    });
    expect((await client.get(`/api/campaigns/${id}`)).json()).toMatchObject({ status: 'sent', totalSent: 2 });
  });

  it('stores what the catcher receives in the Outbox and tells a recorder waiting for the dot that it went', async () => {
    const { user } = await signUpUser(t());
    const transport = catcherTransport((message) => storeCaughtMessage(t().ctx.db, message));
    const message = {
      userId: user.id,
      campaignId: null,
      messageId: '<caught@acme.example>',
      returnPath: 'news@acme.example',
      from: 'news@acme.example',
      to: 'a@x.io',
      subject: 'Hi',
      raw: Buffer.from('Subject: Hi\r\n\r\nHi\r\n'),
      isTest: false,
    };
    let dotWritten = false;
    await transport.send(message, { atFinalDot: (dot) => void (dotWritten = dot.write()) });
    expect(dotWritten).toBe(true);
    const stored = await t()
      .ctx.db.select()
      .from(outboxMessages)
      .where(eq(outboxMessages.messageId, message.messageId));
    expect(stored).toHaveLength(1);
  });

  it('pauses, resumes and cancels, sending each recipient at most once', async () => {
    const { client } = await signUpUser(t());
    const id = await campaignTo(client, 5, 'Pausing');
    await client.post(`/api/campaigns/${id}/send`);
    expect((await client.post(`/api/campaigns/${id}/pause`)).json().status).toBe('paused');
    await runSendJobs(t());
    expect((await client.get(`/api/campaigns/${id}`)).json()).toMatchObject({ status: 'paused', totalSent: 0 });
    expect((await client.post(`/api/campaigns/${id}/pause`)).statusCode).toBe(409);
    expect((await client.post(`/api/campaigns/${id}/resume`)).json().status).toBe('sending');
    await runSendJobs(t());
    expect((await client.get(`/api/campaigns/${id}`)).json()).toMatchObject({ status: 'sent', totalSent: 5 });
    expect((await client.post(`/api/campaigns/${id}/cancel`)).statusCode).toBe(409);

    const other = await campaignTo(client, 2, 'Canceling');
    await client.post(`/api/campaigns/${other}/send`);
    expect((await client.post(`/api/campaigns/${other}/cancel`)).json().status).toBe('canceled');
    await runSendJobs(t());
    const rows = await t().ctx.db.select().from(campaignSends).where(eq(campaignSends.campaignId, other));
    expect(rows.map((r) => r.status)).toEqual(['canceled', 'canceled']);
  });

  it('refuses the webhook without its token (401) and bodies over 25 MB (413)', async () => {
    const anon = t().client();
    expect(
      (
        await anon.request({
          method: 'POST',
          url: '/api/webhook/email',
          headers: { 'content-type': 'message/rfc822' },
          payload: 'x',
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await anon.request({
          method: 'POST',
          url: '/api/webhook/email?token=wrong',
          headers: { 'content-type': 'message/rfc822' },
          payload: 'x',
        })
      ).statusCode,
    ).toBe(401);
    const { client } = await signUpUser(t());
    const { token } = (await client.get('/api/webhook/email-address')).json() as { token: string };
    const big = await anon.request({
      method: 'POST',
      url: `/api/webhook/email?token=${token}`,
      headers: { 'content-type': 'message/rfc822' },
      payload: Buffer.alloc(26 * 1024 * 1024, 97),
    });
    expect(big.statusCode).toBe(413);
  });

  it('records DSN bounces and ARF complaints, suppresses, and pauses a campaign past 0.3% complaints', async () => {
    const { client, user } = await signUpUser(t());
    const id = await campaignTo(client, 4, 'Feedback');
    await client.post(`/api/campaigns/${id}/send`);
    await runSendJobs(t());
    const sends = await t().ctx.db.select().from(campaignSends).where(eq(campaignSends.campaignId, id));
    const [first, second, third] = sends;
    const { token } = (await client.get('/api/webhook/email-address')).json() as { token: string };
    const post = (raw: string, auth: 'query' | 'header' = 'query') =>
      t()
        .client()
        .request({
          method: 'POST',
          url: auth === 'query' ? `/api/webhook/email?token=${token}` : '/api/webhook/email',
          headers: {
            'content-type': 'message/rfc822',
            ...(auth === 'header' ? { authorization: `Bearer ${token}` } : {}),
          },
          payload: raw,
        });
    expect((await post(dsn(first?.messageId ?? '', first?.email ?? '', '5.1.1'))).json()).toEqual({
      kind: 'bounce',
      reason: 'user-unknown',
      hard: true,
      recipient: first?.email,
      matched: true,
    });
    // A full mailbox is a soft bounce: recorded, not suppressed. A delay warning is no bounce at all.
    const mailboxFull = dsn(second?.messageId ?? '', second?.email ?? '', '4.2.2', 'failed', '452 4.2.2 Mailbox full');
    expect((await post(mailboxFull, 'header')).json()).toEqual({
      kind: 'bounce',
      reason: 'mailbox-full',
      hard: false,
      recipient: second?.email,
      matched: true,
    });
    expect(
      (
        await post(dsn(second?.messageId ?? '', second?.email ?? '', '4.4.1', 'delayed', 'Connection timed out'))
      ).json(),
    ).toMatchObject({ kind: 'other', hard: false, matched: false });
    expect((await post(dsn('<unknown@nowhere>', 'x@y.z', '5.1.1'))).json()).toMatchObject({
      kind: 'bounce',
      matched: false,
    });
    expect((await post('Subject: hello\r\n\r\nJust a note')).json()).toEqual({
      kind: 'other',
      reason: null,
      hard: false,
      recipient: null,
      matched: false,
    });

    // The campaign is done sending; make it 'sending' again to see the complaint guard act.
    await t().ctx.database.raw.executeSql(`UPDATE campaigns SET status = 'sending' WHERE id = ${id}`, []);
    expect((await post(arf(third?.messageId ?? '', third?.email ?? ''))).json()).toMatchObject({
      kind: 'complaint',
      matched: true,
    });
    expect((await client.get(`/api/campaigns/${id}`)).json().status).toBe('paused');
    const notes = await t().ctx.database.raw.executeSql(
      `SELECT title FROM notifications WHERE user_id = '${user.id}' AND title LIKE '%paused%'`,
      [],
    );
    expect((notes.rows[0] as { title: string }).title).toBe('Campaign “Feedback” paused');
    const complainer = (await client.get(`/api/contacts?search=${third?.email}`)).json()[0];
    expect(complainer.isActive).toBe(false);
    const suppressed = await t().ctx.database.raw.executeSql(
      `SELECT email, reason, detail, campaign_id FROM suppressions WHERE user_id = '${user.id}' ORDER BY reason`,
      [],
    );
    // The suppression list says why (the classified reason, the receiver's words) and which campaign.
    expect(suppressed.rows).toEqual([
      {
        email: first?.email,
        reason: 'bounce',
        detail: expect.stringMatching(/^user-unknown: 5\.1\.1/),
        campaign_id: id,
      },
      { email: third?.email, reason: 'complaint', detail: 'abuse', campaign_id: id },
    ]);
  });

  it('gives a signed-in user the webhook address with its token', async () => {
    const { client } = await signUpUser(t());
    const address = (await client.get('/api/webhook/email-address')).json() as { url: string; token: string };
    expect(address.url).toBe(`http://localhost:5000/api/webhook/email?token=${address.token}`);
    expect((await t().client().get('/api/webhook/email-address')).statusCode).toBe(401);
  });
});

describe('sending from the user’s own domain', () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => sink.close());
  // Nothing answers DNS here: the domain's records are marked verified directly below.
  const t = useTestApp(() => ({ SMTP_URL: sink.url, DNS_SERVERS: '127.0.0.1:9' }));

  async function verifiedDomain(client: TestClient, name: string) {
    const created = await client.post('/api/domains', { domain: name });
    expect(created.statusCode, created.body).toBe(201);
    const domain = created.json() as { id: number; dkimRecord: string };
    await t().ctx.database.raw.executeSql(
      `UPDATE domains SET spf_status = 'verified', dkim_status = 'verified', dmarc_status = 'verified', is_verified = true, verified_at = now(), warming_started_at = now() WHERE id = ${domain.id}`,
      [],
    );
    return domain;
  }

  it('signs every message with the domain’s DKIM key, verifiable against its published record', async () => {
    const { client } = await signUpUser(t());
    const domain = await verifiedDomain(client, 'acme.example');
    const [selector] = (
      await t().ctx.database.raw.executeSql(`SELECT dkim_selector FROM domains WHERE id = ${domain.id}`, [])
    ).rows as { dkim_selector: string }[];
    const id = await campaignTo(client, 2, 'Signed');
    const before = sink.received.length;
    await client.post(`/api/campaigns/${id}/send`);
    await runSendJobs(t());
    const messages = sink.received.slice(before);
    expect(messages).toHaveLength(2);
    for (const message of messages) {
      const result = await dkimVerify(Buffer.from(message.raw), {
        resolver: async (name: string, type: string) => {
          if (type === 'TXT' && name === `${selector?.dkim_selector}._domainkey.acme.example`)
            return [[domain.dkimRecord]];
          const error = new Error('not found') as Error & { code: string };
          error.code = 'ENOTFOUND';
          throw error;
        },
      });
      const signature = result.results[0];
      expect(signature?.status.result, JSON.stringify(signature?.status)).toBe('pass');
      expect(signature?.signingDomain).toBe('acme.example');
      const header = message.raw.replace(/\r?\n[ \t]+/g, ' ').match(/^DKIM-Signature: (.+)$/m)?.[1] ?? '';
      const signedHeaders = (/\bh=([^;]+)/.exec(header)?.[1] ?? '').split(':').map((h) => h.trim().toLowerCase());
      expect(signedHeaders).toEqual(
        expect.arrayContaining(['from', 'subject', 'list-unsubscribe', 'list-unsubscribe-post', 'list-id']),
      );
    }
  });

  it('holds mail above the warming cap until the next day and shows the campaign paused until then', async () => {
    const { client } = await signUpUser(t());
    const domain = await verifiedDomain(client, 'warm.example');
    const id = await campaignTo(client, 5, 'Warming');
    await t().ctx.database.raw.executeSql(`UPDATE campaigns SET from_email = 'news@warm.example' WHERE id = ${id}`, []);
    // Day 1 of warming: pretend all but 2 of today's allowance is used.
    const today = new Date().toISOString().slice(0, 10);
    await t().ctx.database.raw.executeSql(
      `INSERT INTO domain_daily_sends (domain_id, day, sent) VALUES (${domain.id}, '${today}', (SELECT 0))`,
      [],
    );
    const cap = (await client.get(`/api/domains/${domain.id}`)).json().warming?.dailyLimit ?? null;
    const limit = typeof cap === 'number' ? cap : 1000;
    await t().ctx.database.raw.executeSql(
      `UPDATE domain_daily_sends SET sent = ${limit - 2} WHERE domain_id = ${domain.id}`,
      [],
    );
    const before = sink.received.length;
    await client.post(`/api/campaigns/${id}/send`);
    await runSendJobs(t());
    expect(sink.received.length - before).toBe(2);
    const campaign = (await client.get(`/api/campaigns/${id}`)).json();
    expect(campaign).toMatchObject({ status: 'sending', totalSent: 2 });
    expect(Date.parse(campaign.pausedUntil)).toBe(
      Date.parse(`${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}T00:00:00Z`),
    );
    const deferred = await t().ctx.database.raw.executeSql(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = '${sendBatchJob.name}' AND state = 'created' AND start_after > now()`,
      [],
    );
    expect((deferred.rows[0] as { n: number }).n).toBeGreaterThanOrEqual(1);
  });
});

describe('a batch slower than half the batch timeout', () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    // Each recipient takes 250 ms to accept: with 5 connections a claimed chunk of 50 rows takes
    // ~2.5 s to go out, as long as half of the 5 s batch timeout below.
    sink = await startSmtpSink({ answerRcptAfterMs: () => 250 });
  });
  afterAll(async () => sink.close());
  const t = useTestApp(() => ({ SMTP_URL: sink.url, SEND_BATCH_TIMEOUT_SECONDS: '5' }));

  // A chaos run on a loaded machine sent 7 recipients twice: the batch's own next claim put its rows
  // still waiting for a connection back in the queue as stale, and claimed them a second time.
  it('sends nobody twice: a live batch’s own rows are never stale', async () => {
    const { client } = await signUpUser(t());
    const id = await campaignTo(client, 120, 'Slow');
    const before = sink.received.length;
    expect((await client.post(`/api/campaigns/${id}/send`)).statusCode).toBe(200);
    await runSendJobs(t());
    const recipients = sink.received.slice(before).map((message) => String(message.to[0]));
    expect(recipients.length - new Set(recipients).size).toBe(0);
    expect(new Set(recipients).size).toBe(120);
    const ledger = await t()
      .ctx.db.select({ status: campaignSends.status })
      .from(campaignSends)
      .where(eq(campaignSends.campaignId, id));
    expect(ledger.every((row) => row.status === 'sent')).toBe(true);
  });
});
