import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { START_NODE_ID, type FlowData, type Sequence } from '@sendwell/contract/sequences';
import { qmailNotice } from '../../../test/feedback-reports.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { signUpUser, useTestApp, type TestApp, type TestClient } from '../../../test/build-app.ts';
import { contacts } from '../../db/schema/index.ts';
import { signSequenceToken } from '../../lib/signed-token.ts';
import { withoutTracking } from '../tracking/index.ts';
import { advanceAllDue } from './sequence-engine.ts';
import { sendSequenceEmails } from './sequence-batch.ts';
import { runListTriggers, TRIGGER_SETTLE_MS } from './sequences.service.ts';

/**
 * Sequence mail after it leaves (issue 19): one-click unsubscribe, VERP-tied bounces, replies,
 * opens and clicks in the event log, the tag_added trigger and the plan's monthly allowance. Mail
 * goes through a local SMTP relay (the sink), so the envelope's return path can be read.
 */

const BOUNCE_DOMAIN = 'bounces.sendwell.test';
const SEQUENCE_VERP = /^bounces\+q[0-9a-z]+-[0-9a-f]{16}@bounces\.sendwell\.test$/;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** Email now, then a second email a day later: after the first, the enrolment is still in flight. */
const twoEmails: FlowData = {
  nodes: [
    { id: START_NODE_ID, type: 'input', position: { x: 400, y: 50 }, data: { label: 'Start' } },
    {
      id: 'email-1',
      type: 'email',
      position: { x: 400, y: 200 },
      data: {
        label: 'Welcome',
        subject: 'Welcome, {{firstName}}',
        blocks: [
          { id: 'b1', type: 'text', content: { text: 'Hello {{firstName}}', tag: 'p' }, styles: {} },
          { id: 'b2', type: 'button', content: { text: 'Shop', url: 'https://shop.example/new' }, styles: {} },
        ],
        delay: '0',
      },
    },
    {
      id: 'email-2',
      type: 'email',
      position: { x: 400, y: 350 },
      data: {
        label: 'Follow-up',
        subject: 'Still there?',
        blocks: [{ id: 'b3', type: 'text', content: { text: 'Checking in', tag: 'p' }, styles: {} }],
        delay: '1',
      },
    },
  ],
  edges: [
    { id: 'e1', source: START_NODE_ID, target: 'email-1' },
    { id: 'e2', source: 'email-1', target: 'email-2' },
  ],
};

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  // The relay refuses these mailboxes in the SMTP conversation (550 5.1.1), as a receiver does.
  sink = await startSmtpSink({
    reject: (address) => address.startsWith('nobody'),
    refuse: (address) => address.startsWith('policy'),
  });
});
afterAll(async () => sink.close());

const rows = async <T = Record<string, unknown>>(t: () => TestApp, text: string, params: unknown[] = []) =>
  (await t().ctx.database.raw.executeSql(text, params)).rows as T[];

async function newSequence(client: TestClient, name: string, extra: Record<string, unknown> = {}): Promise<Sequence> {
  await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
  const created = await client.post('/api/email-sequences', {
    name,
    flowData: twoEmails,
    status: 'active',
    fromEmail: 'news@acme.example',
    ...extra,
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json() as Sequence;
}

/** Contacts of the user, enrolled into the sequence; answers their ids by address. */
async function enrol(t: () => TestApp, client: TestClient, userId: string, sequenceId: number, emails: string[]) {
  const found = await rows<{ id: number; email: string }>(
    t,
    `SELECT id, email FROM contacts WHERE user_id = $1 AND email = ANY($2::text[])`,
    [userId, emails],
  );
  const missing = emails.filter((email) => !found.some((row) => row.email === email));
  const inserted =
    missing.length === 0
      ? []
      : await t()
          .ctx.db.insert(contacts)
          .values(missing.map((email) => ({ userId, email, firstName: email.split('@')[0] ?? '' })))
          .returning({ id: contacts.id, email: contacts.email });
  const all = [...found, ...inserted];
  const response = await client.post(`/api/email-sequences/${sequenceId}/enrolments`, {
    contactIds: all.map((row) => row.id),
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return new Map(all.map((row) => [row.email, row.id]));
}

/** Runs the advancer and the sequence's sender; answers the messages the relay received meanwhile. */
async function sendDue(t: () => TestApp, sequenceIds: number[]) {
  const before = sink.received.length;
  await advanceAllDue(t().ctx.db);
  for (const id of sequenceIds) await sendSequenceEmails(t().ctx, id);
  return sink.received.slice(before);
}

const unfold = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

async function enrolmentStates(t: () => TestApp, userId: string) {
  return rows<{ sequence: number; email: string; state: string; exitReason: string | null }>(
    t,
    `SELECT e.sequence_id AS sequence, c.email, e.state, e.exit_reason AS "exitReason"
     FROM sequence_enrolments e JOIN contacts c ON c.id = e.contact_id
     WHERE e.user_id = $1 ORDER BY e.sequence_id, c.email`,
    [userId],
  );
}

async function webhookToken(client: TestClient): Promise<string> {
  return ((await client.get('/api/webhook/email-address')).json() as { token: string }).token;
}

/** A permanent failure notice for gone@x.io, sent (as a bounce is) to the message's return path. */
const hardBounceTo = (to: string) => qmailNotice(to, 'gone@x.io', 'Sorry, no mailbox here by that name. (#5.1.1)');

/** Posts a message to the inbound webhook of the account whose token it is; answers the bounce verdict. */
async function postInbound(t: () => TestApp, token: string, raw: string) {
  const response = await t()
    .client()
    .request({
      method: 'POST',
      url: '/api/webhook/email',
      headers: { 'content-type': 'message/rfc822', 'x-sendwell-token': token },
      payload: raw,
    });
  return response.json() as { matched: boolean; kind: string; hard: boolean };
}

async function sendStatuses(t: () => TestApp, userId: string) {
  return rows<{ sequence: number; email: string; status: string }>(
    t,
    `SELECT sequence_id AS sequence, email, status FROM sequence_sends WHERE user_id = $1 ORDER BY sequence_id, email`,
    [userId],
  );
}

describe('sequence mail after it leaves', () => {
  const t = useTestApp(() => ({ SMTP_URL: sink.url, BOUNCE_DOMAIN, DNS_SERVERS: '127.0.0.1:9' }));

  it('carries one-click unsubscribe; unsubscribing ends every enrolment of the contact and suppresses, in that account only', async () => {
    const { client, user } = await signUpUser(t(), { company: 'Acme Ltd' });
    const first = await newSequence(client, 'Welcome');
    const second = await newSequence(client, 'Onboarding');
    await enrol(t, client, user.id, first.id, ['ann@x.io', 'bob@x.io']);
    await enrol(t, client, user.id, second.id, ['ann@x.io']);
    // Another account with a contact of the same address, in its own sequence.
    const other = await signUpUser(t(), { company: 'Other Co' });
    const otherSequence = await newSequence(other.client, 'Theirs');
    await enrol(t, other.client, other.user.id, otherSequence.id, ['ann@x.io']);

    const messages = await sendDue(t, [first.id, second.id, otherSequence.id]);
    const annFirst = messages.find((m) => m.to.includes('ann@x.io') && m.raw.includes('Acme Ltd'));
    expect(annFirst).toBeDefined();
    const raw = annFirst?.raw ?? '';
    const header = /^List-Unsubscribe: <([^>]+)>/m.exec(raw)?.[1] ?? '';
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(header).toMatch(new RegExp(`^${t().ctx.config.publicUrl}/u/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`));
    const path = header.slice(t().ctx.config.publicUrl.length);
    // The footer's unsubscribe link is the same page; no mailto: stopgap is left.
    expect(unfold(raw)).toContain(`href="${header}"`);
    expect(raw).not.toContain('mailto:news@acme.example?subject=unsubscribe');
    // The token is the sequence send's own (the one in the pixel).
    const [annSend] = await rows<{ id: number }>(
      t,
      `SELECT s.id FROM sequence_sends s WHERE s.user_id = $1 AND s.email = 'ann@x.io' AND s.sequence_id = $2`,
      [user.id, annFirst?.raw.includes('Welcome, ann') ? first.id : second.id],
    );
    expect(path).toBe(`/u/${signSequenceToken(t().ctx.config.sessionSecret, annSend?.id ?? 0)}`);

    const anon = t().client();
    const page = await anon.get(path);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Unsubscribe from Acme Ltd?</h1>');
    expect(page.body).toContain('Acme Ltd &lt;news@acme.example&gt;');
    // The page alone changes nothing.
    expect((await enrolmentStates(t, user.id)).every((e) => e.state === 'active')).toBe(true);

    const oneClick = await anon.request({
      method: 'POST',
      url: path,
      headers: { ...FORM, origin: 'https://mail.provider.example' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.body).toContain('<h1>You are unsubscribed</h1>');
    expect(await enrolmentStates(t, user.id)).toEqual([
      { sequence: first.id, email: 'ann@x.io', state: 'exited', exitReason: 'unsubscribed' },
      { sequence: first.id, email: 'bob@x.io', state: 'active', exitReason: null },
      { sequence: second.id, email: 'ann@x.io', state: 'exited', exitReason: 'unsubscribed' },
    ]);
    expect(await rows(t, `SELECT email, reason FROM suppressions WHERE user_id = $1`, [user.id])).toEqual([
      { email: 'ann@x.io', reason: 'unsubscribe' },
    ]);
    expect(
      await rows(t, `SELECT is_active AS active FROM contacts WHERE user_id = $1 AND email = 'ann@x.io'`, [user.id]),
    ).toEqual([{ active: false }]);
    expect(
      await rows(
        t,
        `SELECT type, campaign_id AS "campaignId", sequence_send_id AS "sequenceSendId" FROM email_events
         WHERE user_id = $1 AND type = 'unsubscribe'`,
        [user.id],
      ),
    ).toEqual([{ type: 'unsubscribe', campaignId: null, sequenceSendId: annSend?.id }]);
    // Again (a second client's one-click): still unsubscribed, nothing more logged.
    const again = await anon.request({
      method: 'POST',
      url: path,
      headers: FORM,
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(again.statusCode).toBe(200);
    expect(
      await rows(t, `SELECT count(*)::int AS n FROM email_events WHERE user_id = $1 AND type = 'unsubscribe'`, [
        user.id,
      ]),
    ).toEqual([{ n: 1 }]);
    // The other account's ann is untouched.
    expect(await enrolmentStates(t, other.user.id)).toEqual([
      { sequence: otherSequence.id, email: 'ann@x.io', state: 'active', exitReason: null },
    ]);
    expect(await rows(t, `SELECT email FROM suppressions WHERE user_id = $1`, [other.user.id])).toEqual([]);
    // A forged token is not recognised.
    expect((await anon.get(`${path.slice(0, -2)}xx`)).statusCode).toBe(404);
    // Ann's queued follow-up never leaves: her next step finds her suppressed.
    // A second in the past: the advancer's clock is the app's, in milliseconds, and Postgres's now()
    // (microseconds) can lie later within the same millisecond.
    await t().ctx.database.raw.executeSql(
      `UPDATE sequence_enrolments SET next_run_at = now() - interval '1 second' WHERE user_id = $1 AND state = 'active'`,
      [user.id],
    );
    const later = await sendDue(t, [first.id, second.id]);
    expect(later.flatMap((m) => m.to)).toEqual(['bob@x.io']);
  });

  it('bounces back to a VERP return path naming the sequence send: a hard bounce marks it bounced, suppresses and ends every enrolment', async () => {
    const { client, user } = await signUpUser(t());
    const sequence = await newSequence(client, 'Bouncy');
    const another = await newSequence(client, 'Also bouncy');
    await enrol(t, client, user.id, sequence.id, ['gone@x.io', 'fine@x.io']);
    await enrol(t, client, user.id, another.id, ['gone@x.io']);
    const messages = await sendDue(t, [sequence.id]);
    const gone = messages.find((m) => m.to.includes('gone@x.io'));
    expect(gone?.from).toMatch(SEQUENCE_VERP);
    const dsn = hardBounceTo(gone?.from ?? '');
    // Another account's webhook cannot act on this account's return path.
    const other = await signUpUser(t());
    expect((await postInbound(t, await webhookToken(other.client), dsn)).matched).toBe(false);
    expect(await rows(t, `SELECT email FROM suppressions WHERE user_id = $1`, [user.id])).toEqual([]);

    const verdict = await postInbound(t, await webhookToken(client), dsn);
    expect(verdict).toMatchObject({ kind: 'bounce', hard: true, matched: true, recipient: 'gone@x.io' });
    expect(await rows(t, `SELECT email, reason FROM suppressions WHERE user_id = $1`, [user.id])).toEqual([
      { email: 'gone@x.io', reason: 'bounce' },
    ]);
    // Both of gone's enrolments end, the one whose mail bounced and the other sequence's.
    expect(await enrolmentStates(t, user.id)).toEqual([
      { sequence: sequence.id, email: 'fine@x.io', state: 'active', exitReason: null },
      { sequence: sequence.id, email: 'gone@x.io', state: 'exited', exitReason: 'bounced' },
      { sequence: another.id, email: 'gone@x.io', state: 'exited', exitReason: 'bounced' },
    ]);
    // The send is bounced, as a campaign send is; the other sequence's queued step never leaves.
    expect(await sendStatuses(t, user.id)).toEqual([
      { sequence: sequence.id, email: 'fine@x.io', status: 'sent' },
      { sequence: sequence.id, email: 'gone@x.io', status: 'bounced' },
      { sequence: another.id, email: 'gone@x.io', status: 'queued' },
    ]);
    expect(await sendDue(t, [another.id])).toEqual([]);
    expect((await sendStatuses(t, user.id))[2]).toMatchObject({ status: 'suppressed' });
    expect(
      await rows(
        t,
        `SELECT e.type, e.sequence_id AS "sequenceId", s.email FROM email_events e JOIN sequence_sends s ON s.id = e.sequence_send_id
         WHERE e.user_id = $1 AND e.type = 'bounce'`,
        [user.id],
      ),
    ).toEqual([{ type: 'bounce', sequenceId: sequence.id, email: 'gone@x.io' }]);
    // The message left all the same: it still counts against the month's emails.
    expect((await client.get('/api/billing/usage')).json()).toMatchObject({ emailsThisMonth: { used: 2 } });
    // The same notice again (a provider's retry) changes nothing more.
    await postInbound(t, await webhookToken(client), dsn);
    expect(
      await rows(t, `SELECT count(*)::int AS n FROM email_events WHERE user_id = $1 AND type = 'bounce'`, [user.id]),
    ).toEqual([{ n: 1 }]);
  });

  it('a hard bounce ends the enrolments even when the account keeps hard-bounced addresses unsuppressed', async () => {
    const { client, user } = await signUpUser(t());
    const settings = await client.request({
      method: 'PUT',
      url: '/api/bounce-settings',
      payload: {
        suppressHardBounces: false,
        softBounceLimit: 3,
        softBounceWindowDays: 30,
        unsubscribeOnComplaint: true,
      },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const sequence = await newSequence(client, 'Kept');
    await enrol(t, client, user.id, sequence.id, ['gone@x.io']);
    const [gone] = await sendDue(t, [sequence.id]);
    const verdict = await postInbound(t, await webhookToken(client), hardBounceTo(gone?.from ?? ''));
    expect(verdict).toMatchObject({ kind: 'bounce', hard: true, matched: true });
    expect(await rows(t, `SELECT email FROM suppressions WHERE user_id = $1`, [user.id])).toEqual([]);
    expect(await enrolmentStates(t, user.id)).toEqual([
      { sequence: sequence.id, email: 'gone@x.io', state: 'exited', exitReason: 'bounced' },
    ]);
    expect(await sendStatuses(t, user.id)).toEqual([{ sequence: sequence.id, email: 'gone@x.io', status: 'bounced' }]);
  });

  it('a mailbox the receiver refuses in the SMTP conversation: the send is bounced with a bounce event, the address suppressed, the enrolment ended', async () => {
    const { client, user } = await signUpUser(t());
    const sequence = await newSequence(client, 'Refused');
    await enrol(t, client, user.id, sequence.id, ['nobody@x.io', 'fine@x.io']);
    const messages = await sendDue(t, [sequence.id]);
    expect(messages.flatMap((m) => m.to)).toEqual(['fine@x.io']);
    expect(await sendStatuses(t, user.id)).toEqual([
      { sequence: sequence.id, email: 'fine@x.io', status: 'sent' },
      { sequence: sequence.id, email: 'nobody@x.io', status: 'bounced' },
    ]);
    expect(
      await rows(
        t,
        `SELECT e.type, e.sequence_id AS "sequenceId", e.campaign_id AS "campaignId", s.email, e.reason
         FROM email_events e JOIN sequence_sends s ON s.id = e.sequence_send_id WHERE e.user_id = $1`,
        [user.id],
      ),
    ).toEqual([
      { type: 'bounce', sequenceId: sequence.id, campaignId: null, email: 'nobody@x.io', reason: expect.any(String) },
    ]);
    expect(await rows(t, `SELECT email, reason FROM suppressions WHERE user_id = $1`, [user.id])).toEqual([
      { email: 'nobody@x.io', reason: 'bounce' },
    ]);
    expect(await enrolmentStates(t, user.id)).toEqual([
      { sequence: sequence.id, email: 'fine@x.io', state: 'active', exitReason: null },
      { sequence: sequence.id, email: 'nobody@x.io', state: 'exited', exitReason: 'bounced' },
    ]);
    // Refused mail did not leave: only fine's counts against the month.
    expect((await client.get('/api/billing/usage')).json()).toMatchObject({ emailsThisMonth: { used: 1 } });
    // A bounce is the contact's matter (its report shows it): the bell stays quiet.
    expect((await client.get('/api/notifications')).json()).toMatchObject({ notifications: [] });
  });

  it('a message the relay refuses (not the mailbox) fails, and the owner hears of it once a day, not per batch; a bounce alone says nothing', async () => {
    const { client, user } = await signUpUser(t());
    const sequence = await newSequence(client, 'Refused by policy');
    await enrol(t, client, user.id, sequence.id, ['policy-1@x.io', 'nobody-2@x.io', 'fine-2@x.io']);
    await sendDue(t, [sequence.id]);
    const statuses = await sendStatuses(t, user.id);
    expect(statuses.map((s) => [s.email, s.status])).toEqual([
      ['fine-2@x.io', 'sent'],
      ['nobody-2@x.io', 'bounced'],
      ['policy-1@x.io', 'failed'],
    ]);
    const bell = async () =>
      ((await client.get('/api/notifications')).json() as { notifications: { title: string; body: string }[] })
        .notifications;
    expect(await bell()).toEqual([
      expect.objectContaining({
        title: 'Sequence “Refused by policy”: emails could not be sent',
        body: expect.stringMatching(/^1 email failed; the last: .*5\.7\.1 Message refused by local policy/),
      }),
    ]);
    // Another failing batch the same day: still one notice.
    await enrol(t, client, user.id, sequence.id, ['policy-2@x.io']);
    await sendDue(t, [sequence.id]);
    expect(await bell()).toHaveLength(1);
  });

  it('a reply ends the enrolment it answers; an auto-reply and another account’s mail do not', async () => {
    const { client, user } = await signUpUser(t());
    const sequence = await newSequence(client, 'Replies');
    await enrol(t, client, user.id, sequence.id, ['rae@x.io', 'oof@x.io']);
    await sendDue(t, [sequence.id]);
    const sent = await rows<{ email: string; messageId: string }>(
      t,
      `SELECT email, message_id AS "messageId" FROM sequence_sends WHERE user_id = $1 ORDER BY email`,
      [user.id],
    );
    expect(sent.map((s) => s.messageId)).toEqual([expect.stringMatching(/^<.+@acme\.example>$/), expect.any(String)]);
    const idOf = (email: string) => sent.find((s) => s.email === email)?.messageId ?? '';
    const reply = (from: string, inReplyTo: string, extra: string[] = [], subject = 'Re: Welcome') =>
      [
        `From: ${from}`,
        'To: news@acme.example',
        `Subject: ${subject}`,
        `Message-ID: <reply-${from}-${extra.length}@x.io>`,
        `In-Reply-To: ${inReplyTo}`,
        `References: <older@x.io> ${inReplyTo}`,
        ...extra,
        '',
        'Thanks, tell me more.',
        '',
      ].join('\r\n');
    const post = async (client_: TestClient, raw: string) => {
      const response = await t()
        .client()
        .request({
          method: 'POST',
          url: '/api/webhook/email',
          headers: { 'content-type': 'message/rfc822', 'x-sendwell-token': await webhookToken(client_) },
          payload: raw,
        });
      expect(response.statusCode, response.body).toBe(200);
    };
    // Another account's webhook with this account's Message-ID changes nothing.
    const other = await signUpUser(t());
    await post(other.client, reply('rae@x.io', idOf('rae@x.io')));
    // An out-of-office (RFC 3834 Auto-Submitted) does not end oof's enrolment.
    await post(client, reply('oof@x.io', idOf('oof@x.io'), ['Auto-Submitted: auto-replied']));
    // One that says so only in its subject, as some mail systems do (the bounce classifier's auto-reply kind).
    await post(client, reply('oof@x.io', idOf('oof@x.io'), ['X-Autoreply: yes'], 'Out of Office: Re: Welcome'));
    expect((await enrolmentStates(t, user.id)).map((e) => e.state)).toEqual(['active', 'active']);

    await post(client, reply('rae@x.io', idOf('rae@x.io')));
    expect(await enrolmentStates(t, user.id)).toEqual([
      { sequence: sequence.id, email: 'oof@x.io', state: 'active', exitReason: null },
      { sequence: sequence.id, email: 'rae@x.io', state: 'exited', exitReason: 'replied' },
    ]);
    // Rae is not suppressed: a reply ends the sequence, not the subscription.
    expect(await rows(t, `SELECT email FROM suppressions WHERE user_id = $1`, [user.id])).toEqual([]);
    // A second in the past: the advancer's clock is the app's, in milliseconds, and Postgres's now()
    // (microseconds) can lie later within the same millisecond.
    await t().ctx.database.raw.executeSql(
      `UPDATE sequence_enrolments SET next_run_at = now() - interval '1 second' WHERE user_id = $1 AND state = 'active'`,
      [user.id],
    );
    expect((await sendDue(t, [sequence.id])).flatMap((m) => m.to)).toEqual(['oof@x.io']);
  });

  it('records opens and clicks in the event log and the contact’s engagement, once per message', async () => {
    const { client, user } = await signUpUser(t());
    const sequence = await newSequence(client, 'Engaging');
    await enrol(t, client, user.id, sequence.id, ['eve@x.io']);
    const [message] = await sendDue(t, [sequence.id]);
    const [send] = await rows<{ id: number }>(t, `SELECT id FROM sequence_sends WHERE user_id = $1`, [user.id]);
    const token = signSequenceToken(t().ctx.config.sessionSecret, send?.id ?? 0);
    // The sender viewing it in the Outbox sees it untracked: no pixel, links straight to the shop.
    const html = typeof message?.parsed.html === 'string' ? message.parsed.html : '';
    expect(html).toContain(`/t/c/${token}/0`);
    const untracked = await withoutTracking(t().ctx.db, t().ctx.config.sessionSecret, html, null);
    expect(untracked).toContain('href="https://shop.example/new"');
    expect(untracked).not.toMatch(/\/t\/(c|o)\//);
    const anon = t().client();
    expect((await anon.get(`/t/o/${token}`)).statusCode).toBe(200);
    expect((await anon.get(`/t/o/${token}`)).statusCode).toBe(200);
    expect((await anon.get(`/t/c/${token}/0`)).headers.location).toBe('https://shop.example/new');
    expect((await anon.get(`/t/c/${token}/0`)).statusCode).toBe(302);
    expect(
      await rows(
        t,
        `SELECT type, campaign_id AS "campaignId", sequence_id AS "sequenceId", sequence_send_id AS "sendId", detail
         FROM email_events WHERE user_id = $1 ORDER BY id`,
        [user.id],
      ),
    ).toEqual([
      { type: 'open', campaignId: null, sequenceId: sequence.id, sendId: send?.id, detail: null },
      {
        type: 'click',
        campaignId: null,
        sequenceId: sequence.id,
        sendId: send?.id,
        detail: 'https://shop.example/new',
      },
      {
        type: 'click',
        campaignId: null,
        sequenceId: sequence.id,
        sendId: send?.id,
        detail: 'https://shop.example/new',
      },
    ]);
    const [contact] = await rows<{ opened: number; clicked: number; score: number }>(
      t,
      `SELECT total_emails_opened AS opened, total_emails_clicked AS clicked, engagement_score AS score
       FROM contacts WHERE user_id = $1 AND email = 'eve@x.io'`,
      [user.id],
    );
    expect(contact).toEqual({ opened: 1, clicked: 1, score: 4 + 8 + 20 });
    const [times] = await rows<{ opened: boolean; clicked: boolean }>(
      t,
      `SELECT opened_at IS NOT NULL AS opened, clicked_at IS NOT NULL AS clicked FROM sequence_sends WHERE id = $1`,
      [send?.id],
    );
    expect(times).toEqual({ opened: true, clicked: true });
  });

  it('enrols contacts a tag is added to (any writer, any case), in the sequence’s account only', async () => {
    const { client, user } = await signUpUser(t());
    await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
    const names = { firstName: 'Tess', lastName: 'Tag' };
    const before = await client.post('/api/contacts', { ...names, email: 'early@x.io', tags: ['vip'] });
    expect(before.statusCode, before.body).toBe(201);
    const created = await client.post('/api/email-sequences', {
      name: 'VIPs',
      flowData: twoEmails,
      status: 'active',
      fromEmail: 'news@acme.example',
      triggerType: 'tag_added',
      triggerConfig: { tag: 'VIP' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const sequence = created.json() as Sequence;
    // After activation: a new contact with the tag, an existing one given it, one given another tag.
    expect(
      (await client.post('/api/contacts', { ...names, email: 'new@x.io', tags: ['Vip', 'news'] })).statusCode,
    ).toBe(201);
    const plain = (await client.post('/api/contacts', { ...names, email: 'plain@x.io' })).json() as { id: number };
    const patched = await client.patch(`/api/contacts/${plain.id}`, { tags: ['VIP'] });
    expect(patched.statusCode, patched.body).toBe(200);
    const otherTag = (await client.post('/api/contacts', { ...names, email: 'other@x.io' })).json() as { id: number };
    await client.patch(`/api/contacts/${otherTag.id}`, { tags: ['news'] });
    // Early already had the tag: touching the contact again adds nothing.
    const early = before.json() as { id: number };
    await client.patch(`/api/contacts/${early.id}`, { tags: ['vip', 'extra'] });
    // Another account's contact gets the same tag.
    const stranger = await signUpUser(t());
    await stranger.client.post('/api/contacts', { ...names, email: 'stranger@x.io', tags: ['VIP'] });

    const settled = new Date(Date.now() + TRIGGER_SETTLE_MS + 1000);
    expect(await runListTriggers(t().ctx.db, undefined, settled)).toBe(2);
    expect(await enrolmentStates(t, user.id)).toEqual([
      { sequence: sequence.id, email: 'new@x.io', state: 'active', exitReason: null },
      { sequence: sequence.id, email: 'plain@x.io', state: 'active', exitReason: null },
    ]);
    expect(await enrolmentStates(t, stranger.user.id)).toEqual([]);
    // Checked once: the next poll enrols nobody again.
    expect(await runListTriggers(t().ctx.db, undefined, new Date(settled.getTime() + 1000))).toBe(0);
  });

  it('counts sequence mail against the plan: past the monthly allowance sends wait, and leave when it allows', async () => {
    const { client, user } = await signUpUser(t(), { plan: 'starter' });
    const sequence = await newSequence(client, 'Metered');
    // 14,999 of the Starter plan's 15,000 emails this month used by test mails.
    await t().ctx.database.raw.executeSql(
      `INSERT INTO campaign_test_sends (user_id, email) SELECT $1, 'me@x.io' FROM generate_series(1, 14999)`,
      [user.id],
    );
    await enrol(t, client, user.id, sequence.id, ['m1@x.io', 'm2@x.io', 'm3@x.io']);
    const first = await sendDue(t, [sequence.id]);
    expect(first).toHaveLength(1);
    const statuses = async () =>
      (
        await rows<{ status: string; n: number }>(
          t,
          `SELECT status, count(*)::int AS n FROM sequence_sends WHERE user_id = $1 GROUP BY status ORDER BY status`,
          [user.id],
        )
      ).map((row) => `${row.status}:${row.n}`);
    expect(await statuses()).toEqual(['queued:2', 'sent:1']);
    // The month's figure counts the sequence email (the Billing page and campaign sends read it).
    expect((await client.get('/api/billing/usage')).json()).toMatchObject({
      emailsThisMonth: { used: 15000, limit: 15000 },
    });
    // Sending paused by billing also holds them.
    await t().ctx.database.raw.executeSql(`DELETE FROM campaign_test_sends WHERE user_id = $1`, [user.id]);
    await t().ctx.database.raw.executeSql(`UPDATE users SET subscription_status = 'canceled' WHERE id = $1`, [user.id]);
    expect(await sendDue(t, [sequence.id])).toHaveLength(0);
    expect(await statuses()).toEqual(['queued:2', 'sent:1']);
    // The plan allows again: the queued sends leave, none lost, none twice.
    await t().ctx.database.raw.executeSql(`UPDATE users SET subscription_status = 'active' WHERE id = $1`, [user.id]);
    const rest = await sendDue(t, [sequence.id]);
    expect(rest.flatMap((m) => m.to).sort()).toEqual(
      ['m1@x.io', 'm2@x.io', 'm3@x.io'].filter((e) => !first[0]?.to.includes(e)),
    );
    expect(await statuses()).toEqual(['sent:3']);
  });
  it('warns of the plan’s monthly emails at 80% and 100% as sequence mail crosses them, once per month', async () => {
    const { client, user } = await signUpUser(t(), { plan: 'starter' });
    const sequence = await newSequence(client, 'Warned');
    const monthlyWarnings = async () =>
      (
        (await client.get('/api/notifications')).json() as { notifications: { title: string; body: string }[] }
      ).notifications
        .filter((n) => n.title.includes('monthly'))
        .map((n) => n.body);
    // 11,999 of the Starter plan's 15,000 emails used: the next two cross 80% (12,000).
    await t().ctx.database.raw.executeSql(
      `INSERT INTO campaign_test_sends (user_id, email) SELECT $1, 'me@x.io' FROM generate_series(1, 11999)`,
      [user.id],
    );
    await enrol(t, client, user.id, sequence.id, ['w1@x.io', 'w2@x.io']);
    expect(await sendDue(t, [sequence.id])).toHaveLength(2);
    expect(await monthlyWarnings()).toEqual(['12,001 of 15,000 emails this month on your Starter plan.']);
    // More mail under 100% warns no more.
    await enrol(t, client, user.id, sequence.id, ['w3@x.io']);
    expect(await sendDue(t, [sequence.id])).toHaveLength(1);
    expect(await monthlyWarnings()).toHaveLength(1);
    // Up to 14,999: the next email reaches 100%, and is the last to leave.
    await t().ctx.database.raw.executeSql(
      `INSERT INTO campaign_test_sends (user_id, email) SELECT $1, 'me@x.io' FROM generate_series(1, 2997)`,
      [user.id],
    );
    await enrol(t, client, user.id, sequence.id, ['w4@x.io', 'w5@x.io']);
    expect(await sendDue(t, [sequence.id])).toHaveLength(1);
    expect(await monthlyWarnings()).toEqual([
      '15,000 of 15,000 emails this month on your Starter plan. Upgrade on the Billing page to send more this month.',
      '12,001 of 15,000 emails this month on your Starter plan.',
    ]);
    // The waiting send trying again changes nothing: no second warning.
    expect(await sendDue(t, [sequence.id])).toHaveLength(0);
    expect(await monthlyWarnings()).toHaveLength(2);
  });
});
