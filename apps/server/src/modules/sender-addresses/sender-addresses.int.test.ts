import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import type { Domain } from '@sendwell/contract/domains';
import {
  addConfirmedSender,
  followConfirmationLink,
  signUpUser,
  TEST_SENDER,
  useTestApp,
  type TestClient,
} from '../../../test/build-app.ts';
import { startTestDnsServer } from '../../../test/dns-server.ts';
import { runSendJobs } from '../../../test/send-jobs.ts';
import { startSmtpSink, type ReceivedMessage } from '../../../test/smtp-sink.ts';
import { emailsSentThisMonth } from '../billing/index.ts';
import { TEST_SENDS_PER_HOUR } from '../campaigns/campaign-send.service.ts';
import { accountConfirmationLink } from '../auth/auth.service.ts';
import { CONFIRMATION_MAILS_PER_HOUR, senderConfirmationLink } from './sender-addresses.service.ts';

const MAIL_FROM_DOMAIN = 'mail.sendwell.test';
const INSTALLATION_ENVELOPE = `bounces@${MAIL_FROM_DOMAIN}`;
/** A campaign message's own return path (VERP: `bounces+<signed send token>@`) on a domain. */
const verpAt = (domain: string) => new RegExp(`^bounces\\+s[0-9a-z]+-[0-9a-f]{16}@${domain.replaceAll('.', '\\.')}$`);
/** Either a campaign message's VERP return path or a single message's plain `bounces@` on a domain. */
const envelopeAt = (domain: string) =>
  new RegExp(`^bounces(\\+s[0-9a-z]+-[0-9a-f]{16})?@${domain.replaceAll('.', '\\.')}$`);
const blocks = [{ id: 'b1', type: 'text', content: { text: 'Hello {{firstName}}', tag: 'p' } }];

const dns = await startTestDnsServer();
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink.close();
  await dns.close();
});

/** The confirmation link in a message (its text part carries it on a line of its own). */
function linkIn(message: ReceivedMessage | undefined): string {
  const link = /https?:\/\/\S+\/confirm-(?:email|sender)\?token=\S+/.exec(message?.parsed.text ?? '')?.[0];
  if (!link) throw new Error(`no confirmation link in ${message?.parsed.subject}`);
  return link;
}

/** The messages the sink received to `to` since `since` (an index into sink.received). */
const receivedTo = (to: string, since = 0) => sink.received.slice(since).filter((m) => m.to.includes(to));

async function addVerifiedDomain(client: TestClient, name: string): Promise<Domain> {
  const added = await client.post('/api/domains', { domain: name });
  expect(added.statusCode, added.body).toBe(201);
  const domain = added.json() as Domain;
  for (const record of domain.records) dns.setTxt(record.host, [record.value]);
  const verified = (await client.post(`/api/domains/${domain.id}/verify`)).json() as Domain;
  expect(verified.isVerified).toBe(true);
  return verified;
}

const draft = (fromEmail: string, extra: Record<string, unknown> = {}) => ({
  name: 'Spring',
  subject: 'Hi',
  fromEmail,
  content: { html: '' },
  blocks,
  ...extra,
});

/** A postal address and a list of `count` contacts named `<prefix><n>@x.io`; answers the list id. */
async function audience(client: TestClient, prefix: string, count: number): Promise<number> {
  await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
  const list = (await client.post('/api/contact-lists', { name: `${prefix} list` })).json() as { id: number };
  const csv = `email,firstName\n${Array.from({ length: count }, (_, i) => `${prefix}${i}@x.io,R${i}`).join('\n')}\n`;
  await client.post('/api/contacts/import-csv', { csvData: csv, listId: list.id });
  return list.id;
}

describe('senders are proven', () => {
  const t = useTestApp(() => ({ SMTP_URL: sink.url, DNS_SERVERS: dns.server, MAIL_FROM_DOMAIN }));

  /**
   * A draft whose From was stored before senders had to be proven (the rule did not exist when it
   * was saved): its send and test send must still be refused.
   */
  async function legacyDraft(client: TestClient, fromEmail: string, listId?: number): Promise<number> {
    const created = await client.post('/api/campaigns', draft(TEST_SENDER, listId ? { listIds: [listId] } : {}));
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: number }).id;
    await t().ctx.database.raw.executeSql(`UPDATE campaigns SET from_email = $1 WHERE id = $2`, [fromEmail, id]);
    return id;
  }

  it('unconfirmed account cannot send: sign-up mails a link, the account builds but sends nothing until it is followed', async () => {
    const before = sink.received.length;
    const { client, email } = await signUpUser(t(), { confirmEmail: false });
    const [mail] = receivedTo(email, before);
    expect(mail?.parsed.subject).toBe('Confirm your email address');
    expect(mail?.parsed.from?.value[0]?.address).toBe(`no-reply@${MAIL_FROM_DOMAIN}`);
    expect(mail?.from).toBe(INSTALLATION_ENVELOPE);
    expect((await client.get('/api/auth/user')).json().emailConfirmedAt).toBeNull();

    // Building works: a draft from the account's own address (and nothing else) saves.
    const listId = await audience(client, 'unconfirmed', 2);
    const saved = await client.post('/api/campaigns', draft(email, { listIds: [listId] }));
    expect(saved.statusCode, saved.body).toBe(201);
    const id = (saved.json() as { id: number }).id;
    expect((await client.post('/api/campaigns', draft(TEST_SENDER))).statusCode).toBe(403);

    // Sending does not, whichever way it is asked for.
    const refusal = `Confirm your email address before sending: click the link we emailed to ${email}`;
    const sent = await client.post(`/api/campaigns/${id}/send`);
    expect(sent.statusCode).toBe(403);
    expect(sent.json().message).toContain(refusal);
    const tested = await client.post(`/api/campaigns/${id}/test`, { emails: [email] });
    expect(tested.statusCode).toBe(403);
    expect(tested.json().message).toContain(refusal);
    const sendNow = await client.patch(`/api/campaigns/${id}`, { status: 'sent' });
    expect(sendNow.statusCode).toBe(403);
    const scheduled = await client.patch(`/api/campaigns/${id}`, {
      status: 'scheduled',
      scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(scheduled.statusCode).toBe(403);
    const sender = await client.post('/api/sender-addresses', { email: 'other@y.example' });
    expect(sender.statusCode).toBe(403);
    expect(sender.json().message).toContain(refusal);
    expect((await client.get(`/api/campaigns/${id}`)).json().status).toBe('draft');
    expect(receivedTo(email, before)).toHaveLength(1);

    // Resend waits a minute after the last link.
    const tooSoon = await client.post('/api/auth/resend-confirmation');
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json().message).toMatch(/^We sent a link less than a minute ago/);
    await t().ctx.database.raw.executeSql(
      `UPDATE users SET email_confirmation_sent_at = now() - interval '2 minutes' WHERE email = $1`,
      [email],
    );
    expect((await client.post('/api/auth/resend-confirmation')).statusCode).toBe(200);
    expect(receivedTo(email, before)).toHaveLength(2);

    // The link from the mail: the page changes nothing, its button confirms.
    const link = linkIn(receivedTo(email, before)[1]);
    expect(link.startsWith('http://localhost:5000/confirm-email?token=')).toBe(true);
    const path = link.slice('http://localhost:5000'.length);
    const page = await client.get(path);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    // Not no-referrer: that would make the browser post the form with Origin: null, refused as cross-site.
    expect(page.headers['referrer-policy']).toBe('same-origin');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('Confirm my email address');
    expect(page.body).toContain(`action="${path}"`);
    expect((await client.get('/api/auth/user')).json().emailConfirmedAt).toBeNull();
    const confirmed = await followConfirmationLink(client, link);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain('Email address confirmed');
    expect((await client.get('/api/auth/user')).json().emailConfirmedAt).not.toBeNull();
    expect((await client.post('/api/auth/resend-confirmation')).statusCode).toBe(409);

    // Now the same draft sends, from the account's own (confirmed) address, with the installation's envelope.
    const since = sink.received.length;
    expect((await client.post(`/api/campaigns/${id}/send`)).statusCode).toBe(200);
    await runSendJobs(t());
    const delivered = sink.received.slice(since);
    expect(delivered).toHaveLength(2);
    for (const message of delivered) {
      expect(message.parsed.from?.value[0]?.address).toBe(email);
      expect(message.from).toMatch(verpAt(MAIL_FROM_DOMAIN));
      expect(message.raw).not.toMatch(/^DKIM-Signature:/m);
    }
  });

  it('confirmation link (valid, expired, tampered, other account’s): the account’s own address', async () => {
    const owner = await signUpUser(t(), { confirmEmail: false });
    const other = await signUpUser(t());
    const anonymous = t().client();
    const { config } = t().ctx;
    const valid = accountConfirmationLink(config, { id: owner.user.id, email: owner.email });
    const path = (link: string) => link.slice(config.publicUrl.length);
    const post = (client: TestClient, link: string) =>
      client.request({
        method: 'POST',
        url: path(link),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
    const confirmedAt = async () => (await owner.client.get('/api/auth/user')).json().emailConfirmedAt;

    const expired = accountConfirmationLink(
      config,
      { id: owner.user.id, email: owner.email },
      new Date(Date.now() - 49 * 3_600_000),
    );
    expect((await owner.client.get(path(expired))).statusCode).toBe(410);
    const expiredPost = await post(owner.client, expired);
    expect(expiredPost.statusCode).toBe(410);
    expect(expiredPost.body).toContain('This link has expired');

    const token = new URL(valid).searchParams.get('token') ?? '';
    const [payload, mac] = token.split('.') as [string, string];
    const flipped = `${config.publicUrl}/confirm-email?token=${payload}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BA' : 'AA'}`;
    const forged = `${config.publicUrl}/confirm-email?token=${Buffer.from(`${Math.floor(Date.now() / 1000) + 3600}.${other.user.id}:${other.email}`).toString('base64url')}.${mac}`;
    const wrongKind = senderConfirmationLink(config, { id: 1, email: owner.email }).replace(
      '/confirm-sender',
      '/confirm-email',
    );
    for (const bad of [flipped, forged, wrongKind, `${config.publicUrl}/confirm-email?token=`]) {
      const answer = await post(owner.client, bad);
      expect(answer.statusCode, bad).toBe(400);
      expect(answer.body).toContain('This link is not valid');
    }

    // Another account signed in cannot confirm it, nor can someone signed out.
    expect((await other.client.get(path(valid))).statusCode).toBe(403);
    const foreign = await post(other.client, valid);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.body).toContain('This link is for another account');
    const signedOut = await post(anonymous, valid);
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.body).toContain('Sign in to confirm');
    // Its Sign in leads back to this link once signed in.
    expect(signedOut.body).toContain(`href="/login?return=${encodeURIComponent(path(valid))}"`);
    expect(await confirmedAt()).toBeNull();
    expect((await other.client.get('/api/auth/user')).json().emailConfirmedAt).not.toBeNull();

    const confirmed = await post(owner.client, valid);
    expect(confirmed.statusCode).toBe(200);
    const first = await confirmedAt();
    expect(first).not.toBeNull();
    // Opened again: already confirmed, the first time kept.
    expect((await post(owner.client, valid)).body).toContain('Email address confirmed');
    expect(await confirmedAt()).toBe(first);
  });

  it('confirmation link (valid, expired, tampered, other account’s): a sender address', async () => {
    const owner = await signUpUser(t(), { senders: [] });
    const other = await signUpUser(t(), { senders: [] });
    const { config } = t().ctx;
    const before = sink.received.length;
    const added = await owner.client.post('/api/sender-addresses', { email: 'Press@Partner.example' });
    expect(added.statusCode, added.body).toBe(201);
    const row = added.json() as { id: number; email: string; status: string };
    expect(row).toMatchObject({ email: 'press@partner.example', status: 'pending' });
    const [mail] = receivedTo('press@partner.example', before);
    expect(mail?.parsed.subject).toBe('Confirm press@partner.example as a sender address');
    expect(mail?.parsed.text).toContain(owner.email);
    expect(mail?.from).toBe(INSTALLATION_ENVELOPE);
    const valid = linkIn(mail);
    const path = (link: string) => link.slice(config.publicUrl.length);
    const post = (client: TestClient, link: string) =>
      client.request({
        method: 'POST',
        url: path(link),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
    const status = async () =>
      ((await owner.client.get('/api/sender-addresses')).json() as { addresses: { status: string }[] }).addresses[0]
        ?.status;

    expect(
      (await post(owner.client, senderConfirmationLink(config, row, new Date(Date.now() - 49 * 3_600_000)))).statusCode,
    ).toBe(410);
    const token = new URL(valid).searchParams.get('token') ?? '';
    const [payload, mac] = token.split('.') as [string, string];
    const flipped = `${config.publicUrl}/confirm-sender?token=${payload}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BA' : 'AA'}`;
    const otherRow = `${config.publicUrl}/confirm-sender?token=${Buffer.from(`${Math.floor(Date.now() / 1000) + 3600}.${row.id + 1}:${row.email}`).toString('base64url')}.${mac}`;
    const accountKind = accountConfirmationLink(config, { id: owner.user.id, email: owner.email }).replace(
      '/confirm-email',
      '/confirm-sender',
    );
    for (const bad of [flipped, otherRow, accountKind])
      expect((await post(owner.client, bad)).statusCode, bad).toBe(400);

    const foreign = await post(other.client, valid);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.body).toContain('added by a different Sendwell account');
    const signedOut = await post(t().client(), valid);
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.body).toContain('Sign in to the Sendwell account that added press@partner.example');
    expect(await status()).toBe('pending');

    // The page itself changes nothing (mail scanners open links); the owner's click confirms.
    expect((await owner.client.get(path(valid))).body).toContain('Confirm sender address');
    expect(await status()).toBe('pending');
    expect((await post(owner.client, valid)).body).toContain('Sender address confirmed');
    expect(await status()).toBe('confirmed');

    // Once the address is removed, its link names nothing.
    await owner.client.delete(`/api/sender-addresses/${row.id}`);
    expect((await post(owner.client, valid)).statusCode).toBe(400);
  });

  it('sending as another tenant’s domain → refused', async () => {
    const tenant = await signUpUser(t());
    await addVerifiedDomain(tenant.client, 'tenant-a.example');
    const intruder = await signUpUser(t());
    const listId = await audience(intruder.client, 'intruder', 1);

    // The owner may use any address on its verified domain (and subdomains).
    expect((await tenant.client.post('/api/campaigns', draft('ceo@tenant-a.example'))).statusCode).toBe(201);
    expect((await tenant.client.post('/api/campaigns', draft('news@mail.tenant-a.example'))).statusCode).toBe(201);

    const refused = await intruder.client.post('/api/campaigns', draft('ceo@tenant-a.example'));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(
      'You cannot send from ceo@tenant-a.example: it is not on a domain you have verified or an address you have confirmed. Add and verify tenant-a.example in Domain Settings, or add ceo@tenant-a.example under Domain Settings → Sender Addresses and click the link we email to it.',
    );
    const own = (await intruder.client.post('/api/campaigns', draft(TEST_SENDER))).json() as { id: number };
    expect(
      (await intruder.client.patch(`/api/campaigns/${own.id}`, { fromEmail: 'ceo@tenant-a.example' })).statusCode,
    ).toBe(403);
    expect((await intruder.client.get(`/api/campaigns/${own.id}`)).json().fromEmail).toBe(TEST_SENDER);

    const legacy = await legacyDraft(intruder.client, 'ceo@tenant-a.example', listId);
    const before = sink.received.length;
    const send = await intruder.client.post(`/api/campaigns/${legacy}/send`);
    expect(send.statusCode).toBe(403);
    expect(send.json().message).toBe(refused.json().message);
    const test = await intruder.client.post(`/api/campaigns/${legacy}/test`, { emails: [intruder.email] });
    expect(test.statusCode).toBe(403);
    await runSendJobs(t());
    expect(sink.received.length).toBe(before);
    expect((await intruder.client.get(`/api/campaigns/${legacy}`)).json()).toMatchObject({
      status: 'draft',
      totalSent: 0,
    });

    // Asking to confirm the address mails its owner, and changes nothing until they follow the link.
    expect((await intruder.client.post('/api/sender-addresses', { email: 'ceo@tenant-a.example' })).statusCode).toBe(
      201,
    );
    const pending = await intruder.client.post(`/api/campaigns/${legacy}/send`);
    expect(pending.statusCode).toBe(403);
    expect(pending.json().message).toMatch(
      /^ceo@tenant-a\.example is not confirmed yet: click the link we emailed to it/,
    );
  });

  it('sending as an unregistered domain → refused', async () => {
    const { client, email } = await signUpUser(t());
    const listId = await audience(client, 'bank', 1);
    const refused = await client.post('/api/campaigns', draft('security@bank.example'));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('Add and verify bank.example in Domain Settings');
    const legacy = await legacyDraft(client, 'security@bank.example', listId);
    const before = sink.received.length;
    expect((await client.post(`/api/campaigns/${legacy}/send`)).statusCode).toBe(403);
    expect((await client.post(`/api/campaigns/${legacy}/test`, { emails: [email] })).statusCode).toBe(403);
    // The test endpoint is no relay for it either, 5 addresses at a time.
    expect(sink.received.length).toBe(before);
  });

  it('sending as an unverified domain → refused, until it is verified', async () => {
    const { client } = await signUpUser(t());
    const added = (await client.post('/api/domains', { domain: 'pending.example' })).json() as Domain;
    expect(added.isVerified).toBe(false);
    for (const from of ['news@pending.example', 'news@mail.pending.example']) {
      const refused = await client.post('/api/campaigns', draft(from));
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(
        `Verify pending.example in Domain Settings before sending from it: publish its DKIM record and press Verify. Or add ${from} under Domain Settings → Sender Addresses and confirm it.`,
      );
    }
    for (const record of added.records) dns.setTxt(record.host, [record.value]);
    await client.post(`/api/domains/${added.id}/verify`);
    expect((await client.post('/api/campaigns', draft('news@mail.pending.example'))).statusCode).toBe(201);
    const overview = (await client.get('/api/sender-addresses')).json();
    expect(overview.verifiedDomains).toEqual(['pending.example']);
  });

  it('confirmed address works with the installation’s envelope (unsigned: no domain of the user can sign)', async () => {
    const { client, email } = await signUpUser(t());
    const listId = await audience(client, 'confirmed', 2);
    const id = (
      (await client.post('/api/campaigns', draft(TEST_SENDER, { listIds: [listId] }))).json() as { id: number }
    ).id;
    const before = sink.received.length;
    expect((await client.post(`/api/campaigns/${id}/send`)).statusCode).toBe(200);
    await runSendJobs(t());
    expect((await client.post(`/api/campaigns/${id}/test`, { emails: [email] })).json()).toEqual({ sent: 1 });
    const messages = sink.received.slice(before);
    expect(messages).toHaveLength(3);
    for (const message of messages) {
      expect(message.parsed.from?.value[0]?.address).toBe(TEST_SENDER);
      expect(message.from).toMatch(envelopeAt(MAIL_FROM_DOMAIN));
      expect(message.raw).not.toMatch(/^DKIM-Signature:/m);
    }
  });

  it('envelope sender is not the From: mail from a verified domain returns to bounces@ that domain, signed by it', async () => {
    const { client, email } = await signUpUser(t());
    await addVerifiedDomain(client, 'verified-sender.example');
    const listId = await audience(client, 'envelope', 2);
    const from = 'news@mail.verified-sender.example';
    const id = ((await client.post('/api/campaigns', draft(from, { listIds: [listId] }))).json() as { id: number }).id;
    const before = sink.received.length;
    await client.post(`/api/campaigns/${id}/send`);
    await runSendJobs(t());
    expect((await client.post(`/api/campaigns/${id}/test`, { emails: [email] })).json()).toEqual({ sent: 1 });
    const messages = sink.received.slice(before);
    expect(messages).toHaveLength(3);
    for (const message of messages) {
      expect(message.parsed.from?.value[0]?.address).toBe(from);
      expect(message.from).toMatch(envelopeAt('verified-sender.example'));
      expect(message.from).not.toBe(from);
      const signature = message.raw.replace(/\r?\n[ \t]+/g, ' ').match(/^DKIM-Signature: (.+)$/m)?.[1];
      expect(signature).toMatch(/\bd=verified-sender\.example;/);
    }
  });

  it('test sends go only to confirmed addresses or contacts, count against the plan, and are limited per hour', async () => {
    const { client, email, user } = await signUpUser(t(), { plan: 'starter' });
    await addConfirmedSender(t(), client, 'me@second.example');
    const listId = await audience(client, 'tester', 5);
    const id = (
      (await client.post('/api/campaigns', draft(TEST_SENDER, { listIds: [listId] }))).json() as { id: number }
    ).id;
    const { db } = t().ctx;
    const before = sink.received.length;

    // Recipient restriction: a stranger is named and nothing goes, not even to the others.
    const stranger = await client.post(`/api/campaigns/${id}/test`, { emails: [email, 'stranger@elsewhere.example'] });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().message).toBe(
      'stranger@elsewhere.example is not one of your confirmed addresses or contacts. Send tests to your own confirmed addresses, or to people on your contact lists.',
    );
    expect(sink.received.length).toBe(before);
    // The account's own address, a confirmed sender address and contacts are fine.
    const sent = await client.post(`/api/campaigns/${id}/test`, {
      emails: [email, 'ME@second.example', TEST_SENDER, 'tester0@x.io'],
    });
    expect(sent.json()).toEqual({ sent: 4 });
    expect(sink.received.length - before).toBe(4);

    // Plan counting: each test mail counts as an email this month.
    expect(await emailsSentThisMonth(db, user.id)).toBe(4);
    // A test mail that does not go (a suppressed contact) is not counted.
    expect(
      (await client.post('/api/contacts', { email: 'gone@x.io', firstName: 'G', lastName: 'One' })).statusCode,
    ).toBe(201);
    await t().ctx.database.raw.executeSql(
      `INSERT INTO suppressions (user_id, email, reason) VALUES ($1, 'gone@x.io', 'unsubscribe')`,
      [user.id],
    );
    expect((await client.post(`/api/campaigns/${id}/test`, { emails: ['gone@x.io'] })).statusCode).toBe(400);
    expect(await emailsSentThisMonth(db, user.id)).toBe(4);

    // Rate limit: TEST_SENDS_PER_HOUR in an hour, then 429.
    const contacts = ['tester0@x.io', 'tester1@x.io', 'tester2@x.io', 'tester3@x.io', 'tester4@x.io'];
    let left = TEST_SENDS_PER_HOUR - 4;
    while (left > 0) {
      const batch = contacts.slice(0, Math.min(5, left));
      expect((await client.post(`/api/campaigns/${id}/test`, { emails: batch })).json()).toEqual({
        sent: batch.length,
      });
      left -= batch.length;
    }
    const limited = await client.post(`/api/campaigns/${id}/test`, { emails: [email] });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(
      /^You can send 20 test emails an hour and have 0 left\. Try again in \d+ minutes?\.$/,
    );
    expect(await emailsSentThisMonth(db, user.id)).toBe(TEST_SENDS_PER_HOUR);

    // The plan's monthly emails: Starter has 15,000; with test mails filling all but one, a test
    // to two is refused, and so is a campaign to five.
    await t().ctx.database.raw.executeSql(
      `INSERT INTO campaign_test_sends (user_id, email, sent_at) SELECT $1, 'x@x.io', now() - interval '2 hours' FROM generate_series(1, $2::int)`,
      [user.id, 15_000 - TEST_SENDS_PER_HOUR - 1],
    );
    expect(await emailsSentThisMonth(db, user.id)).toBeLessThanOrEqual(14_999);
    const monthLeft = 15_000 - (await emailsSentThisMonth(db, user.id));
    const overPlan = await client.post(`/api/campaigns/${id}/test`, { emails: contacts.slice(0, monthLeft + 1) });
    expect(overPlan.statusCode).toBe(403);
    expect(overPlan.json().message).toBe(
      `Test emails count against your plan, which has ${monthLeft} emails left this month.`,
    );
    const campaign = await client.post(`/api/campaigns/${id}/send`);
    expect(campaign.statusCode).toBe(403);
    expect(campaign.json().message).toBe(
      `This campaign has 5 recipients but your plan has ${monthLeft} emails left this month.`,
    );
  });

  it('tenant isolation for sender addresses: another account gets 404 on them and cannot use them', async () => {
    const owner = await signUpUser(t(), { senders: ['shared@owner.example'] });
    const other = await signUpUser(t(), { senders: [] });
    const [address] = ((await owner.client.get('/api/sender-addresses')).json() as { addresses: { id: number }[] })
      .addresses;
    expect(address).toBeDefined();
    const overview = (await other.client.get('/api/sender-addresses')).json();
    expect(overview).toEqual({
      accountEmail: { email: other.email, confirmed: true },
      verifiedDomains: [],
      addresses: [],
    });
    expect((await other.client.post(`/api/sender-addresses/${address?.id}/resend`)).statusCode).toBe(404);
    expect((await other.client.delete(`/api/sender-addresses/${address?.id}`)).statusCode).toBe(404);
    expect((await other.client.post('/api/sender-addresses/999999999/resend')).statusCode).toBe(404);
    // The owner's confirmed address is the owner's only.
    expect((await other.client.post('/api/campaigns', draft('shared@owner.example'))).statusCode).toBe(403);
    expect((await other.client.post('/api/campaigns', draft(TEST_SENDER))).statusCode).toBe(403);
    expect((await owner.client.post('/api/campaigns', draft('shared@owner.example'))).statusCode).toBe(201);
    expect(
      ((await owner.client.get('/api/sender-addresses')).json() as { addresses: unknown[] }).addresses,
    ).toHaveLength(1);
  });

  it('adds, resends, refuses what needs no confirmation, limits confirmation mails, and deletes', async () => {
    const { client, email } = await signUpUser(t(), { senders: [] });
    await addVerifiedDomain(client, 'owned.example');
    const add = (address: string) => client.post('/api/sender-addresses', { email: address });
    expect((await add('not-an-email')).statusCode).toBe(400);
    expect((await add(email)).statusCode).toBe(409);
    const onDomain = await add('hello@news.owned.example');
    expect(onDomain.statusCode).toBe(409);
    expect(onDomain.json().message).toBe(
      'hello@news.owned.example is on owned.example, which you have verified: you can send from any address there without confirming it.',
    );
    const first = await add('one@free.example');
    expect(first.statusCode).toBe(201);
    const row = first.json() as { id: number; confirmationSentAt: string | null };
    expect(row.confirmationSentAt).not.toBeNull();
    expect((await add('ONE@free.example')).statusCode).toBe(409);
    const again = await client.post(`/api/sender-addresses/${row.id}/resend`);
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toMatch(/^We sent a link to one@free\.example less than a minute ago/);

    // Every confirmation mail counts, whichever address: CONFIRMATION_MAILS_PER_HOUR an hour.
    for (let i = 1; i < CONFIRMATION_MAILS_PER_HOUR; i += 1)
      expect((await add(`n${i}@free.example`)).statusCode).toBe(201);
    const limited = await add('one-too-many@free.example');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(
      /^You can send 10 confirmation links an hour\. Try again in \d+ minutes?\.$/,
    );
    // Removing an address and adding it again does not reset the count.
    expect((await client.delete(`/api/sender-addresses/${row.id}`)).statusCode).toBe(204);
    expect((await add('one@free.example')).statusCode).toBe(429);
    expect((await client.delete(`/api/sender-addresses/${row.id}`)).statusCode).toBe(404);
    const overview = (await client.get('/api/sender-addresses')).json();
    expect(overview.verifiedDomains).toEqual(['owned.example']);
    expect(overview.addresses).toHaveLength(CONFIRMATION_MAILS_PER_HOUR - 1);
    expect(overview.addresses.every((a: { status: string }) => a.status === 'pending')).toBe(true);
  });
});

describe('with the installation’s own DKIM key (MAIL_DKIM_KEY_FILE)', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyFile = path.join(mkdtempSync(path.join(tmpdir(), 'sendwell-dkim-')), 'dkim.pem');
  writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const record = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
  const t = useTestApp(() => ({
    SMTP_URL: sink.url,
    DNS_SERVERS: dns.server,
    MAIL_FROM_DOMAIN,
    MAIL_DKIM_KEY_FILE: keyFile,
    MAIL_DKIM_SELECTOR: 'sw-test',
  }));

  it('confirmed address works with the installation’s envelope and is signed by the installation’s domain', async () => {
    const { client } = await signUpUser(t());
    const listId = await audience(client, 'installation', 1);
    const id = (
      (await client.post('/api/campaigns', draft(TEST_SENDER, { listIds: [listId] }))).json() as { id: number }
    ).id;
    const before = sink.received.length;
    await client.post(`/api/campaigns/${id}/send`);
    await runSendJobs(t());
    const [message] = sink.received.slice(before);
    expect(message?.from).toMatch(verpAt(MAIL_FROM_DOMAIN));
    expect(message?.parsed.from?.value[0]?.address).toBe(TEST_SENDER);
    const result = await dkimVerify(Buffer.from(message?.raw ?? ''), {
      resolver: async (name: string, type: string) => {
        if (type === 'TXT' && name === `sw-test._domainkey.${MAIL_FROM_DOMAIN}`) return [[record]];
        const error = new Error('not found') as Error & { code: string };
        error.code = 'ENOTFOUND';
        throw error;
      },
    });
    expect(result.results[0]?.status.result, JSON.stringify(result.results[0]?.status)).toBe('pass');
    expect(result.results[0]?.signingDomain).toBe(MAIL_FROM_DOMAIN);
  });
});
