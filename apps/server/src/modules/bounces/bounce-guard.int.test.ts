import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpUser, useTestApp, type TestApp, type TestClient } from '../../../test/build-app.ts';
import { dsn } from '../../../test/feedback-reports.ts';
import { runSendJobs } from '../../../test/send-jobs.ts';
import { sentCampaign } from '../../../test/sent-campaign.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';

const rows = async (t: TestApp, sql: string, params: unknown[] = []) =>
  (await t.ctx.database.raw.executeSql(sql, params)).rows as Record<string, unknown>[];

/** Posts a report to the account's inbound webhook; answers what it was read as. */
async function report(t: TestApp, client: TestClient, raw: string) {
  const { token } = (await client.get('/api/webhook/email-address')).json() as { token: string };
  const response = await t.client().request({
    method: 'POST',
    url: `/api/webhook/email?token=${token}`,
    headers: { 'content-type': 'message/rfc822' },
    payload: raw,
  });
  return response.json() as { kind: string; hard: boolean; matched: boolean };
}

const hardBounce = (send: { messageId: string | null; email: string }) =>
  dsn(send.messageId ?? '', send.email, '5.1.1');
const statusOf = async (t: TestApp, campaignId: number) =>
  (await rows(t, 'SELECT status FROM campaigns WHERE id = $1', [campaignId]))[0]?.status;
/** The account's notifications about pauses (a campaign that sent its last message says so too). */
const notesOf = (t: TestApp, userId: string) =>
  rows(t, "SELECT title, body FROM notifications WHERE user_id = $1 AND title LIKE '%paused%' ORDER BY id DESC", [
    userId,
  ]);

describe('the bounce-rate guard', () => {
  const t = useTestApp();

  it("pauses a sending campaign and tells its owner once hard bounces pass 5% of its first messages; soft bounces and another account's mail do not count", async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const stale = await sentCampaign(t(), a.client, 'Stale', 8);
    const fresh = await sentCampaign(t(), b.client, 'Fresh', 8);
    // Both are done sending; make them 'sending' again, as mid-send, to see the guard act.
    await rows(t(), `UPDATE campaigns SET status = 'sending' WHERE id IN ($1, $2)`, [stale.id, fresh.id]);

    // Five hard bounces: until 100 messages are out the share is taken of 100, so 5% is not passed.
    for (const send of stale.sends.slice(0, 5))
      expect(await report(t(), a.client, hardBounce(send))).toMatchObject({ hard: true, matched: true });
    // A full mailbox is soft; B's message reported through A's webhook is not A's to act on.
    const mailboxFull = dsn(
      stale.sends[5]?.messageId ?? '',
      stale.sends[5]?.email ?? '',
      '4.2.2',
      'failed',
      '452 4.2.2 Mailbox full',
    );
    expect(await report(t(), a.client, mailboxFull)).toMatchObject({ hard: false, matched: true });
    expect(await report(t(), a.client, hardBounce(fresh.sends[0]!))).toMatchObject({ matched: false });
    expect(await statusOf(t(), stale.id)).toBe('sending');
    expect(await notesOf(t(), a.user.id)).toEqual([]);

    // The sixth hard bounce passes 5%: the campaign pauses and its owner is told, once.
    await report(t(), a.client, hardBounce(stale.sends[6]!));
    expect(await statusOf(t(), stale.id)).toBe('paused');
    await report(t(), a.client, hardBounce(stale.sends[7]!));
    expect(await notesOf(t(), a.user.id)).toEqual([
      {
        title: 'Campaign “Stale” paused',
        body: '6 of its first 8 messages hard-bounced (75.0%; the limit is 5% of the first 1,000). Remove the addresses that no longer exist before resuming.',
      },
    ]);

    // B's campaign, with five hard bounces of its own, keeps sending; B is told nothing.
    for (const send of fresh.sends.slice(0, 5)) await report(t(), b.client, hardBounce(send));
    expect(await statusOf(t(), fresh.id)).toBe('sending');
    expect(await notesOf(t(), b.user.id)).toEqual([]);
  });

  it('counts the first 1,000 messages only', async () => {
    const a = await signUpUser(t());
    const big = await sentCampaign(t(), a.client, 'Big', 1);
    // 1,099 more messages out after the first: 1,100 in all, in send (id) order.
    await rows(
      t(),
      `INSERT INTO campaign_sends (campaign_id, user_id, email, status, message_id, sent_at)
       SELECT $1, $2, 'big' || n || '@x.io', 'sent', '<big-' || n || '@acme.example>', now()
       FROM generate_series(1, 1099) AS n ORDER BY n`,
      [big.id, a.user.id],
    );
    await rows(t(), `UPDATE campaigns SET status = 'sending' WHERE id = $1`, [big.id]);
    const send = (n: number) => ({ messageId: `<big-${n}@acme.example>`, email: `big${n}@x.io` });

    // 90 hard bounces, all among messages 1,001-1,100: the first 1,000 bounced none.
    await rows(
      t(),
      `UPDATE campaign_sends SET status = 'bounced' WHERE campaign_id = $1 AND message_id LIKE '<big-10__@%' AND substring(message_id from 6 for 4)::int BETWEEN 1010 AND 1098`,
      [big.id],
    );
    expect(await report(t(), a.client, hardBounce(send(1099)))).toMatchObject({ hard: true, matched: true });
    expect(await statusOf(t(), big.id)).toBe('sending');

    // 50 of the first 1,000 bounced: exactly 5%, not past it. One more passes it.
    await rows(
      t(),
      `UPDATE campaign_sends SET status = 'bounced' WHERE campaign_id = $1 AND message_id IN (SELECT '<big-' || n || '@acme.example>' FROM generate_series(1, 49) AS n)`,
      [big.id],
    );
    expect(await report(t(), a.client, hardBounce(send(50)))).toMatchObject({ hard: true, matched: true });
    expect(await statusOf(t(), big.id)).toBe('sending');
    await report(t(), a.client, hardBounce(send(51)));
    expect(await statusOf(t(), big.id)).toBe('paused');
    expect((await notesOf(t(), a.user.id))[0]?.body).toMatch(/^51 of its first 1,000 messages hard-bounced \(5\.1%/);
  });
});

describe('the bounce-rate guard on rejections in the SMTP conversation', () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    sink = await startSmtpSink({ reject: (address) => address.startsWith('gone') });
  });
  afterAll(async () => {
    await sink.close();
  });
  const t = useTestApp(() => ({ SMTP_URL: sink.url }));

  it('pauses a campaign mid-send when the relay refuses too many of its first recipients as unknown', async () => {
    const { client, user } = await signUpUser(t());
    await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
    const list = (await client.post('/api/contact-lists', { name: 'Bought' })).json() as { id: number };
    // The first 20 addresses do not exist (550 5.1.1 at RCPT); 200 more would be delivered.
    const addresses = [
      ...Array.from({ length: 20 }, (_, i) => `gone${i}@x.io`),
      ...Array.from({ length: 200 }, (_, i) => `real${i}@x.io`),
    ];
    await client.post('/api/contacts/import-csv', { csvData: `email\n${addresses.join('\n')}\n`, listId: list.id });
    const campaign = (
      await client.post('/api/campaigns', {
        name: 'Bought',
        subject: 'Hi',
        fromEmail: 'news@acme.example',
        content: { html: '' },
        blocks: [{ id: 'b1', type: 'text', content: { text: 'Hello', tag: 'p' } }],
        listIds: [list.id],
      })
    ).json() as { id: number };
    expect((await client.post(`/api/campaigns/${campaign.id}/send`)).statusCode).toBe(200);
    await runSendJobs(t());

    expect(await statusOf(t(), campaign.id)).toBe('paused');
    const bounced = await rows(
      t(),
      `SELECT count(*)::int AS n FROM campaign_sends WHERE campaign_id = $1 AND status = 'bounced'`,
      [campaign.id],
    );
    expect(Number(bounced[0]?.n)).toBeGreaterThanOrEqual(6);
    expect((await notesOf(t(), user.id)).map((note) => note.title)).toEqual(['Campaign “Bought” paused']);
  });
});
