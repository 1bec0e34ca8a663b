import { sql } from 'drizzle-orm';
import { Resolver } from 'node:dns/promises';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { authenticate } from 'mailauth';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import type { AliasTestResult, EmailAlias, ForwardingStats, AliasActivity } from '@sendwell/contract/aliases';
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
import { FORWARD_CLAIM_STALE_MS, relaySrsBounce, sendForward } from './forwarder.ts';
import { receiveInbound } from './pipeline.ts';
import { srsForward } from './srs.ts';
import { forwardMessageJob, recoverForwards } from './forwarding.jobs.ts';
import { startInboundSmtpServer, type InboundSmtpServer } from './smtp-server.ts';
import { START_NODE_ID, type FlowData } from '@sendwell/contract/sequences';
import { advanceAllDue } from '../sequences/sequence-engine.ts';
import { sendSequenceEmails } from '../sequences/sequence-batch.ts';

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

function forwardingLinkIn(message: ReceivedMessage | undefined): string {
  const link = /https?:\/\/\S+\/confirm-forwarding\?token=\S+/.exec(message?.parsed.text ?? '')?.[0];
  if (!link) throw new Error(`no forwarding confirmation link in ${message?.parsed.subject}`);
  return link;
}

async function addVerifiedDomain(client: TestClient, name: string): Promise<Domain> {
  const added = await client.post('/api/domains', { domain: name });
  expect(added.statusCode, added.body).toBe(201);
  const domain = added.json() as Domain;
  for (const record of domain.records) dns.setTxt(record.host, [record.value]);
  const verified = (await client.post(`/api/domains/${domain.id}/verify`)).json() as Domain;
  expect(verified.isVerified).toBe(true);
  return verified;
}

/** Confirms an address by the last link mailed to it (its owner clicks, signed in or not). */
async function confirmAddress(t: TestApp, email: string): Promise<void> {
  const response = await followConfirmationLink(t.client(), forwardingLinkIn(receivedTo(email).at(-1)));
  expect(response.statusCode).toBe(200);
}

let messageCounter = 0;
function rawMessage(input: {
  from?: string;
  to: string;
  subject?: string;
  messageId?: string;
  extraHeaders?: string[];
  body?: string;
  attachment?: boolean;
}): string {
  messageCounter += 1;
  const messageId = input.messageId ?? `<m${messageCounter}-${Date.now()}@sender.example>`;
  const head = [
    `From: Alice <${input.from ?? 'alice@sender.example'}>`,
    `To: ${input.to}`,
    `Subject: ${input.subject ?? 'Hello there'}`,
    `Message-ID: ${messageId}`,
    'Date: Tue, 24 Nov 2026 10:00:00 +0000',
    'MIME-Version: 1.0',
    ...(input.extraHeaders ?? []),
  ];
  if (!input.attachment)
    return [...head, 'Content-Type: text/plain; charset=utf-8', '', input.body ?? 'Body line one.', ''].join('\r\n');
  return [
    ...head,
    'Content-Type: multipart/mixed; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain',
    '',
    input.body ?? 'See attached.',
    '--b1',
    'Content-Type: application/pdf; name="invoice.pdf"',
    'Content-Disposition: attachment; filename="invoice.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from('%PDF-1.4 test').toString('base64'),
    '--b1--',
    '',
  ].join('\r\n');
}

describe('inbound mail: SMTP server and webhook through one pipeline to real forwards', () => {
  const t = useTestApp(() => ({ SMTP_URL: sink.url, DNS_SERVERS: dns.server, MAIL_FROM_DOMAIN: 'mail.sendwell.test' }));
  let smtp: InboundSmtpServer;
  let client: TestClient;
  let userEmail: string;
  let domain: Domain;
  let sales: EmailAlias;

  const smtpClient = () =>
    nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
  const sendSmtp = (from: string, to: string[], raw: string) => smtpClient().sendMail({ envelope: { from, to }, raw });

  beforeAll(async () => {
    smtp = await startInboundSmtpServer(t().ctx, { port: 0, host: '127.0.0.1', log: () => undefined });
    const user = await signUpUser(t());
    client = user.client;
    userEmail = (await client.get('/api/auth/user')).json().email as string;
    domain = await addVerifiedDomain(client, 'fwd.example');
    const created = await client.post(`/api/domains/${domain.id}/aliases`, {
      alias: 'sales',
      destination: 'boss@dest.example',
    });
    expect(created.statusCode, created.body).toBe(201);
    sales = created.json() as EmailAlias;
    await confirmAddress(t(), 'boss@dest.example');
  });
  afterAll(async () => {
    await smtp.close();
  });

  it('forwards a message from a real SMTP client with an SRS envelope and a DKIM signature that verifies; a retry is forwarded once', async () => {
    const raw = rawMessage({ to: 'sales@fwd.example', subject: 'Quote please', messageId: '<once@sender.example>' });
    const info = await sendSmtp('alice@sender.example', ['sales@fwd.example'], raw);
    expect(info.accepted).toEqual(['sales@fwd.example']);
    await sendSmtp('alice@sender.example', ['sales@fwd.example'], raw);
    await runForwardJobs(t());
    const forwards = receivedTo('boss@dest.example').filter((m) => m.parsed.subject === 'Quote please');
    expect(forwards).toHaveLength(1);
    const forward = forwards[0] as ReceivedMessage;
    expect(forward.from).toMatch(/^SRS0=[A-Z2-7]{6}=[A-Z2-7]{2}=sender\.example=alice@fwd\.example$/);
    expect(forward.parsed.headers.get('x-forwarded-to')).toBe('boss@dest.example');
    expect(forward.parsed.headers.get('x-original-to')).toBe('sales@fwd.example');
    expect(forward.raw).toContain('Resent-From: <sales@fwd.example>');
    expect(forward.raw).toContain('Body line one.');
    expect(forward.parsed.from?.value[0]?.address).toBe('alice@sender.example');
    const record = domain.records.find((r) => r.kind === 'dkim');
    const verified = await dkimVerify(Buffer.from(forward.raw), {
      resolver: async (name: string, type: string) => {
        if (type === 'TXT' && name === record?.host) return [[record.value]];
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      },
    } as never);
    const ours = verified.results.find((r: { signingDomain: string }) => r.signingDomain === 'fwd.example');
    expect(ours?.status.result, JSON.stringify(verified.results)).toBe('pass');

    const activity = (await client.get(`/api/email-aliases/${sales.id}/activity`)).json() as AliasActivity[];
    expect(activity[0]).toMatchObject({ from: 'alice@sender.example', subject: 'Quote please', outcome: 'forwarded' });
    const stats = (await client.get(`/api/forwarding-stats?aliasId=${sales.id}`)).json() as ForwardingStats;
    expect(stats.totalForwarded).toBeGreaterThanOrEqual(1);
    expect(stats.successRate).toBe(100);
  });

  it('seals a forward with ARC: the next hop verifies arc=pass with the SPF and DKIM the message had on arrival, the sender’s signature intact', async () => {
    const arcSender = senderDomain(dns, 'arc-sender.example', { spf: true });
    const raw = arcSender.sign(
      rawMessage({ from: 'ana@arc-sender.example', to: 'sales@fwd.example', subject: 'Sealed for you' }),
    );
    await sendSmtp('ana@arc-sender.example', ['sales@fwd.example'], raw);
    await runForwardJobs(t());
    const forward = receivedTo('boss@dest.example').find((m) => m.parsed.subject === 'Sealed for you');
    expect(forward?.raw).toMatch(/^ARC-Seal: i=1; a=rsa-sha256; t=\d+; cv=none; d=fwd\.example;/m);
    const nextHop = new Resolver();
    nextHop.setServers([dns.server]);
    const result = await authenticate(Buffer.from(forward?.raw ?? ''), {
      ip: '192.0.2.25',
      helo: 'mx.fwd.example',
      sender: forward?.from ?? '',
      mta: 'mx.dest.example',
      resolver: (name: string, type: string) => nextHop.resolve(name, type) as Promise<string[][]>,
    });
    expect(result.arc && result.arc.status.result).toBe('pass');
    const signatures = result.dkim.results.map((entry) => [entry.signingDomain, entry.status.result]);
    expect(signatures).toContainEqual(['arc-sender.example', 'pass']);
    expect(signatures).toContainEqual(['fwd.example', 'pass']);
    const sealedResults = /ARC-Authentication-Results: i=1; ([^]*?)\r\n(?=\S)/.exec(forward?.raw ?? '')?.[1] ?? '';
    expect(sealedResults).toMatch(/spf=pass[^;]*smtp\.mailfrom=ana@arc-sender\.example/);
    expect(sealedResults).toMatch(/dkim=pass header\.i=@arc-sender\.example/);
  });

  it('a reply through an alias ends the sequence enrolment it answers; an automatic reply does not', async () => {
    await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
    const email = (id: string, delay: string): FlowData['nodes'][number] => ({
      id,
      type: 'email',
      position: { x: 400, y: 200 },
      data: {
        label: id,
        subject: `Step ${id}`,
        blocks: [{ id: `b-${id}`, type: 'text', content: { text: 'Hello', tag: 'p' }, styles: {} }],
        delay,
      },
    });
    const flowData: FlowData = {
      nodes: [
        { id: START_NODE_ID, type: 'input', position: { x: 400, y: 50 }, data: { label: 'Start' } },
        email('email-1', '0'),
        email('email-2', '1'),
      ],
      edges: [
        { id: 'e1', source: START_NODE_ID, target: 'email-1' },
        { id: 'e2', source: 'email-1', target: 'email-2' },
      ],
    };
    const created = await client.post('/api/email-sequences', { name: 'Alias replies', flowData, status: 'active' });
    expect(created.statusCode, created.body).toBe(201);
    const sequenceId = (created.json() as { id: number }).id;
    const contactIds: number[] = [];
    for (const address of ['rae@reply.example', 'oof@reply.example']) {
      const contact = await client.post('/api/contacts', { email: address, firstName: 'R', lastName: 'E' });
      contactIds.push((contact.json() as { id: number }).id);
    }
    expect((await client.post(`/api/email-sequences/${sequenceId}/enrolments`, { contactIds })).statusCode).toBe(200);
    await advanceAllDue(t().ctx.db);
    await sendSequenceEmails(t().ctx, sequenceId);
    const sent = (
      await t().ctx.database.raw.executeSql(
        `SELECT email, message_id AS "messageId" FROM sequence_sends WHERE sequence_id = $1 ORDER BY email`,
        [sequenceId],
      )
    ).rows as { email: string; messageId: string | null }[];
    expect(sent.every((row) => row.messageId?.startsWith('<'))).toBe(true);
    const idOf = (address: string) => sent.find((row) => row.email === address)?.messageId ?? '';
    const states = async () =>
      (
        await t().ctx.database.raw.executeSql(
          `SELECT c.email, e.state, e.exit_reason AS "exitReason" FROM sequence_enrolments e
           JOIN contacts c ON c.id = e.contact_id WHERE e.sequence_id = $1 ORDER BY c.email`,
          [sequenceId],
        )
      ).rows;

    // Over SMTP to the account's alias (the reply's To), as a mail client answers the sequence email.
    const autoReply = rawMessage({
      from: 'oof@reply.example',
      to: 'sales@fwd.example',
      subject: 'Automatic reply: Step email-1',
      extraHeaders: [`In-Reply-To: ${idOf('oof@reply.example')}`, 'Auto-Submitted: auto-replied'],
    });
    await sendSmtp('oof@reply.example', ['sales@fwd.example'], autoReply);
    const reply = rawMessage({
      from: 'rae@reply.example',
      to: 'sales@fwd.example',
      subject: 'Re: Step email-1',
      extraHeaders: [`In-Reply-To: ${idOf('rae@reply.example')}`, `References: ${idOf('rae@reply.example')}`],
    });
    await sendSmtp('rae@reply.example', ['sales@fwd.example'], reply);
    expect(await states()).toEqual([
      { email: 'oof@reply.example', state: 'active', exitReason: null },
      { email: 'rae@reply.example', state: 'exited', exitReason: 'replied' },
    ]);
  });

  it('refuses an unknown alias at RCPT with 550 5.1.1, and a forged SRS address too', async () => {
    await expect(
      sendSmtp('alice@sender.example', ['nobody@fwd.example'], rawMessage({ to: 'x' })),
    ).rejects.toMatchObject({ responseCode: 550 });
    await expect(
      sendSmtp('', ['SRS0=AAAAAA=AA=victim.example=bob@fwd.example'], rawMessage({ to: 'x' })),
    ).rejects.toMatchObject({ responseCode: 550 });
  });

  it('refuses more than 25 MB at MAIL SIZE with 552', async () => {
    const lines = await smtpDialogue(smtp.port, ['EHLO test', 'MAIL FROM:<a@sender.example> SIZE=30000000', 'QUIT']);
    expect(lines.find((line) => line.startsWith('250-SIZE') || line.startsWith('250 SIZE'))).toBeDefined();
    expect(lines.some((line) => line.startsWith('552'))).toBe(true);
  });

  it('refuses more than 25 MB after DATA with 552', async () => {
    const big = rawMessage({
      to: 'sales@fwd.example',
      body: 'x'
        .repeat(1000)
        .concat('\r\n')
        .repeat(26 * 1024),
    });
    await expect(sendSmtp('alice@sender.example', ['sales@fwd.example'], big)).rejects.toMatchObject({
      responseCode: 552,
    });
  });

  it('relays a bounce to an SRS address we used back to the original sender, once', async () => {
    await sendSmtp(
      'carol@origin.example',
      ['sales@fwd.example'],
      rawMessage({ from: 'carol@origin.example', to: 'sales@fwd.example', subject: 'will bounce' }),
    );
    await runForwardJobs(t());
    const forward = receivedTo('boss@dest.example').find((m) => m.parsed.subject === 'will bounce');
    expect(forward?.from).toMatch(/^SRS0=/);
    const dsn = [
      'From: MAILER-DAEMON@dest.example',
      `To: ${forward?.from}`,
      'Subject: Undelivered Mail',
      'Message-ID: <dsn1@dest.example>',
      'Content-Type: text/plain',
      '',
      'The mailbox is full.',
      '',
    ].join('\r\n');
    await sendSmtp('', [forward?.from ?? ''], dsn);
    await runForwardJobs(t());
    const relayed = receivedTo('carol@origin.example');
    expect(relayed).toHaveLength(1);
    expect(relayed[0]?.from).toBe('');
    expect(relayed[0]?.parsed.subject).toBe('Undelivered Mail');
  });

  it('routes by rules (priority, each condition, block) and by each forwardingType; unconfirmed destinations get nothing', async () => {
    const create = async (alias: string, forwardingType: string) => {
      const response = await client.post(`/api/domains/${domain.id}/aliases`, { alias, forwardingType });
      expect(response.statusCode, response.body).toBe(201);
      return response.json() as EmailAlias;
    };
    const addDest = async (aliasId: number, email: string, weight = 1) => {
      const response = await client.post('/api/forwarding-destinations', { email, weight, aliasId });
      expect(response.statusCode, response.body).toBe(201);
    };
    const test = async (alias: EmailAlias, fromEmail: string, subject: string) => {
      const response = await client.post('/api/test-forwarding', {
        alias: alias.address,
        fromEmail,
        subject,
        content: 'hi',
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as AliasTestResult;
    };

    // round_robin: two confirmed destinations take turns.
    const rr = await create('rr', 'round_robin');
    await addDest(rr.id, 'rr1@dest.example');
    await addDest(rr.id, 'rr2@dest.example');
    await confirmAddress(t(), 'rr1@dest.example');
    const unconfirmedOnly = await test(rr, 'a@x.example', 'rr-0');
    expect(unconfirmedOnly.forwardedTo).toEqual(['rr1@dest.example']);
    await confirmAddress(t(), 'rr2@dest.example');
    const turns = [await test(rr, 'a@x.example', 'rr-1'), await test(rr, 'a@x.example', 'rr-2')];
    expect(turns.flatMap((r) => r.forwardedTo).sort()).toEqual(['rr1@dest.example', 'rr2@dest.example']);

    // split: one destination per message, by weight, the same for the same Message-ID.
    const split = await create('split', 'split');
    await addDest(split.id, 'rr1@dest.example', 1);
    await addDest(split.id, 'rr2@dest.example', 9);
    const picks = [];
    for (let i = 0; i < 20; i += 1) picks.push(...(await test(split, 'a@x.example', `split-${i}`)).forwardedTo);
    expect(picks).toHaveLength(20);
    expect(picks.filter((p) => p === 'rr2@dest.example').length).toBeGreaterThan(12);

    // conditional: rules only; no match → unrouted. Priority decides; block stops.
    const cond = await create('cond', 'conditional');
    const rule = (body: Record<string, unknown>) => client.post('/api/forwarding-rules', { ...body, aliasId: cond.id });
    expect(
      (await rule({ name: 'Spam', priority: 1, conditions: { fromDomain: 'spam.example' }, actions: { block: true } }))
        .statusCode,
    ).toBe(201);
    await rule({
      name: 'Invoices',
      priority: 5,
      conditions: { subjectContains: 'invoice' },
      actions: { forwardTo: ['rr1@dest.example'] },
    });
    await rule({
      name: 'All invoices',
      priority: 50,
      conditions: { subjectContains: 'inv' },
      actions: { forwardTo: ['rr2@dest.example'] },
    });
    await rule({
      name: 'Unconfirmed',
      priority: 60,
      conditions: { subjectContains: 'pending' },
      actions: { forwardTo: ['new@dest.example'] },
    });
    expect(await test(cond, 'x@spam.example', 'invoice 7')).toMatchObject({
      outcome: 'blocked',
      blocked: true,
      rule: { name: 'Spam' },
    });
    expect(await test(cond, 'x@ok.example', 'Invoice 7')).toMatchObject({
      forwardedTo: ['rr1@dest.example'],
      rule: { name: 'Invoices' },
    });
    expect(await test(cond, 'x@ok.example', 'inv 8')).toMatchObject({ forwardedTo: ['rr2@dest.example'] });
    expect(await test(cond, 'x@ok.example', 'hello')).toMatchObject({ outcome: 'unrouted', forwardedTo: [] });
    expect(await test(cond, 'x@ok.example', 'pending')).toMatchObject({
      outcome: 'unrouted',
      skippedUnconfirmed: ['new@dest.example'],
    });

    // hasAttachment, through the webhook (raw MIME).
    await rule({
      name: 'Attachments',
      priority: 2,
      conditions: { hasAttachment: true },
      actions: { forwardTo: ['rr2@dest.example'] },
    });
    const token = ((await client.get('/api/webhook/email-address')).json() as { token: string }).token;
    const webhook = await t()
      .client()
      .request({
        method: 'POST',
        url: '/api/webhook/email',
        headers: { 'content-type': 'message/rfc822', 'x-sendwell-token': token },
        payload: rawMessage({ to: 'cond@fwd.example', subject: 'invoice attached', attachment: true }),
      });
    expect(webhook.statusCode, webhook.body).toBe(200);
    expect(webhook.json()).toMatchObject({
      handled: 'routed',
      recipients: [{ outcome: 'queued', detail: expect.stringContaining('Attachments') }],
    });

    await runForwardJobs(t());
    expect(
      receivedTo('new@dest.example').filter((m) => m.parsed.subject !== 'Confirm forwarding to new@dest.example'),
    ).toHaveLength(0);
    const stats = (await client.get(`/api/forwarding-stats?aliasId=${cond.id}`)).json() as ForwardingStats;
    // Real mail only (issue 34 #11): the webhook's message; the five Test sends are counted apart.
    expect(stats).toMatchObject({ totalReceived: 1, totalForwarded: 1, totalBlocked: 0, totalTests: 5 });
  });

  it('takes the webhook as multipart with an email field and as JSON with base64; malformed MIME is a clear 400; no secret is 401', async () => {
    const token = ((await client.get('/api/webhook/email-address')).json() as { token: string }).token;
    const raw = rawMessage({ to: 'sales@fwd.example', subject: 'via multipart' });
    const boundary = 'form-boundary-1';
    const form = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="envelope"',
      '',
      JSON.stringify({ from: 'alice@sender.example', to: ['sales@fwd.example'] }),
      `--${boundary}`,
      'Content-Disposition: form-data; name="email"',
      '',
      raw,
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const multipart = await t()
      .client()
      .request({
        method: 'POST',
        url: `/api/webhook/email?token=${token}`,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: form,
      });
    expect(multipart.statusCode, multipart.body).toBe(200);
    expect(multipart.json()).toMatchObject({ handled: 'routed' });

    const json = await t()
      .client()
      .request({
        method: 'POST',
        url: '/api/webhook/email',
        headers: { authorization: `Bearer ${token}` },
        payload: { raw: Buffer.from(rawMessage({ to: 'sales@fwd.example', subject: 'via json' })).toString('base64') },
      });
    expect(json.statusCode, json.body).toBe(200);
    await runForwardJobs(t());
    const subjects = receivedTo('boss@dest.example').map((m) => m.parsed.subject);
    expect(subjects).toContain('via multipart');
    expect(subjects).toContain('via json');

    const before = sink.received.length;
    const malformed = await t()
      .client()
      .request({
        method: 'POST',
        url: `/api/webhook/email?token=${token}`,
        headers: { 'content-type': 'message/rfc822' },
        payload: 'this is not a mail message at all',
      });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/not valid MIME/);
    await runForwardJobs(t());
    expect(sink.received.length).toBe(before);

    const noSecret = await t()
      .client()
      .request({
        method: 'POST',
        url: '/api/webhook/email',
        headers: { 'content-type': 'message/rfc822' },
        payload: raw,
      });
    expect(noSecret.statusCode).toBe(401);
  });

  it('auto-replies once per sender per 7 days, only to an authenticated sender, never to an auto-reply, a list or a null sender', async () => {
    // people.example's SPF record names 127.0.0.1: its senders are authenticated over SMTP.
    senderDomain(dns, 'people.example', { spf: true });
    const created = await client.post(`/api/domains/${domain.id}/aliases`, {
      alias: 'help',
      destination: 'boss@dest.example',
      forwardingType: 'simple',
      autoReply: true,
      autoReplyMessage: 'We got your message.',
    });
    expect(created.statusCode, created.body).toBe(201);
    const send = (from: string, headers: string[] = [], envelopeFrom = from) =>
      sendSmtp(envelopeFrom, ['help@fwd.example'], rawMessage({ from, to: 'help@fwd.example', extraHeaders: headers }));
    await send('dan@people.example');
    await send('dan@people.example');
    await send('erin@people.example', ['Auto-Submitted: auto-replied']);
    await send('frank@people.example', ['List-Id: <news.people.example>']);
    await send('gina@people.example', ['Precedence: bulk']);
    await send('noreply@people.example');
    // A forged sender (no SPF naming us, no signature): no auto-reply, whatever it says.
    await send('mallory@forged.example');
    await runForwardJobs(t());
    const replies = sink.received.filter((m) => m.parsed.from?.value[0]?.address === 'help@fwd.example');
    expect(replies.map((m) => m.to[0])).toEqual(['dan@people.example']);
    expect(replies[0]?.from).toBe('');
    expect(replies[0]?.parsed.text).toContain('We got your message.');
    // A null sender is never forwarded (nor answered).
    await expect(send('', [], '')).resolves.toBeDefined();
    const activity = (
      await client.get(`/api/email-aliases/${(created.json() as EmailAlias).id}/activity`)
    ).json() as AliasActivity[];
    expect(activity[0]?.outcome).toBe('refused');
  });

  it('refuses loops: our own loop header for the alias, or more than 25 Received headers', async () => {
    const looped = await client.post('/api/test-forwarding', {
      alias: 'sales@fwd.example',
      fromEmail: 'a@b.example',
      subject: 'fine',
    });
    expect(looped.json()).toMatchObject({ outcome: 'queued' });
    await sendSmtp(
      'alice@sender.example',
      ['sales@fwd.example'],
      rawMessage({ to: 'sales@fwd.example', subject: 'loop 1', extraHeaders: ['X-Sendwell-Loop: sales@fwd.example'] }),
    );
    await sendSmtp(
      'alice@sender.example',
      ['sales@fwd.example'],
      rawMessage({
        to: 'sales@fwd.example',
        subject: 'loop 2',
        extraHeaders: Array.from(
          { length: 26 },
          (_, i) => `Received: from hop${i}.example by x; Tue, 24 Nov 2026 10:00:00 +0000`,
        ),
      }),
    );
    await runForwardJobs(t());
    const subjects = receivedTo('boss@dest.example').map((m) => m.parsed.subject);
    expect(subjects).not.toContain('loop 1');
    expect(subjects).not.toContain('loop 2');
    const activity = (await client.get(`/api/email-aliases/${sales.id}/activity`)).json() as AliasActivity[];
    expect(activity.filter((a) => a.subject.startsWith('loop')).map((a) => a.outcome)).toEqual(['refused', 'refused']);
  });

  it('rewrites the From to the alias (original in Reply-To) when the sender’s DMARC is quarantine/reject without aligned DKIM', async () => {
    dns.setTxt('_dmarc.strict.example', ['v=DMARC1; p=reject']);
    dns.setTxt('_dmarc.relaxed.example', ['v=DMARC1; p=none']);
    await sendSmtp(
      'bob@strict.example',
      ['sales@fwd.example'],
      rawMessage({ from: 'bob@strict.example', to: 'sales@fwd.example', subject: 'dmarc strict' }),
    );
    await sendSmtp(
      'bob@relaxed.example',
      ['sales@fwd.example'],
      rawMessage({ from: 'bob@relaxed.example', to: 'sales@fwd.example', subject: 'dmarc none' }),
    );
    await runForwardJobs(t());
    const strict = receivedTo('boss@dest.example').find((m) => m.parsed.subject === 'dmarc strict');
    expect(strict?.parsed.from?.value[0]?.address).toBe('sales@fwd.example');
    expect(strict?.parsed.from?.value[0]?.name).toBe('Alice via sales@fwd.example');
    expect(strict?.parsed.replyTo?.value[0]?.address).toBe('bob@strict.example');
    const relaxed = receivedTo('boss@dest.example').find((m) => m.parsed.subject === 'dmarc none');
    expect(relaxed?.parsed.from?.value[0]?.address).toBe('bob@relaxed.example');
  });

  it('a forward whose worker died mid-send (claimed, never finished) is sent once after recovery', async () => {
    await sendSmtp(
      'alice@sender.example',
      ['sales@fwd.example'],
      rawMessage({ to: 'sales@fwd.example', subject: 'worker died' }),
    );
    // A worker takes the job, claims the forward, and dies before sending: the job is gone with it.
    const [job] = (await t().ctx.queue.fetch<{ forwardId: number }>(forwardMessageJob.name)) ?? [];
    expect(job).toBeDefined();
    const forwardId = job?.data.forwardId ?? 0;
    const claimed = await t().ctx.db.execute(
      sql`UPDATE alias_forwards SET status = 'sending', claim_token = 'dead-worker', claimed_at = now(), attempts = attempts + 1
        WHERE id = ${forwardId} AND status = 'pending' RETURNING id`,
    );
    expect(claimed.rows).toHaveLength(1);
    await t().ctx.queue.complete(forwardMessageJob.name, job?.id ?? '');
    // Another worker's duplicate job while the claim is fresh does nothing.
    await sendForward(t().ctx, forwardId);
    expect(receivedTo('boss@dest.example').filter((m) => m.parsed.subject === 'worker died')).toHaveLength(0);
    // The claim is no longer renewed: once the stale window passed (moved back here), the sweep finds
    // it, enqueues it again, and it is sent once; a second run sends nothing more.
    await t().ctx.db.execute(
      sql`UPDATE alias_forwards SET claimed_at = claimed_at - ${`${FORWARD_CLAIM_STALE_MS + 1000} milliseconds`}::interval
        WHERE id = ${forwardId}`,
    );
    expect(await recoverForwards(t().ctx)).toBeGreaterThanOrEqual(1);
    await runForwardJobs(t());
    await sendForward(t().ctx, forwardId);
    expect(receivedTo('boss@dest.example').filter((m) => m.parsed.subject === 'worker died')).toHaveLength(1);
  });

  it('limits connections and messages per client address, and answers 4xx (not 5xx) on its own faults', async () => {
    const base = t().ctx;
    const limited = await startInboundSmtpServer(
      {
        ...base,
        config: {
          ...base.config,
          inboundSmtp: { ...base.config.inboundSmtp, connectionsPerIp: 1, messagesPerIpPerMinute: 2 },
        },
      },
      { port: 0, host: '127.0.0.1', log: () => undefined },
    );
    try {
      // One connection held open; a second from the same address is turned away.
      const held = connect(limited.port, '127.0.0.1');
      const greeting = await new Promise<string>((resolve) => held.once('data', (chunk) => resolve(chunk.toString())));
      expect(greeting).toMatch(/^220 /);
      const second = await smtpDialogue(limited.port, ['QUIT']);
      expect(second[0]).toMatch(/^421 /);
      await new Promise<void>((resolve) => {
        held.once('close', () => resolve());
        held.end('QUIT\r\n');
      });
      const lines = await smtpDialogue(limited.port, [
        'EHLO b',
        'MAIL FROM:<a@sender.example>',
        'RSET',
        'MAIL FROM:<a@sender.example>',
        'RSET',
        'MAIL FROM:<a@sender.example>',
        'QUIT',
      ]);
      expect(lines.filter((line) => /^450 /.test(line))).toHaveLength(1);
    } finally {
      await limited.close();
    }

    // The database is away: RCPT and the end of DATA answer 451 so the sender retries.
    const broken = new Proxy(base.db, {
      get(target, key) {
        if (key === 'select' || key === 'transaction')
          return () => {
            throw new Error('database is down');
          };
        return Reflect.get(target, key);
      },
    });
    const faulty = await startInboundSmtpServer(
      { ...base, db: broken },
      { port: 0, host: '127.0.0.1', log: () => undefined },
    );
    try {
      const lines = await smtpDialogue(faulty.port, [
        'EHLO c',
        'MAIL FROM:<a@sender.example>',
        'RCPT TO:<sales@fwd.example>',
        'QUIT',
      ]);
      expect(lines.some((line) => /^451 /.test(line))).toBe(true);
      expect(lines.some((line) => /^5\d\d /.test(line))).toBe(false);
    } finally {
      await faulty.close();
    }
  });

  it('shows the MX record to publish and what DNS holds', async () => {
    const response = await client.get(`/api/domains/${domain.id}/inbound-mx`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      domain: 'fwd.example',
      smtpEnabled: false,
      record: { type: 'MX', host: 'fwd.example', value: 'localhost', priority: 10, status: 'missing' },
    });
  });

  it('answers No Destination Set for an alias with nowhere to forward', async () => {
    const bare = (
      await client.post(`/api/domains/${domain.id}/aliases`, { alias: 'bare', forwardingType: 'conditional' })
    ).json() as EmailAlias;
    const response = await client.post('/api/test-alias', { alias: bare.address, aliasId: bare.id });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('No Destination Set');
    const other = await signUpUser(t());
    expect((await other.client.post('/api/test-alias', { aliasId: sales.id })).statusCode).toBe(404);
    expect(userEmail).toContain('@');
  });

  /** Whether the alias domain's DKIM signature on a message received by the sink verifies (mailauth). */
  async function dkimOfAliasDomainPasses(message: ReceivedMessage): Promise<string> {
    const record = domain.records.find((r) => r.kind === 'dkim');
    const verified = await dkimVerify(Buffer.from(message.raw), {
      resolver: async (name: string, type: string) => {
        if (type === 'TXT' && name === record?.host) return [[record.value]];
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      },
    } as never);
    return (
      verified.results.find((r: { signingDomain: string }) => r.signingDomain === 'fwd.example')?.status.result ??
      JSON.stringify(verified.results)
    );
  }

  it('forwards through each webhook format (raw MIME, multipart email=, JSON base64) with the alias domain as return path (no SRS address for a webhook sender) and a DKIM signature that verifies', async () => {
    const token = ((await client.get('/api/webhook/email-address')).json() as { token: string }).token;
    const post = (headers: Record<string, string>, payload: string | object) =>
      t()
        .client()
        .request({
          method: 'POST',
          url: '/api/webhook/email',
          headers: { ...headers, 'x-sendwell-token': token },
          payload,
        });
    const raw = (subject: string) => rawMessage({ from: 'wes@webhook.example', to: 'sales@fwd.example', subject });

    const rawMimeMessage = raw('webhook raw mime');
    const rawMime = await post({ 'content-type': 'message/rfc822' }, rawMimeMessage);
    const boundary = 'wh-boundary';
    const multipart = await post(
      { 'content-type': `multipart/form-data; boundary=${boundary}` },
      [
        `--${boundary}`,
        'Content-Disposition: form-data; name="envelope"',
        '',
        JSON.stringify({ from: 'wes@webhook.example', to: ['sales@fwd.example'] }),
        `--${boundary}`,
        'Content-Disposition: form-data; name="email"',
        '',
        raw('webhook multipart'),
        `--${boundary}--`,
        '',
      ].join('\r\n'),
    );
    const json = await post({}, { raw: Buffer.from(raw('webhook json base64')).toString('base64') });
    for (const response of [rawMime, multipart, json]) {
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ handled: 'routed' });
    }
    await runForwardJobs(t());
    for (const subject of ['webhook raw mime', 'webhook multipart', 'webhook json base64']) {
      const forwards = receivedTo('boss@dest.example').filter((m) => m.parsed.subject === subject);
      expect(forwards, subject).toHaveLength(1);
      const forward = forwards[0] as ReceivedMessage;
      expect(forward.from, subject).toBe('bounces@fwd.example');
      expect(forward.parsed.headers.get('x-original-to'), subject).toBe('sales@fwd.example');
      expect(await dkimOfAliasDomainPasses(forward), subject).toBe('pass');
    }

    // The same message posted again (a provider's retry) is forwarded once.
    const again = await post({ 'content-type': 'message/rfc822' }, rawMimeMessage);
    expect(again.statusCode).toBe(200);
    await runForwardJobs(t());
    expect(receivedTo('boss@dest.example').filter((m) => m.parsed.subject === 'webhook raw mime')).toHaveLength(1);

    // Another account's secret reaches none of this account's aliases.
    const other = await signUpUser(t());
    const otherToken = ((await other.client.get('/api/webhook/email-address')).json() as { token: string }).token;
    const foreign = await t()
      .client()
      .request({
        method: 'POST',
        url: '/api/webhook/email',
        headers: { 'content-type': 'message/rfc822', 'x-sendwell-token': otherToken },
        payload: raw('webhook foreign account'),
      });
    expect(foreign.statusCode, foreign.body).toBe(200);
    expect(foreign.json()).not.toMatchObject({ handled: 'routed' });
    await runForwardJobs(t());
    expect(receivedTo('boss@dest.example').filter((m) => m.parsed.subject === 'webhook foreign account')).toHaveLength(
      0,
    );
  });

  it('relays a bounce to an SRS address once per address; forged or never-used SRS addresses get nothing', async () => {
    await sendSmtp(
      'henry@origin2.example',
      ['sales@fwd.example'],
      rawMessage({ from: 'henry@origin2.example', to: 'sales@fwd.example', subject: 'bounce limit' }),
    );
    await runForwardJobs(t());
    const srsAddress = receivedTo('boss@dest.example').find((m) => m.parsed.subject === 'bounce limit')?.from ?? '';
    expect(srsAddress).toMatch(/^SRS0=/);
    const dsn = (n: number) =>
      [
        'From: MAILER-DAEMON@dest.example',
        `To: ${srsAddress}`,
        `Subject: Undelivered ${n}`,
        `Message-ID: <dsn-limit-${n}@dest.example>`,
        'Content-Type: text/plain',
        '',
        'No such user.',
        '',
      ].join('\r\n');
    for (let n = 1; n <= 5; n += 1) await sendSmtp('', [srsAddress], dsn(n));
    await runForwardJobs(t());
    const relayed = receivedTo('henry@origin2.example');
    // No more than SRS_BOUNCES_PER_ADDRESS (one) through one address.
    // (Jobs run in any order: which of the five is not fixed.)
    const subjects = relayed.map((m) => m.parsed.subject ?? '');
    expect(subjects).toHaveLength(1);
    for (const subject of subjects) expect(subject).toMatch(/^Undelivered [1-5]$/);
    expect(relayed.every((m) => m.from === '')).toBe(true);

    // An SRS address whose hash verifies but that no forward of ours used: not relayed.
    const unused = srsForward(t().ctx.config.sessionSecret, 'victim@target.example', 'fwd.example');
    const before = sink.received.length;
    await sendSmtp('', [unused], dsn(6));
    // A forged one (wrong hash) through the webhook, where no RCPT check runs first: not relayed either.
    const token = ((await client.get('/api/webhook/email-address')).json() as { token: string }).token;
    const forged = 'SRS0=AAAAAA=AA=target.example=victim@fwd.example';
    await t()
      .client()
      .request({
        method: 'POST',
        url: '/api/webhook/email',
        headers: { 'content-type': 'message/rfc822', 'x-sendwell-token': token },
        payload: dsn(7).replace(`To: ${srsAddress}`, `To: ${forged}`),
      });
    await runForwardJobs(t());
    expect(receivedTo('victim@target.example')).toHaveLength(0);
    expect(sink.received.length).toBe(before);
    expect(await relaySrsBounce(t().ctx, 0, forged)).toBe('forged');
    expect(await relaySrsBounce(t().ctx, 0, unused)).toBe('unknown');
  });

  it('auto-replies again to the same sender only after 7 days', async () => {
    const created = await client.post(`/api/domains/${domain.id}/aliases`, {
      alias: 'away',
      destination: 'boss@dest.example',
      forwardingType: 'simple',
      autoReply: true,
      autoReplyMessage: 'Away this week.',
    });
    expect(created.statusCode, created.body).toBe(201);
    const userId = (await client.get('/api/auth/user')).json().id as string;
    const at = (days: number) => new Date(Date.now() + days * 24 * 60 * 60 * 1000);
    // Signed by people.example (its key in DNS): the sender is authenticated.
    const people = senderDomain(dns, 'people.example');
    for (const [n, days] of [
      [1, 0],
      [2, 6],
      [3, 7.1],
    ] as const) {
      await receiveInbound(t().ctx, {
        raw: Buffer.from(
          people.sign(rawMessage({ from: 'ivy@people.example', to: 'away@fwd.example', subject: `away ${n}` })),
        ),
        envelope: { mailFrom: 'ivy@people.example', rcptTo: ['away@fwd.example'] },
        via: 'webhook',
        userId,
        now: at(days),
      });
    }
    await runForwardJobs(t());
    const replies = sink.received.filter((m) => m.parsed.from?.value[0]?.address === 'away@fwd.example');
    expect(replies.map((m) => m.parsed.subject).sort()).toEqual(['Re: away 1', 'Re: away 3']);
    expect(replies.every((m) => m.parsed.headers.get('auto-submitted') === 'auto-replied')).toBe(true);
  });
  it('refuses a webhook message over 25 MB with 413 (raw and JSON), forwarding nothing', async () => {
    const token = ((await client.get('/api/webhook/email-address')).json() as { token: string }).token;
    const before = sink.received.length;
    const big = rawMessage({
      to: 'sales@fwd.example',
      subject: 'too big by webhook',
      body: 'x'
        .repeat(1000)
        .concat('\r\n')
        .repeat(26 * 1024),
    });
    const raw = await t()
      .client()
      .request({
        method: 'POST',
        url: '/api/webhook/email',
        headers: { 'content-type': 'message/rfc822', 'x-sendwell-token': token },
        payload: big,
      });
    expect(raw.statusCode).toBe(413);
    const json = await t()
      .client()
      .request({
        method: 'POST',
        url: '/api/webhook/email',
        headers: { 'x-sendwell-token': token },
        payload: { raw: Buffer.from(big).toString('base64') },
      });
    expect(json.statusCode).toBe(413);
    await runForwardJobs(t());
    expect(sink.received.length).toBe(before);
  });

  it('uses the catch-all alias only for addresses no other alias matches', async () => {
    const star = await client.post(`/api/domains/${domain.id}/aliases`, {
      alias: '*',
      destination: 'boss@dest.example',
    });
    expect(star.statusCode, star.body).toBe(201);
    await sendSmtp(
      'alice@sender.example',
      ['anyone@fwd.example'],
      rawMessage({ to: 'anyone@fwd.example', subject: 'to the catch-all' }),
    );
    await sendSmtp(
      'alice@sender.example',
      ['sales@fwd.example'],
      rawMessage({ to: 'sales@fwd.example', subject: 'to sales, not the catch-all' }),
    );
    await runForwardJobs(t());
    const caught = receivedTo('boss@dest.example').filter((m) => m.parsed.subject === 'to the catch-all');
    expect(caught).toHaveLength(1);
    // X-Original-To is the address the mail came for, not the catch-all's own `*@` address.
    expect(caught[0]?.parsed.headers.get('x-original-to')).toBe('anyone@fwd.example');
    const exact = receivedTo('boss@dest.example').filter((m) => m.parsed.subject === 'to sales, not the catch-all');
    expect(exact).toHaveLength(1);
    expect(exact[0]?.parsed.headers.get('x-original-to')).toBe('sales@fwd.example');
  });
});

/** Talks SMTP line by line and answers every line the server sent. */
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
        // The last line of a reply has a space after the code.
        if (/^\d{3} /.test(line) && next < commands.length) socket.write(`${commands[next++]}\r\n`);
      }
    });
    socket.on('close', () => resolve(lines));
    socket.on('error', reject);
  });
}
