import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSendJobs } from '../../../test/send-jobs.ts';
import { signUpUser, TEST_SENDER, useTestApp, type TestClient } from '../../../test/build-app.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import type { Sequence } from '@sendwell/contract/sequences';
import { oneEmailFlow } from '../../../test/sequence-flows.ts';
import { advanceAllDue } from '../sequences/sequence-engine.ts';
import { sendSequenceEmails } from '../sequences/sequence-batch.ts';

const blocks = [
  { id: 'b1', type: 'text', content: { text: 'Hello {{firstName}}', tag: 'p' } },
  { id: 'b2', type: 'button', content: { text: 'Shop Now', url: 'https://shop.example.com/spring?utm=mail&x=1' } },
];

/** A sent campaign to `count` recipients named `<prefix><n>@x.io`; returns its id. */
async function sentCampaign(
  t: Parameters<typeof runSendJobs>[0],
  client: TestClient,
  prefix: string,
  count: number,
  subject: string,
) {
  await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
  const list = (await client.post('/api/contact-lists', { name: `${prefix} list` })).json() as { id: number };
  const csv = `email,firstName\n${Array.from({ length: count }, (_, i) => `${prefix}${i}@x.io,R${i}`).join('\n')}\n`;
  await client.post('/api/contacts/import-csv', { csvData: csv, listId: list.id });
  const campaign = (
    await client.post('/api/campaigns', {
      name: `${prefix} campaign`,
      subject,
      fromEmail: 'news@acme.example',
      content: { html: '' },
      blocks,
      listIds: [list.id],
    })
  ).json() as { id: number };
  expect((await client.post(`/api/campaigns/${campaign.id}/send`)).statusCode).toBe(200);
  await runSendJobs(t);
  return campaign.id;
}

/** What sign-up leaves in a test account's Outbox: the links confirming its own address and TEST_SENDER. */
const SIGN_UP_MAILS = 2;

describe('outbox on the built-in catcher', () => {
  const t = useTestApp();

  it('lists the user’s stored mail newest first, with paging, search and the transport in use', async () => {
    const { client } = await signUpUser(t());
    const campaignId = await sentCampaign(t(), client, 'list', 3, 'Spring news');
    // Tests go to the account's confirmed addresses or its contacts.
    await client.post('/api/contacts', { email: 'me@x.io', firstName: 'Me', lastName: 'Tester' });
    expect((await client.post(`/api/campaigns/${campaignId}/test`, { emails: ['me@x.io'] })).json()).toEqual({
      sent: 1,
    });

    const all = await client.get('/api/outbox');
    expect(all.statusCode).toBe(200);
    expect(all.headers['x-total-count']).toBe(String(4 + SIGN_UP_MAILS));
    const listed = all.json() as {
      transport: string;
      messages: {
        id: number;
        createdAt: string;
        to: string;
        subject: string;
        isTest: boolean;
        campaignName: string | null;
        campaignId: number | null;
      }[];
    };
    expect(listed.transport).toBe('catcher');
    expect(listed.messages[0]).toMatchObject({
      to: 'me@x.io',
      subject: '[Test] Spring news',
      isTest: true,
      campaignId,
      campaignName: 'list campaign',
    });
    expect(listed.messages.slice(1, 4).every((m) => !m.isTest && m.campaignName === 'list campaign')).toBe(true);
    expect(listed.messages.slice(4).map((m) => m.subject)).toEqual([
      `Confirm ${TEST_SENDER} as a sender address`,
      'Confirm your email address',
    ]);
    // Newest first by stored time. Two send workers can store in either order, so ids alone need not fall.
    const storedTimes = listed.messages.map((m) => m.createdAt);
    expect(storedTimes).toEqual([...storedTimes].sort().reverse());

    const page2 = await client.get('/api/outbox?page=2&pageSize=3');
    expect(page2.headers['x-total-count']).toBe(String(4 + SIGN_UP_MAILS));
    expect(page2.json().messages.map((m: { id: number }) => m.id)).toEqual(listed.messages.slice(3).map((m) => m.id));

    // Search matches recipient, sender or subject, case-insensitively; LIKE wildcards are literal.
    const byRecipient = await client.get('/api/outbox?search=LIST1%40');
    expect(byRecipient.headers['x-total-count']).toBe('1');
    expect(byRecipient.json().messages[0].to).toBe('list1@x.io');
    expect((await client.get('/api/outbox?search=spring%20NEWS')).headers['x-total-count']).toBe('4');
    expect((await client.get('/api/outbox?search=me%40x')).json().messages.map((m: { to: string }) => m.to)).toEqual([
      'me@x.io',
    ]);
    // From it (4), and the link that confirmed it, sent to it (1).
    expect((await client.get('/api/outbox?search=news%40acme')).headers['x-total-count']).toBe('5');
    const wildcard = await client.get('/api/outbox?search=%25');
    expect(wildcard.headers['x-total-count']).toBe('0');
    expect(wildcard.json().messages).toEqual([]);
  });

  it('shows one message with its HTML (no tracking), text, headers and raw source', async () => {
    const { client } = await signUpUser(t());
    const campaignId = await sentCampaign(t(), client, 'view', 1, 'Viewing');
    const [item] = (await client.get('/api/outbox')).json().messages as { id: number }[];
    const response = await client.get(`/api/outbox/${item?.id}`);
    expect(response.statusCode).toBe(200);
    const message = response.json();
    expect(message).toMatchObject({
      id: item?.id,
      campaignId,
      campaignName: 'view campaign',
      to: 'view0@x.io',
      from: 'news@acme.example',
      subject: 'Viewing',
      isTest: false,
    });
    // The stored source keeps its open pixel and tracked link; the HTML for viewing has neither.
    expect(message.raw).toMatch(/\/t\/o\//);
    expect(message.raw).toMatch(/\/t\/c\//);
    expect(message.html).toContain('Hello R0');
    expect(message.html).not.toMatch(/\/t\/[oc]\//);
    expect(message.html).toContain('href="https://shop.example.com/spring?utm=mail&amp;x=1"');
    expect(message.text).toContain('Hello R0');
    expect(message.headers).toMatch(/^Subject: Viewing\r?$/m);
    expect(message.headers).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(message.headers).not.toContain('Hello R0');
    // The headers are shown unfolded and decoded (outbox-headers.test.ts); the source keeps the bytes.
    expect(message.headers).toContain('Message-ID: <');

    // Looking at it recorded nothing.
    expect((await client.get(`/api/campaigns/${campaignId}`)).json()).toMatchObject({ totalOpens: 0, totalClicks: 0 });
  });

  it('names the sequence and step a sequence email came from, as it names a campaign', async () => {
    const { client } = await signUpUser(t());
    await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
    const flowData = oneEmailFlow({ label: 'Welcome note', subject: 'Welcome aboard' });
    const created = await client.post('/api/email-sequences', {
      name: 'Onboarding',
      flowData,
      status: 'active',
      fromEmail: TEST_SENDER,
    });
    expect(created.statusCode, created.body).toBe(201);
    const sequence = created.json() as Sequence;
    const contact = (await client.post('/api/contacts', { email: 'seq@x.io', firstName: 'Sam', lastName: 'Q' })).json();
    await client.post(`/api/email-sequences/${sequence.id}/enrolments`, { contactIds: [contact.id] });
    await advanceAllDue(t().ctx.db);
    await sendSequenceEmails(t().ctx, sequence.id);

    const [item] = (await client.get('/api/outbox?search=seq%40x.io')).json().messages as { id: number }[];
    const named = {
      to: 'seq@x.io',
      subject: 'Welcome aboard',
      campaignId: null,
      campaignName: null,
      sequenceId: sequence.id,
      sequenceName: 'Onboarding',
      sequenceStep: 'Welcome note',
    };
    expect(item).toMatchObject(named);
    expect((await client.get(`/api/outbox/${item?.id}`)).json()).toMatchObject(named);
    // Campaign mail names no sequence.
    await sentCampaign(t(), client, 'plain', 1, 'Plain');
    expect((await client.get('/api/outbox?search=plain0')).json().messages[0]).toMatchObject({
      campaignName: 'plain campaign',
      sequenceId: null,
      sequenceName: null,
      sequenceStep: null,
    });
    // The name is the sequence's now; once it is deleted the message names none.
    await client.patch(`/api/email-sequences/${sequence.id}`, { name: 'Onboarding v2' });
    expect((await client.get(`/api/outbox/${item?.id}`)).json()).toMatchObject({ sequenceName: 'Onboarding v2' });
    expect((await client.delete(`/api/email-sequences/${sequence.id}`)).statusCode).toBeLessThan(300);
    expect((await client.get(`/api/outbox/${item?.id}`)).json()).toMatchObject({
      sequenceId: null,
      sequenceName: null,
      sequenceStep: null,
    });
  });

  it('shows each user only their own messages', async () => {
    const a = await signUpUser(t());
    await sentCampaign(t(), a.client, 'mine', 2, 'Private');
    const [own] = (await a.client.get('/api/outbox')).json().messages as { id: number }[];

    const b = await signUpUser(t());
    const theirs = await b.client.get('/api/outbox');
    // Only b's own: the links sign-up sent to b.
    expect(theirs.headers['x-total-count']).toBe(String(SIGN_UP_MAILS));
    expect(theirs.json().transport).toBe('catcher');
    expect(
      theirs
        .json()
        .messages.map((m: { to: string }) => m.to)
        .sort(),
    ).toEqual([b.email, TEST_SENDER].sort());
    expect((await b.client.get('/api/outbox?search=mine0')).json().messages).toEqual([]);
    const foreign = await b.client.get(`/api/outbox/${own?.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ message: 'Message not found' });
    expect((await b.client.get('/api/outbox/999999999')).statusCode).toBe(404);
  });

  it('refuses bad input with 400 and visitors with 401', async () => {
    const { client } = await signUpUser(t());
    const tooBig = await client.get('/api/outbox?pageSize=500');
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().message).toContain('pageSize must be at most 100');
    expect((await client.get('/api/outbox?page=0')).statusCode).toBe(400);
    expect((await client.get('/api/outbox?page=abc')).statusCode).toBe(400);
    expect((await client.get(`/api/outbox?search=${'x'.repeat(201)}`)).statusCode).toBe(400);
    expect((await client.get('/api/outbox/abc')).statusCode).toBe(400);
    const anon = t().client();
    expect((await anon.get('/api/outbox')).statusCode).toBe(401);
    expect((await anon.get('/api/outbox/1')).statusCode).toBe(401);
  });
});

describe('outbox with SMTP_URL set', () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => sink.close());
  const t = useTestApp(() => ({ SMTP_URL: sink.url }));

  it('says mail goes to the SMTP server and stores nothing', async () => {
    const { client } = await signUpUser(t());
    await sentCampaign(t(), client, 'relay', 2, 'Relayed');
    // The two campaign messages, and the confirmation links sign-up sent, all went to the relay.
    expect(sink.received).toHaveLength(2 + SIGN_UP_MAILS);
    expect(
      sink.received
        .filter((m) => m.parsed.subject === 'Relayed')
        .map((m) => m.to[0])
        .sort(),
    ).toEqual(['relay0@x.io', 'relay1@x.io']);
    const outbox = await client.get('/api/outbox');
    expect(outbox.json()).toEqual({ transport: 'smtp', messages: [] });
    expect(outbox.headers['x-total-count']).toBe('0');
  });
});
