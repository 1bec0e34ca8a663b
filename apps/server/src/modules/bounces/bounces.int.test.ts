import type { AddressInfo } from 'node:net';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';
import { runSendJobs } from '../../../test/send-jobs.ts';
import { arf, qmailNotice } from '../../../test/feedback-reports.ts';
import { sentCampaign } from '../../../test/sent-campaign.ts';
import { startSmtpSink, type ReceivedMessage } from '../../../test/smtp-sink.ts';
import { startInboundSmtpServer } from '../inbound/index.ts';
import { handleBounceMessage, isBounceAddress, SOFT_BOUNCE_LIMIT } from './bounces.service.ts';

/** The test app, as useTestApp hands it out. */
type TestApp = ReturnType<typeof useTestApp>;

const BOUNCE_DOMAIN = 'bounces.sendwell.test';
const VERP = /^bounces\+s[0-9a-z]+-[0-9a-f]{16}@bounces\.sendwell\.test$/;

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink.close();
});

/**
 * An inbound SMTP server as the inbound pipeline runs one (smtp-server): RCPT to a bounce address is
 * accepted only when isBounceAddress says so, and the message is handed to handleBounceMessage with
 * its envelope recipient. Answers what each message was read as.
 */
async function startBounceReceiver(t: TestApp) {
  const verdicts: Awaited<ReturnType<typeof handleBounceMessage>>[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (isBounceAddress(t().ctx.config, address.address)) return callback();
      const error = new Error('5.1.1 No such bounce address') as Error & { responseCode: number };
      error.responseCode = 550;
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const envelopeTo = session.envelope.rcptTo[0]?.address ?? null;
        handleBounceMessage(t().ctx, { raw: Buffer.concat(chunks), envelopeTo }).then(
          (verdict) => {
            verdicts.push(verdict);
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const client = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  return {
    verdicts,
    /** Sends a bounce to `to` as a receiving MTA does: null sender, the return path as recipient. */
    bounce: (to: string, raw: string) => client.sendMail({ envelope: { from: '', to: [to] }, raw }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const rows = async (t: TestApp, sql: string, params: unknown[]) =>
  (await t().ctx.database.raw.executeSql(sql, params)).rows as Record<string, unknown>[];

/** Sends a new campaign to a list and runs its send jobs. */
async function campaignTo(t: TestApp, client: TestClient, listId: number, name: string): Promise<void> {
  const campaign = (
    await client.post('/api/campaigns', {
      name,
      subject: 'Hi',
      fromEmail: 'news@acme.example',
      content: { html: '' },
      blocks: [{ id: 'b1', type: 'text', content: { text: 'Hello', tag: 'p' } }],
      listIds: [listId],
    })
  ).json() as { id: number };
  expect((await client.post(`/api/campaigns/${campaign.id}/send`)).statusCode).toBe(200);
  await runSendJobs(t());
}

const putSettings = (client: TestClient, settings: unknown) =>
  client.request({ method: 'PUT', url: '/api/bounce-settings', payload: settings as Record<string, unknown> });

async function webhookToken(client: TestClient): Promise<string> {
  return ((await client.get('/api/webhook/email-address')).json() as { token: string }).token;
}

describe('VERP return paths and the bounce handler', () => {
  const t = useTestApp(() => ({ SMTP_URL: sink.url, BOUNCE_DOMAIN }));

  it('gives every campaign message its own signed return path, and a bounce to it comes back to its send row', async () => {
    const { client, user } = await signUpUser(t());
    const before = sink.received.length;
    const { id, sends } = await sentCampaign(t(), client, 'Verp', 3);
    const delivered = sink.received.slice(before);
    expect(delivered).toHaveLength(3);
    const returnPaths = delivered.map((m: ReceivedMessage) => m.from);
    for (const returnPath of returnPaths) expect(returnPath).toMatch(VERP);
    expect(new Set(returnPaths).size).toBe(3);

    const receiver = await startBounceReceiver(t);
    try {
      const [first] = sends;
      const message = delivered.find((m) => m.to.includes(first?.email ?? ''));
      const returnPath = message?.from ?? '';
      // The notice names no Message-ID; the return path alone ties it to the send row.
      await receiver.bounce(
        returnPath,
        qmailNotice(returnPath, first?.email ?? '', 'Sorry, no mailbox here by that name. (#5.1.1)'),
      );
      expect(receiver.verdicts).toEqual([
        { kind: 'bounce', reason: 'user-unknown', hard: true, recipient: first?.email, matched: true },
      ]);
      expect(await rows(t, 'SELECT status FROM campaign_sends WHERE id = $1', [first?.id])).toEqual([
        { status: 'bounced' },
      ]);
      expect(await rows(t, 'SELECT email, reason FROM suppressions WHERE user_id = $1', [user.id])).toEqual([
        { email: first?.email, reason: 'bounce' },
      ]);
      const events = await rows(t, `SELECT detail FROM email_events WHERE campaign_id = $1 AND type = 'bounce'`, [id]);
      expect(events).toEqual([{ detail: 'user-unknown: 5.1.1 Sorry, no mailbox here by that name. (#5.1.1)' }]);
      const report = (await client.get(`/api/campaigns/${id}/report`)).json() as { bouncesByReason: unknown };
      expect(report.bouncesByReason).toEqual([{ reason: 'user-unknown', hard: true, count: 1 }]);

      // A forged or altered token is refused at RCPT and, handed over anyway, changes nothing.
      const [, second] = sends;
      const genuine = delivered.find((m) => m.to.includes(second?.email ?? ''))?.from ?? '';
      const altered = genuine.replace(/-([0-9a-f])/, (_m, c: string) => `-${c === '0' ? '1' : '0'}`);
      const forgedId = genuine.replace(/\+s[0-9a-z]+-/, `+s${(first?.id ?? 1).toString(36)}-`);
      for (const forged of [altered, forgedId, `bounces+s1-0000000000000000@${BOUNCE_DOMAIN}`]) {
        expect(isBounceAddress(t().ctx.config, forged)).toBe(false);
        await expect(receiver.bounce(forged, qmailNotice(forged, second?.email ?? '', '(#5.1.1)'))).rejects.toThrow(
          /550/,
        );
        const verdict = await handleBounceMessage(t().ctx, {
          raw: Buffer.from(qmailNotice(forged, second?.email ?? '', 'Sorry, no mailbox here by that name. (#5.1.1)')),
          envelopeTo: forged,
        });
        expect(verdict).toMatchObject({ kind: 'bounce', matched: false });
      }
      expect(await rows(t, 'SELECT status FROM campaign_sends WHERE id = $1', [second?.id])).toEqual([
        { status: 'sent' },
      ]);
      expect(await rows(t, 'SELECT 1 FROM suppressions WHERE user_id = $1', [user.id])).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('suppresses an address at its third soft bounce within 30 days, not before', async () => {
    const { client, user } = await signUpUser(t());
    const token = await webhookToken(client);
    await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
    const list = (await client.post('/api/contact-lists', { name: 'Soft' })).json() as { id: number };
    await client.post('/api/contacts/import-csv', { csvData: 'email\nsoft0@x.io\n', listId: list.id });
    const sendsOf = async (name: string) => {
      const before = sink.received.length;
      await campaignTo(t, client, list.id, name);
      const [message] = sink.received.slice(before);
      const [send] = await rows(t, 'SELECT id, email FROM campaign_sends WHERE user_id = $1 ORDER BY id DESC LIMIT 1', [
        user.id,
      ]);
      return { send: send as { email: string } | undefined, returnPath: message?.from };
    };
    // The same contact (soft0@x.io) in three campaigns.
    const mailboxFull = (returnPath: string, email: string) =>
      qmailNotice(returnPath, email, 'The users mailfolder is over the allowed quota (size). (#5.2.2)');
    for (let i = 1; i <= SOFT_BOUNCE_LIMIT; i += 1) {
      const { send, returnPath } = await sendsOf(`Soft ${i}`);
      // Forwarded by a mailbox provider to the webhook: the envelope is gone, the To: names the return path.
      const response = await t()
        .client()
        .request({
          method: 'POST',
          url: '/api/webhook/email',
          headers: { 'content-type': 'message/rfc822', 'x-sendwell-token': token },
          payload: mailboxFull(returnPath ?? '', send?.email ?? ''),
        });
      expect(response.json()).toEqual({
        kind: 'bounce',
        reason: 'mailbox-full',
        hard: false,
        recipient: 'soft0@x.io',
        matched: true,
      });
      const suppressed = await rows(t, 'SELECT reason FROM suppressions WHERE user_id = $1', [user.id]);
      expect(suppressed).toEqual(i < SOFT_BOUNCE_LIMIT ? [] : [{ reason: 'bounce' }]);
    }
    expect(
      await rows(t, `SELECT count(*)::int AS n FROM email_events WHERE user_id = $1 AND detail LIKE 'soft: %'`, [
        user.id,
      ]),
    ).toEqual([{ n: SOFT_BOUNCE_LIMIT }]);

    // The next campaign to the address skips it.
    const before = sink.received.length;
    await client.post('/api/contacts/import-csv', { csvData: 'email\nfresh@x.io\n', listId: list.id });
    await campaignTo(t, client, list.id, 'Again');
    expect(sink.received.slice(before).flatMap((m) => m.to)).toEqual(['fresh@x.io']);
  });

  it("does not let account B's webhook act on account A's return path", async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const before = sink.received.length;
    const { sends } = await sentCampaign(t(), a.client, 'Tenant', 1);
    const returnPath = sink.received.slice(before)[0]?.from ?? '';
    expect(returnPath).toMatch(VERP);
    const raw = qmailNotice(returnPath, sends[0]?.email ?? '', 'Sorry, no mailbox here by that name. (#5.1.1)');
    const post = async (token: string) =>
      (
        await t()
          .client()
          .request({
            method: 'POST',
            url: '/api/webhook/email',
            headers: { 'content-type': 'message/rfc822', 'x-sendwell-token': token },
            payload: raw,
          })
      ).json() as { matched: boolean };
    expect((await post(await webhookToken(b.client))).matched).toBe(false);
    expect(await rows(t, 'SELECT 1 FROM suppressions WHERE user_id = $1', [a.user.id])).toEqual([]);
    expect((await post(await webhookToken(a.client))).matched).toBe(true);
    expect(await rows(t, 'SELECT reason FROM suppressions WHERE user_id = $1', [a.user.id])).toEqual([
      { reason: 'bounce' },
    ]);
  });

  it("keeps each account's bounce settings its own, checks them, and acts by them", async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const defaults = {
      suppressHardBounces: true,
      softBounceLimit: 3,
      softBounceWindowDays: 30,
      unsubscribeOnComplaint: true,
    };
    expect((await a.client.get('/api/bounce-settings')).json()).toEqual(defaults);
    const mine = {
      suppressHardBounces: true,
      softBounceLimit: 1,
      softBounceWindowDays: 7,
      unsubscribeOnComplaint: false,
    };
    const saved = await putSettings(a.client, mine);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual(mine);
    expect((await a.client.get('/api/bounce-settings')).json()).toEqual(mine);
    // B sees and changes only its own.
    expect((await b.client.get('/api/bounce-settings')).json()).toEqual(defaults);
    expect((await putSettings(b.client, { ...defaults, softBounceLimit: 5 })).statusCode).toBe(200);
    expect((await a.client.get('/api/bounce-settings')).json()).toEqual(mine);
    // Bad input is refused whole, with the reason; signed out, nothing.
    const bad = await putSettings(a.client, { ...mine, softBounceLimit: 99 });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Enter a whole number of soft bounces from 0 to 20');
    expect((await a.client.get('/api/bounce-settings')).json()).toEqual(mine);
    expect((await t().client().get('/api/bounce-settings')).statusCode).toBe(401);
    expect((await putSettings(t().client(), mine)).statusCode).toBe(401);

    // One soft bounce now suppresses; a complaint suppresses but leaves the contact subscribed.
    const before = sink.received.length;
    const { sends } = await sentCampaign(t(), a.client, 'Settings', 2);
    const delivered = sink.received.slice(before);
    const token = await webhookToken(a.client);
    const post = async (raw: string) =>
      (
        await t()
          .client()
          .request({
            method: 'POST',
            url: '/api/webhook/email',
            headers: { 'content-type': 'message/rfc822', 'x-sendwell-token': token },
            payload: raw,
          })
      ).json() as { matched: boolean };
    const [first, second] = sends;
    const returnPath = delivered.find((m) => m.to.includes(first?.email ?? ''))?.from ?? '';
    expect(
      (
        await post(
          qmailNotice(
            returnPath,
            first?.email ?? '',
            'The users mailfolder is over the allowed quota (size). (#5.2.2)',
          ),
        )
      ).matched,
    ).toBe(true);
    expect((await post(arf(second?.messageId ?? '', second?.email ?? ''))).matched).toBe(true);
    expect(
      await rows(t, 'SELECT email, reason FROM suppressions WHERE user_id = $1 ORDER BY email', [a.user.id]),
    ).toEqual([
      { email: first?.email, reason: 'bounce' },
      { email: second?.email, reason: 'complaint' },
    ]);
    expect(await rows(t, 'SELECT 1 FROM contacts WHERE user_id = $1 AND NOT is_active', [a.user.id])).toEqual([]);
  });

  it('reads a notice that begins with an mbox separator line, through the webhook and through our SMTP server', async () => {
    const { client, user } = await signUpUser(t());
    const token = await webhookToken(client);
    const before = sink.received.length;
    const { sends } = await sentCampaign(t(), client, 'Mbox', 2);
    const returnPathOf = (email: string | undefined) =>
      sink.received.slice(before).find((m) => m.to.includes(email ?? ''))?.from ?? '';
    const [first, second] = sends;
    // As saved from a Unix mailbox: the separator line, and a body line quoted as >From.
    const mbox = (returnPath: string, email: string) =>
      `From MAILER-DAEMON Tue Jun 11 09:12:44 2024\r\n${qmailNotice(returnPath, email, 'Sorry, no mailbox here by that name. (#5.1.1)')}>From the original message: hello\r\n`;

    const webhook = await t()
      .client()
      .request({
        method: 'POST',
        url: '/api/webhook/email',
        headers: { 'content-type': 'message/rfc822', 'x-sendwell-token': token },
        payload: mbox(returnPathOf(first?.email), first?.email ?? ''),
      });
    expect(webhook.statusCode, webhook.body).toBe(200);

    const inbound = await startInboundSmtpServer(t().ctx, { port: 0, host: '127.0.0.1', log: () => undefined });
    const mta = nodemailer.createTransport({ host: '127.0.0.1', port: inbound.port, secure: false, ignoreTLS: true });
    try {
      const returnPath = returnPathOf(second?.email);
      await mta.sendMail({ envelope: { from: '', to: [returnPath] }, raw: mbox(returnPath, second?.email ?? '') });
    } finally {
      mta.close();
      await inbound.close();
    }
    expect(
      await rows(t, 'SELECT status FROM campaign_sends WHERE id = ANY($1) ORDER BY id', [[first?.id, second?.id]]),
    ).toEqual([{ status: 'bounced' }, { status: 'bounced' }]);
    expect(await rows(t, 'SELECT email FROM suppressions WHERE user_id = $1 ORDER BY email', [user.id])).toEqual(
      [first?.email, second?.email].sort().map((email) => ({ email })),
    );
  });

  it('round trip: a campaign message out through the SMTP sink, its DSN back in through our own inbound SMTP server → suppressed; a forged token refused', async () => {
    const { client, user } = await signUpUser(t());
    const before = sink.received.length;
    const { id, sends } = await sentCampaign(t(), client, 'Round', 2);
    const delivered = sink.received.slice(before);
    const [first, second] = sends;
    const returnPath = delivered.find((m) => m.to.includes(first?.email ?? ''))?.from ?? '';
    expect(returnPath).toMatch(VERP);
    const inbound = await startInboundSmtpServer(t().ctx, { port: 0, host: '127.0.0.1', log: () => undefined });
    const mta = nodemailer.createTransport({ host: '127.0.0.1', port: inbound.port, secure: false, ignoreTLS: true });
    try {
      // An RFC 3464 DSN as Postfix sends it: null sender, to the return path, the original quoted.
      const dsn = (to: string, recipient: string) =>
        [
          'From: MAILER-DAEMON@mx.x.io (Mail Delivery System)',
          `To: ${to}`,
          'Subject: Undelivered Mail Returned to Sender',
          'MIME-Version: 1.0',
          'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
          '',
          '--b1',
          'Content-Type: text/plain',
          '',
          "I'm sorry to have to inform you that your message could not be delivered.",
          '',
          '--b1',
          'Content-Type: message/delivery-status',
          '',
          'Reporting-MTA: dns; mx.x.io',
          '',
          `Final-Recipient: rfc822; ${recipient}`,
          'Action: failed',
          'Status: 5.1.1',
          `Diagnostic-Code: smtp; 550 5.1.1 <${recipient}>: Recipient address rejected: User unknown`,
          '',
          '--b1--',
          '',
        ].join('\r\n');
      await mta.sendMail({ envelope: { from: '', to: [returnPath] }, raw: dsn(returnPath, first?.email ?? '') });
      expect(await rows(t, 'SELECT status FROM campaign_sends WHERE id = $1', [first?.id])).toEqual([
        { status: 'bounced' },
      ]);
      expect(await rows(t, 'SELECT email, reason FROM suppressions WHERE user_id = $1', [user.id])).toEqual([
        { email: first?.email, reason: 'bounce' },
      ]);
      // The same DSN delivered twice (a retrying MTA) is counted once.
      await mta.sendMail({ envelope: { from: '', to: [returnPath] }, raw: dsn(returnPath, first?.email ?? '') });
      expect(await rows(t, `SELECT 1 FROM email_events WHERE campaign_id = $1 AND type = 'bounce'`, [id])).toHaveLength(
        1,
      );

      // A forged token (another send's id under this MAC) is refused at RCPT by our own server; nothing changes.
      const genuine = delivered.find((m) => m.to.includes(second?.email ?? ''))?.from ?? '';
      const forged = genuine.replace(/\+s[0-9a-z]+-/, `+s${((second?.id ?? 1) + 1000).toString(36)}-`);
      await expect(
        mta.sendMail({ envelope: { from: '', to: [forged] }, raw: dsn(forged, second?.email ?? '') }),
      ).rejects.toThrow(/55\d/);
      expect(await rows(t, 'SELECT status FROM campaign_sends WHERE id = $1', [second?.id])).toEqual([
        { status: 'sent' },
      ]);
      expect(await rows(t, 'SELECT 1 FROM suppressions WHERE user_id = $1', [user.id])).toHaveLength(1);

      // The next send skips the suppressed address.
      const [campaign] = await rows(t, 'SELECT list_ids FROM campaigns WHERE id = $1', [id]);
      const listId = (campaign?.list_ids as number[])[0] ?? 0;
      const sentBefore = sink.received.length;
      await campaignTo(t, client, listId, 'Round again');
      const again = sink.received.slice(sentBefore).flatMap((m) => m.to);
      expect(again).toContain(second?.email);
      expect(again).not.toContain(first?.email);
    } finally {
      mta.close();
      await inbound.close();
    }
  });
});
