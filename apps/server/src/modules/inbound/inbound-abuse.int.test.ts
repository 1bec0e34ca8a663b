import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import type { EmailAlias, AliasActivity } from '@sendwell/contract/aliases';
import type { Domain } from '@sendwell/contract/domains';
import {
  followConfirmationLink,
  signUpUser,
  useTestApp,
  type TestApp,
  type TestClient,
} from '../../../test/build-app.ts';
import { startTestDnsServer } from '../../../test/dns-server.ts';
import { runForwardJobs } from '../../../test/forward-jobs.ts';
import { senderDomain } from '../../../test/signed-mail.ts';
import { startSmtpSink, type ReceivedMessage } from '../../../test/smtp-sink.ts';
import { emailsSentThisMonth } from '../billing/index.ts';
import { AUTO_REPLIES_PER_ACCOUNT_PER_HOUR } from './alias-mail.ts';
import { sendForwards } from './forwarder.ts';
import { recoverForwards } from './forwarding.jobs.ts';
import { receiveInbound } from './pipeline.ts';
import { startInboundSmtpServer, type InboundSmtpServer } from './smtp-server.ts';

/**
 * Issue 27, the inbound half: nobody can make Sendwell mail strangers through its inbound side
 * (auto-replies, the SRS reverse path), and one bad message cannot stall the queue. Each test is
 * named after the finding it closes.
 */

const dns = await startTestDnsServer();
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink.close();
  await dns.close();
});

const receivedTo = (to: string) => sink.received.filter((m) => m.to.includes(to));
const fromAlias = (alias: string) => sink.received.filter((m) => m.parsed.from?.value[0]?.address === alias);

let counter = 0;
function rawMessage(input: { from: string; to: string; subject?: string; body?: string; extra?: string[] }): string {
  counter += 1;
  return [
    `From: Someone <${input.from}>`,
    `To: ${input.to}`,
    `Subject: ${input.subject ?? `Hello ${counter}`}`,
    `Message-ID: <abuse-${counter}-${Date.now()}@${input.from.split('@')[1] ?? 'x.example'}>`,
    'Date: Tue, 24 Nov 2026 10:00:00 +0000',
    'MIME-Version: 1.0',
    ...(input.extra ?? []),
    'Content-Type: text/plain; charset=utf-8',
    '',
    input.body ?? 'Body line one.',
    '',
  ].join('\r\n');
}

async function rows(t: TestApp, sql: string, params: unknown[] = []) {
  return (await t.ctx.database.raw.executeSql(sql, params)).rows as Record<string, unknown>[];
}

async function addDomain(client: TestClient, name: string, verify: boolean): Promise<Domain> {
  const added = await client.post('/api/domains', { domain: name });
  expect(added.statusCode, added.body).toBe(201);
  const domain = added.json() as Domain;
  if (!verify) return domain;
  for (const record of domain.records) dns.setTxt(record.host, [record.value]);
  const verified = (await client.post(`/api/domains/${domain.id}/verify`)).json() as Domain;
  expect(verified.isVerified).toBe(true);
  return verified;
}

function forwardingLinkIn(message: ReceivedMessage | undefined): string {
  const link = /https?:\/\/\S+\/confirm-forwarding\?token=\S+/.exec(message?.parsed.text ?? '')?.[0];
  if (!link) throw new Error(`no forwarding confirmation link in ${message?.parsed.subject}`);
  return link;
}

const confirmationsTo = (email: string) =>
  receivedTo(email).filter((m) => /confirm-forwarding\?token=/.test(m.parsed.text ?? ''));

/** Creates the alias; a destination it names is confirmed by the link mailed to it (when one was). */
async function addAlias(t: TestApp, client: TestClient, domain: Domain, body: Record<string, unknown>) {
  const destination = body.destination as string | undefined;
  const before = destination ? confirmationsTo(destination).length : 0;
  const created = await client.post(`/api/domains/${domain.id}/aliases`, body);
  expect(created.statusCode, created.body).toBe(201);
  if (destination && confirmationsTo(destination).length > before)
    await followConfirmationLink(t.client(), forwardingLinkIn(confirmationsTo(destination).at(-1)));
  return created.json() as EmailAlias;
}

async function tokenOf(client: TestClient): Promise<string> {
  return ((await client.get('/api/webhook/email-address')).json() as { token: string }).token;
}

function postWebhook(t: TestApp, token: string, payload: object | string, contentType?: string) {
  return t.client().request({
    method: 'POST',
    url: '/api/webhook/email',
    headers: { 'x-sendwell-token': token, ...(contentType ? { 'content-type': contentType } : {}) },
    payload,
  });
}

const json = (raw: string, envelope?: Record<string, unknown>) => ({
  raw: Buffer.from(raw).toString('base64'),
  ...(envelope ? { envelope } : {}),
});

async function smtpDialogue(port: number, commands: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const lines: string[] = [];
    let buffer = '';
    let next = 0;
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      const parts = buffer.split('\r\n');
      buffer = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        if (/^\d{3} /.test(line) && next < commands.length) socket.write(`${commands[next++]}\r\n`);
      }
    });
    socket.on('close', () => resolve(lines));
    socket.on('error', reject);
  });
}

describe('issue 27 (inbound): nobody makes Sendwell mail strangers, and one bad message stalls nothing', () => {
  const t = useTestApp(() => ({ SMTP_URL: sink.url, DNS_SERVERS: dns.server, MAIL_FROM_DOMAIN: 'mail.sendwell.test' }));
  let smtp: InboundSmtpServer;
  let owner: Awaited<ReturnType<typeof signUpUser>>;
  let ownerToken: string;
  let owned: Domain;
  const people = () => senderDomain(dns, 'people.example', { spf: true });
  let signer: ReturnType<typeof senderDomain>;

  const smtpClient = () =>
    nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
  const sendSmtp = (from: string, to: string[], raw: string) => smtpClient().sendMail({ envelope: { from, to }, raw });

  beforeAll(async () => {
    smtp = await startInboundSmtpServer(t().ctx, { port: 0, host: '127.0.0.1', log: () => undefined });
    owner = await signUpUser(t());
    ownerToken = await tokenOf(owner.client);
    owned = await addDomain(owner.client, 'owned.example', true);
    await addAlias(t(), owner.client, owned, {
      alias: 'help',
      destination: 'boss@dest.example',
      forwardingType: 'simple',
      autoReply: true,
      autoReplyMessage: 'We got your message.',
    });
    signer = people();
  });
  afterAll(async () => {
    await smtp.close();
  });

  it('finding 1, unverified domain: its auto-reply sends nothing and counts nothing, by the webhook and by SMTP', async () => {
    // An account that never proved the domain: the owner's name added again, and a name nobody verified.
    const attacker = await signUpUser(t());
    const token = await tokenOf(attacker.client);
    const stolen = await addDomain(attacker.client, 'owned.example', false);
    const unproven = await addDomain(attacker.client, 'unproven.example', false);
    for (const domain of [stolen, unproven]) {
      const alias = await attacker.client.post(`/api/domains/${domain.id}/aliases`, {
        alias: 'security',
        forwardingType: 'simple',
        autoReply: true,
        autoReplyMessage: 'Reset your password at https://evil.example',
      });
      expect(alias.statusCode, alias.body).toBe(201);
    }
    const before = sink.received.length;
    for (const to of ['security@owned.example', 'security@unproven.example']) {
      // The webhook: the account's own token, the victim named as the envelope sender.
      const posted = await postWebhook(
        t(),
        token,
        json(rawMessage({ from: 'victim@victim.example', to }), { from: 'victim@victim.example', to: [to] }),
      );
      expect(posted.statusCode, posted.body).toBe(200);
      expect(posted.json()).not.toMatchObject({ handled: 'routed' });
      // SMTP: refused at RCPT (no alias on a verified domain has that name).
      await expect(
        sendSmtp('victim@victim.example', [to], rawMessage({ from: 'victim@victim.example', to })),
      ).rejects.toMatchObject({
        responseCode: 550,
      });
    }
    await runForwardJobs(t());
    expect(receivedTo('victim@victim.example')).toHaveLength(0);
    expect(sink.received.length).toBe(before);
    expect(await rows(t(), 'SELECT id FROM alias_forwards WHERE user_id = $1', [attacker.user.id])).toHaveLength(0);
    expect(await emailsSentThisMonth(t().ctx.db, attacker.user.id)).toBe(0);
  });

  it('finding 1, a domain that loses its verification before the auto-reply goes: nothing is sent or counted (SMTP)', async () => {
    const account = await signUpUser(t());
    const domain = await addDomain(account.client, 'fading.example', true);
    await addAlias(t(), account.client, domain, {
      alias: 'away',
      forwardingType: 'simple',
      autoReply: true,
      autoReplyMessage: 'Away.',
    });
    // A sender whose SPF passes: the reply would be due.
    await sendSmtp(
      'gale@people.example',
      ['away@fading.example'],
      rawMessage({ from: 'gale@people.example', to: 'away@fading.example' }),
    );
    // The DKIM record is gone before the job runs, and the next check finds it so.
    const dkim = domain.records.find((record) => record.kind === 'dkim');
    dns.remove(dkim?.host ?? '');
    const rechecked = (await account.client.post(`/api/domains/${domain.id}/verify`)).json() as Domain;
    expect(rechecked.isVerified).toBe(false);
    await runForwardJobs(t());
    expect(receivedTo('gale@people.example')).toHaveLength(0);
    const [reply] = await rows(t(), `SELECT status, error FROM alias_forwards WHERE user_id = $1`, [account.user.id]);
    expect(reply).toMatchObject({ status: 'failed', error: expect.stringMatching(/not verified/) });
    expect(await emailsSentThisMonth(t().ctx.db, account.user.id)).toBe(0);
    const awayId = (await rows(t(), `SELECT id FROM email_aliases WHERE user_id = $1`, [account.user.id]))[0]
      ?.id as number;
    const activity = (await account.client.get(`/api/email-aliases/${awayId}/activity`)).json() as AliasActivity[];
    expect(activity[0]).toMatchObject({
      outcome: 'failed',
      detail: expect.stringMatching(/^Auto-reply to gale@people\.example failed: .*not verified/),
    });
  });

  it('finding 1, backscatter: an authenticated sender gets one auto-reply (DKIM by webhook, SPF over SMTP); a forged one none', async () => {
    const sentBefore = await emailsSentThisMonth(t().ctx.db, owner.user.id);
    // Forged over SMTP: the victim's domain publishes no SPF naming us, the message is unsigned.
    await sendSmtp(
      'victim@victim.example',
      ['help@owned.example'],
      rawMessage({ from: 'victim@victim.example', to: 'help@owned.example' }),
    );
    // Forged through the webhook: the envelope names the victim, nothing in the message proves it.
    await postWebhook(
      t(),
      ownerToken,
      json(rawMessage({ from: 'victim2@victim.example', to: 'help@owned.example' }), {
        from: 'victim2@victim.example',
        to: ['help@owned.example'],
      }),
    );
    // A signed message from people.example whose envelope names a victim: the reply goes to the proven From.
    await postWebhook(
      t(),
      ownerToken,
      json(
        signer.sign(
          rawMessage({
            from: 'erin@people.example',
            to: 'help@owned.example',
            subject: 'Question about pricing',
            body: 'ATTACKER CHOSEN TEXT https://evil.example',
          }),
        ),
        { from: 'victim3@victim.example', to: ['help@owned.example'] },
      ),
    );
    // SPF passes for 127.0.0.1 at people.example, and the From is the same domain.
    const spfRaw = rawMessage({ from: 'dan@people.example', to: 'help@owned.example', subject: 'By SPF' });
    await sendSmtp('dan@people.example', ['help@owned.example'], spfRaw);
    // Once per sender per 7 days (kept): the same sender again gets nothing more.
    await sendSmtp(
      'dan@people.example',
      ['help@owned.example'],
      rawMessage({ from: 'dan@people.example', to: 'help@owned.example' }),
    );
    await runForwardJobs(t());

    for (const victim of ['victim@victim.example', 'victim2@victim.example', 'victim3@victim.example'])
      expect(receivedTo(victim), victim).toHaveLength(0);
    const replies = fromAlias('help@owned.example');
    expect(replies.map((m) => m.to[0]).sort()).toEqual(['dan@people.example', 'erin@people.example']);
    const toErin = replies.find((m) => m.to[0] === 'erin@people.example') as ReceivedMessage;
    expect(toErin.parsed.subject).toBe('Re: Question about pricing');
    expect(toErin.parsed.text).toContain('We got your message.');
    expect(toErin.raw).not.toContain('ATTACKER CHOSEN TEXT');
    expect(toErin.raw).not.toContain('evil.example');
    expect(toErin.raw).toMatch(/DKIM-Signature:[^]*d=owned\.example/);
    // Counted against the plan: the two replies and the forwards to the owner's destination.
    const forwarded = (
      await rows(t(), `SELECT id FROM alias_forwards WHERE user_id = $1 AND status = 'sent'`, [owner.user.id])
    ).length;
    expect(await emailsSentThisMonth(t().ctx.db, owner.user.id)).toBe(forwarded);
    expect(forwarded - sentBefore).toBeGreaterThanOrEqual(2);
    // The activity log says why the forged senders got nothing.
    const helpId = (await rows(t(), `SELECT id FROM email_aliases WHERE alias = 'help'`))[0]?.id as number;
    const activity = (await owner.client.get(`/api/email-aliases/${helpId}/activity`)).json() as AliasActivity[];
    expect(activity.find((entry) => entry.from === 'victim@victim.example')).toBeDefined();
  });

  it('finding 1, at most 100 auto-replies per account per hour, counted as they are taken; another account is not held by it', async () => {
    const account = await signUpUser(t());
    const domain = await addDomain(account.client, 'busy.example', true);
    await addAlias(t(), account.client, domain, {
      alias: 'desk',
      forwardingType: 'simple',
      autoReply: true,
      autoReplyMessage: 'Hi.',
    });
    const other = await signUpUser(t());
    const otherDomain = await addDomain(other.client, 'calm.example', true);
    await addAlias(t(), other.client, otherDomain, {
      alias: 'desk',
      forwardingType: 'simple',
      autoReply: true,
      autoReplyMessage: 'Hi.',
    });
    const send = (userId: string, to: string, n: number) =>
      receiveInbound(t().ctx, {
        raw: Buffer.from(rawMessage({ from: `s${n}@senders.example`, to })),
        envelope: { mailFrom: `s${n}@senders.example`, rcptTo: [to] },
        via: 'test',
        userId,
      });
    const total = AUTO_REPLIES_PER_ACCOUNT_PER_HOUR + 5;
    for (let start = 0; start < total; start += 15)
      await Promise.all(
        Array.from({ length: Math.min(15, total - start) }, (_, i) =>
          send(account.user.id, 'desk@busy.example', start + i),
        ),
      );
    const replies = await rows(t(), `SELECT id FROM alias_forwards WHERE user_id = $1 AND kind = 'auto_reply'`, [
      account.user.id,
    ]);
    expect(replies).toHaveLength(AUTO_REPLIES_PER_ACCOUNT_PER_HOUR);
    const result = await send(other.user.id, 'desk@calm.example', 1);
    expect(result.recipients[0]?.decision?.autoReply).not.toBeNull();
  });

  it('finding 2, the SRS reverse path relays one null-sender DSN, refuses a normal message (550) and a second relay; webhook senders mint no SRS address', async () => {
    await sendSmtp(
      'carol@origin.example',
      ['help@owned.example'],
      rawMessage({ from: 'carol@origin.example', to: 'help@owned.example', subject: 'will bounce' }),
    );
    await runForwardJobs(t());
    const forward = receivedTo('boss@dest.example').find((m) => m.parsed.subject === 'will bounce');
    const srs = forward?.from ?? '';
    expect(srs).toMatch(/^SRS0=/);
    const sentBefore = await emailsSentThisMonth(t().ctx.db, owner.user.id);

    // A normal message to the SRS address: refused at RCPT (a sender) and at DATA (the null sender, no report).
    await expect(
      sendSmtp('spammer@junk.example', [srs], rawMessage({ from: 'spammer@junk.example', to: srs })),
    ).rejects.toMatchObject({
      responseCode: 550,
    });
    await expect(
      sendSmtp('', [srs], rawMessage({ from: 'spammer@junk.example', to: srs, body: 'Buy now' })),
    ).rejects.toMatchObject({
      responseCode: 550,
    });
    const dsn = (n: number) =>
      [
        'From: Mail Delivery System <MAILER-DAEMON@dest.example>',
        `To: ${srs}`,
        `Subject: Undelivered Mail Returned to Sender ${n}`,
        `Message-ID: <dsn-${n}-${Date.now()}@dest.example>`,
        'MIME-Version: 1.0',
        'Content-Type: multipart/report; report-type=delivery-status; boundary="r1"',
        '',
        '--r1',
        'Content-Type: text/plain',
        '',
        'The mail system: <boss@dest.example>: mailbox full',
        '--r1',
        'Content-Type: message/delivery-status',
        '',
        'Reporting-MTA: dns; dest.example',
        '',
        'Final-Recipient: rfc822; boss@dest.example',
        'Action: failed',
        'Status: 5.2.2',
        '--r1--',
        '',
      ].join('\r\n');
    await sendSmtp('', [srs], dsn(1));
    await sendSmtp('', [srs], dsn(2));
    await runForwardJobs(t());
    const relayed = receivedTo('carol@origin.example');
    expect(relayed).toHaveLength(1);
    expect(relayed[0]?.from).toBe('');
    expect(relayed[0]?.raw).toMatch(/DKIM-Signature:[^]*d=owned\.example/);
    expect(await emailsSentThisMonth(t().ctx.db, owner.user.id)).toBe(sentBefore + 1);

    // A forward of a webhook post: its envelope.from is the poster's word, so no SRS address is minted for it.
    await postWebhook(
      t(),
      ownerToken,
      json(rawMessage({ from: 'target@target.example', to: 'help@owned.example', subject: 'from the webhook' }), {
        from: 'target@target.example',
        to: ['help@owned.example'],
      }),
    );
    await runForwardJobs(t());
    const viaWebhook = receivedTo('boss@dest.example').find((m) => m.parsed.subject === 'from the webhook');
    expect(viaWebhook?.from).toBe('bounces@owned.example');
    expect(
      await rows(t(), `SELECT address FROM srs_return_paths WHERE original_sender = 'target@target.example'`),
    ).toHaveLength(0);
  });

  it('finding 3, a bad envelope.from answers 400 naming the field, and another account’s forward in the same second goes out within 5 s', async () => {
    const bad = [
      'no-at-sign',
      'a@b.example, c@d.example',
      '<a@b.example>,<c@d.example>',
      'a@b.example\r\nBcc: x@y.example',
    ];
    const messagesBefore = (await rows(t(), 'SELECT id FROM alias_messages')).length;
    for (const from of bad) {
      const response = await postWebhook(
        t(),
        ownerToken,
        json(rawMessage({ from: 'x@y.example', to: 'help@owned.example' }), { from, to: ['help@owned.example'] }),
      );
      expect(response.statusCode, from).toBe(400);
      expect(response.json().message, from).toMatch(/envelope\.from/);
    }
    const badTo = await postWebhook(
      t(),
      ownerToken,
      json(rawMessage({ from: 'x@y.example', to: 'help@owned.example' }), { to: ['a@b.example\nc'] }),
    );
    expect(badTo.statusCode).toBe(400);
    expect(badTo.json().message).toMatch(/envelope\.to/);
    const multipart = await postWebhook(
      t(),
      ownerToken,
      [
        '--b',
        'Content-Disposition: form-data; name="sender"',
        '',
        'no-at-sign',
        '--b',
        'Content-Disposition: form-data; name="email"',
        '',
        rawMessage({ from: 'x@y.example', to: 'help@owned.example' }),
        '--b--',
        '',
      ].join('\r\n'),
      'multipart/form-data; boundary=b',
    );
    expect(multipart.statusCode, multipart.body).toBe(400);
    expect(multipart.json().message).toMatch(/envelope\.from/);
    expect(await rows(t(), 'SELECT id FROM alias_messages')).toHaveLength(messagesBefore);

    // A row a bad sender made before this check existed (stored as SMTP mail): it shares a batch with
    // another account's forward that arrived in the same second.
    const other = await signUpUser(t());
    const otherDomain = await addDomain(other.client, 'other.example', true);
    await addAlias(t(), other.client, otherDomain, {
      alias: 'info',
      destination: 'other-boss@dest.example',
      forwardingType: 'simple',
    });
    await receiveInbound(t().ctx, {
      raw: Buffer.from(rawMessage({ from: 'x@y.example', to: 'info@other.example', subject: 'stuck row' })),
      envelope: { mailFrom: 'no-at-sign', rcptTo: ['info@other.example'] },
      via: 'smtp',
    });
    await postWebhook(
      t(),
      ownerToken,
      json(rawMessage({ from: 'x@y.example', to: 'help@owned.example', subject: 'same second' })),
    );
    const ids = (await rows(t(), `SELECT id FROM alias_forwards WHERE status = 'pending' ORDER BY id`)).map((row) =>
      Number(row.id),
    );
    expect(ids.length).toBeGreaterThanOrEqual(2);
    const started = Date.now();
    await sendForwards(t().ctx, ids);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(receivedTo('boss@dest.example').filter((m) => m.parsed.subject === 'same second')).toHaveLength(1);
    const [stuck] = await rows(t(), `SELECT status, error, attempts FROM alias_forwards WHERE user_id = $1`, [
      other.user.id,
    ]);
    expect(stuck).toMatchObject({ status: 'failed', attempts: 1, error: expect.stringMatching(/envelope sender/) });
    const infoId = (await rows(t(), `SELECT id FROM email_aliases WHERE user_id = $1`, [other.user.id]))[0]
      ?.id as number;
    const activity = (await other.client.get(`/api/email-aliases/${infoId}/activity`)).json() as AliasActivity[];
    expect(activity[0]).toMatchObject({ outcome: 'failed' });

    // A forward a dead process left 'sending' (its claim no longer renewed) is swept up within a minute.
    await postWebhook(
      t(),
      ownerToken,
      json(rawMessage({ from: 'x@y.example', to: 'help@owned.example', subject: 'dead worker' })),
    );
    const [dead] = await rows(t(), `SELECT id FROM alias_forwards WHERE status = 'pending' ORDER BY id DESC LIMIT 1`);
    await rows(
      t(),
      `UPDATE alias_forwards SET status = 'sending', claim_token = 'dead', claimed_at = now() - interval '30 seconds', attempts = 1 WHERE id = $1`,
      [dead?.id],
    );
    expect(await recoverForwards(t().ctx)).toBeGreaterThanOrEqual(1);
    await runForwardJobs(t());
    expect(receivedTo('boss@dest.example').filter((m) => m.parsed.subject === 'dead worker')).toHaveLength(1);
  });

  it('finding 5, a NUL in a subject: 400 on the webhook, 554 over SMTP, never 500 or 451; other controls are removed', async () => {
    const withNul = rawMessage({ from: 'x@y.example', to: 'help@owned.example', subject: 'nul\u0000here' });
    const webhook = await postWebhook(t(), ownerToken, withNul, 'message/rfc822');
    expect(webhook.statusCode, webhook.body).toBe(400);
    expect((await postWebhook(t(), ownerToken, json(withNul))).statusCode).toBe(400);
    const lines = await smtpDialogue(smtp.port, [
      'EHLO test',
      'MAIL FROM:<x@y.example>',
      'RCPT TO:<help@owned.example>',
      'DATA',
      `${withNul.replace(/\r\n\./g, '\r\n..')}\r\n.`,
      'QUIT',
    ]);
    expect(lines.some((line) => line.startsWith('554 5.6.0'))).toBe(true);
    expect(lines.some((line) => /^(451|5\d\d 4)/.test(line))).toBe(false);
    // An encoded NUL, and a control character where RFC 5322's obsolete syntax allows one: taken, without them.
    const encoded = rawMessage({
      from: 'x@y.example',
      to: 'help@owned.example',
      subject: '=?utf-8?q?enc=00oded?= ctl\u0001x',
    });
    const taken = await postWebhook(t(), ownerToken, encoded, 'message/rfc822');
    expect(taken.statusCode, taken.body).toBe(200);
    expect(await rows(t(), `SELECT subject FROM alias_messages WHERE subject LIKE 'enc%'`)).toEqual([
      { subject: 'encoded ctlx' },
    ]);
  });

  it('finding 6, bounces@ an unknown host is refused at RCPT; bounces@ a host we serve is taken', async () => {
    const lines = await smtpDialogue(smtp.port, [
      'EHLO test',
      'MAIL FROM:<>',
      'RCPT TO:<bounces@unknown.example>',
      'RCPT TO:<bounces@owned.example>',
      'RCPT TO:<bounces@mail.sendwell.test>',
      'QUIT',
    ]);
    const answers = lines.filter((line) => /^\d{3} /.test(line)).slice(3, 6);
    expect(answers[0]).toMatch(/^550 5\.1\.1/);
    expect(answers[1]).toMatch(/^250/);
    expect(answers[2]).toMatch(/^250/);
  });

  it('finding 6, 101 recipients: the 101st gets 452', async () => {
    await addAlias(t(), owner.client, owned, {
      alias: '*',
      destination: 'boss@dest.example',
      forwardingType: 'simple',
    });
    const rcpts = Array.from({ length: 101 }, (_, i) => `RCPT TO:<r${i}@owned.example>`);
    const lines = await smtpDialogue(smtp.port, ['EHLO test', 'MAIL FROM:<x@y.example>', ...rcpts, 'QUIT']);
    const answers = lines.filter((line) => /^\d{3} /.test(line)).slice(3, 3 + 101);
    expect(answers.slice(0, 100).every((line) => line.startsWith('250'))).toBe(true);
    expect(answers[100]).toMatch(/^452 4\.5\.3/);
  });
});
