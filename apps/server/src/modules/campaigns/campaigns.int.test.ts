import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSendJobs } from '../../../test/send-jobs.ts';
import { signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';

const blocks = [
  { id: 'b1', type: 'text', content: { text: 'Spring Sale', tag: 'h1' } },
  { id: 'b2', type: 'text', content: { text: 'Hi {{firstName|there}}, our sale starts now.', tag: 'p' } },
  { id: 'b3', type: 'button', content: { text: 'Shop Now', url: 'https://shop.example.com/spring' } },
];
const draft = (extra: Record<string, unknown> = {}) => ({
  name: 'Spring',
  subject: 'Spring is here, {{firstName|friend}}',
  fromEmail: 'News@Acme.example',
  fromName: 'Acme News',
  content: { html: '' },
  blocks,
  ...extra,
});

async function audience(client: TestClient, emails: string[]) {
  const list = (await client.post('/api/contact-lists', { name: `Audience ${emails.length}` })).json() as {
    id: number;
  };
  const csv = `email,firstName\n${emails.map((e, i) => `${e},Person${i}`).join('\n')}\n`;
  expect((await client.post('/api/contacts/import-csv', { csvData: csv, listId: list.id })).statusCode).toBe(200);
  return list.id;
}

describe('campaigns API', () => {
  const t = useTestApp();

  it.each([
    [{ name: '' }, 'name', 'Campaign name is required'],
    [{ subject: ' ' }, 'subject', 'Subject line is required'],
    [{ fromEmail: 'nope' }, 'fromEmail', 'Invalid email format'],
    [{ subject: 'Hi\r\nBcc: victim@example.com' }, 'subject', 'Subject line cannot contain line breaks'],
    [{ fromName: 'Acme\nBcc: x@y.z' }, 'fromName', 'From name cannot contain line breaks'],
    [{ preheader: 'a'.repeat(201) }, 'preheader', 'Preview text must be at most 200 characters'],
    [{ preheader: 'one\ntwo' }, 'preheader', 'Preview text cannot contain line breaks'],
    [{ status: 'archived' }, 'status', 'Status must be draft, scheduled, sending or sent'],
    [
      { blocks: [{ id: 'x', type: 'button', content: { text: 'Go', url: 'javascript:alert(1)' } }] },
      'blocks.0.content.url',
      'Enter a full http:// or https:// URL',
    ],
  ])('refuses %j with 400 and stores nothing', async (change, field, message) => {
    const { client } = await signUpUser(t());
    const response = await client.post('/api/campaigns', draft(change));
    expect(response.statusCode).toBe(400);
    expect(response.json().fields[field]).toBe(message);
    expect((await client.get('/api/campaigns')).json()).toEqual([]);
  });

  it('refuses an unknown merge tag at save', async () => {
    const { client } = await signUpUser(t());
    const response = await client.post('/api/campaigns', draft({ subject: 'Hi {{password}}' }));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(
      'Unknown merge tag {{password}}. Use {{firstName}}, {{lastName}}, {{email}}, {{company}}, {{jobTitle}} or {{location}}.',
    );
  });

  it('saves a draft with its blocks and recipients and reopens it as it was', async () => {
    const { client } = await signUpUser(t());
    const listId = await audience(client, ['a@x.io']);
    const created = await client.post('/api/campaigns', draft({ listIds: [listId] }));
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({ status: 'draft', fromEmail: 'news@acme.example', listIds: [listId], segmentIds: [] });
    expect(body.content.html).toContain('Spring Sale');
    const reopened = (await client.get(`/api/campaigns/${body.id}`)).json();
    expect(reopened.blocks).toEqual(blocks.map((b) => ({ ...b, styles: {} })));
    const patched = await client.patch(`/api/campaigns/${body.id}`, { name: 'Spring v2' });
    expect(patched.json().name).toBe('Spring v2');
    expect((await client.get(`/api/campaigns/${body.id}/recipients`)).json()).toEqual({ count: 1 });
  });

  it('schedules only in the future, and a scheduled campaign can go back to draft but not be edited', async () => {
    const { client } = await signUpUser(t());
    const past = await client.post(
      '/api/campaigns',
      draft({ status: 'scheduled', scheduledAt: new Date(Date.now() - 60_000).toISOString() }),
    );
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe('Choose a time in the future to schedule this campaign');
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = (await client.post('/api/campaigns', draft({ status: 'scheduled', scheduledAt: at }))).json();
    expect(scheduled).toMatchObject({ status: 'scheduled', scheduledAt: at });
    const edit = await client.patch(`/api/campaigns/${scheduled.id}`, { name: 'Changed' });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().message).toBe('Only draft campaigns can be edited');
    expect((await client.patch(`/api/campaigns/${scheduled.id}`, { status: 'draft' })).json()).toMatchObject({
      status: 'draft',
      scheduledAt: null,
    });
  });

  it('previews the server rendering of unsaved blocks', async () => {
    const { client } = await signUpUser(t(), { firstName: 'Grace' });
    const response = await client.post('/api/campaigns/preview', { blocks, subject: 'x' });
    expect(response.statusCode).toBe(200);
    expect(response.json().html).toContain('Hi Grace, our sale starts now.');
  });

  it('keeps each user to their own campaigns, lists and segments', async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const listId = await audience(a.client, ['z@x.io']);
    const campaign = (await a.client.post('/api/campaigns', draft())).json();
    expect((await b.client.get('/api/campaigns')).json()).toEqual([]);
    expect((await b.client.get(`/api/campaigns/${campaign.id}`)).statusCode).toBe(404);
    expect((await b.client.patch(`/api/campaigns/${campaign.id}`, { name: 'x' })).statusCode).toBe(404);
    expect((await b.client.delete(`/api/campaigns/${campaign.id}`)).statusCode).toBe(404);
    expect((await b.client.post(`/api/campaigns/${campaign.id}/send`)).statusCode).toBe(404);
    expect((await b.client.post(`/api/campaigns/${campaign.id}/test`, { emails: ['b@x.io'] })).statusCode).toBe(404);
    expect((await b.client.post('/api/campaigns', draft({ listIds: [listId] }))).statusCode).toBe(404);
  });

  it('deletes drafts only', async () => {
    const { client } = await signUpUser(t());
    const campaign = (await client.post('/api/campaigns', draft())).json();
    expect((await client.delete(`/api/campaigns/${campaign.id}`)).statusCode).toBe(204);
    expect((await client.get(`/api/campaigns/${campaign.id}`)).statusCode).toBe(404);
  });
});

describe('sending through a real SMTP server', () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    sink = await startSmtpSink({ reject: (address) => address.startsWith('bad') });
  });
  afterAll(async () => sink.close());
  const t = useTestApp(() => ({ SMTP_URL: sink.url }));

  it('needs a postal address (422) and recipients', async () => {
    const { client } = await signUpUser(t());
    const campaign = (await client.post('/api/campaigns', draft())).json();
    const noAddress = await client.post(`/api/campaigns/${campaign.id}/send`);
    expect(noAddress.statusCode).toBe(422);
    expect(noAddress.json().message).toContain('postal address');
    await client.patch('/api/auth/user', { postalAddress: '1 Main St, Springfield' });
    const noRecipients = await client.post(`/api/campaigns/${campaign.id}/send`);
    expect(noRecipients.statusCode).toBe(400);
    expect(noRecipients.json().message).toContain('no recipients');
  });

  // First-hour finding 12: a campaign created with status 'sent' and refused still left a draft behind.
  it('leaves nothing behind when a campaign created to be sent at once is refused', async () => {
    const { client } = await signUpUser(t());
    const refused = await client.post('/api/campaigns', draft({ name: 'Send me now', status: 'sent' }));
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toContain('postal address');
    const names = ((await client.get('/api/campaigns')).json() as { name: string }[]).map((c) => c.name);
    expect(names).not.toContain('Send me now');
    // Refused for another reason (an empty list) once the address is set: still nothing left behind.
    await client.patch('/api/auth/user', { postalAddress: '1 Main St, Springfield' });
    const empty = (await client.post('/api/contact-lists', { name: 'Empty' })).json() as { id: number };
    const noRecipients = await client.post(
      '/api/campaigns',
      draft({ name: 'Send me now', status: 'sent', listIds: [empty.id] }),
    );
    expect(noRecipients.statusCode).toBe(400);
    expect(noRecipients.json().message).toContain('no recipients');
    const after = ((await client.get('/api/campaigns')).json() as { name: string }[]).map((c) => c.name);
    expect(after).not.toContain('Send me now');
  });

  it('sends to every recipient once, with unsubscribe headers, merge tags and a footer; tracks opens, clicks and unsubscribes', async () => {
    const { client } = await signUpUser(t(), { company: 'Acme' });
    await client.patch('/api/auth/user', { postalAddress: '1 Main St, Springfield' });
    const emails = ['ann@x.io', 'bob@x.io', 'bad-one@x.io', 'cy@x.io'];
    const listId = await audience(client, emails);
    const campaign = (await client.post('/api/campaigns', draft({ listIds: [listId] }))).json();
    const before = sink.received.length;
    const sent = await client.post(`/api/campaigns/${campaign.id}/send`);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ status: 'sending', totalRecipients: 4 });
    await runSendJobs(t());

    const mine = sink.received.slice(before);
    expect(mine.map((m) => m.to[0]).sort()).toEqual(['ann@x.io', 'bob@x.io', 'cy@x.io']);
    const ann = mine.find((m) => m.to[0] === 'ann@x.io');
    expect(ann?.parsed.subject).toBe('Spring is here, Person0');
    expect(ann?.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    const unfolded = String(ann?.raw).replace(/\r?\n[ \t]+/g, ' ');
    const listHeader = String(unfolded.match(/^List-Unsubscribe: (.+?)\r?$/m)?.[1] ?? '');
    expect(listHeader).toMatch(/<http:\/\/localhost:5000\/u\/[^>]+>/);
    // The mailto is the message's own tokenised address at its return-path host, which we receive.
    const returnPathHost = String(ann?.from).split('@')[1];
    expect(listHeader).toMatch(
      new RegExp(`<mailto:unsubscribe\\+s[0-9a-z]+-[0-9a-f]{16}@${returnPathHost}\\?subject=unsubscribe>`),
    );
    expect(ann?.parsed.messageId).toMatch(/@acme\.example>$/);
    expect(ann?.parsed.html).toContain('Hi Person0, our sale starts now.');
    expect(ann?.parsed.html).toContain('1 Main St, Springfield');
    expect(ann?.parsed.text).toContain('Unsubscribe: http://localhost:5000/u/');
    expect(ann?.raw).not.toContain('ann@x.io/');

    const afterSend = (await client.get(`/api/campaigns/${campaign.id}`)).json();
    expect(afterSend).toMatchObject({ status: 'sent', totalSent: 3 });
    expect(afterSend.sentAt).toBeTruthy();

    const html = String(ann?.parsed.html);
    const pixel = new URL(/<img src="([^"]+\/t\/o\/[^"]+)"/.exec(html)?.[1] ?? '').pathname;
    const click = new URL((/href="([^"]+\/t\/c\/[^"]+)"/.exec(html)?.[1] ?? '').replaceAll('&amp;', '&')).pathname;
    const unsubscribe = new URL(listHeader.match(/<(http[^>]+)>/)?.[1] ?? '').pathname;
    const anon = t().client();
    expect((await anon.get(pixel)).headers['content-type']).toBe('image/gif');
    await anon.get(pixel);
    const redirect = await anon.get(click);
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toBe('https://shop.example.com/spring');
    expect((await anon.get(`${click.slice(0, -3)}abc`)).statusCode).toBe(404);
    expect((await anon.get('/t/c/bm90LWEtdG9rZW4.AAAAAAAAAAAAAAAAAAAAAA?url=https://evil.example')).statusCode).toBe(
      404,
    );
    const report = (await client.get(`/api/campaigns/${campaign.id}`)).json();
    expect(report).toMatchObject({ totalOpens: 1, totalClicks: 1, openRate: 33.3, clickRate: 33.3 });
    const detailed = (await client.get(`/api/campaigns/${campaign.id}/report`)).json();
    expect(detailed).toMatchObject({
      recipients: 4,
      sent: 3,
      delivered: 3,
      bounced: 1,
      failed: 0,
      uniqueOpens: 1,
      uniqueClicks: 1,
    });
    expect(detailed.topLinks).toEqual([{ url: 'https://shop.example.com/spring', clicks: 1, uniqueClicks: 1 }]);
    expect(detailed.timeline).toHaveLength(1);
    // The second load of the pixel came within 10 minutes of the first: one open in the event log.
    expect(detailed.timeline[0]).toMatchObject({ opens: 1, clicks: 1 });

    const page = await anon.get(unsubscribe);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Unsubscribe from all emails');
    expect((await client.get('/api/contacts?search=ann@x.io')).json()[0].isActive).toBe(true);
    const oneClick = await anon.request({
      method: 'POST',
      url: unsubscribe,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://mail.provider.example' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect((await anon.request({ method: 'POST', url: unsubscribe })).statusCode).toBe(200);
    const annContact = (await client.get('/api/contacts?search=ann@x.io')).json()[0];
    expect(annContact).toMatchObject({ isActive: false, totalEmailsOpened: 1, totalEmailsClicked: 1 });

    const bad = (await client.get('/api/contacts?search=bad-one')).json()[0];
    expect(bad.email).toBe('bad-one@x.io');
    // The relay's 550 at RCPT put it on the suppression list, with the reason and the campaign.
    const suppressed = (await client.get('/api/suppressions?search=bad-one')).json().suppressions;
    expect(suppressed).toMatchObject([
      {
        email: 'bad-one@x.io',
        reason: 'bounce',
        campaignId: campaign.id,
        detail: expect.stringMatching(/^user-unknown: /),
      },
    ]);
    // A second campaign to the same list skips the unsubscribed and the hard-bounced address.
    const second = (await client.post('/api/campaigns', draft({ name: 'Again', listIds: [listId] }))).json();
    expect((await client.post(`/api/campaigns/${second.id}/send`)).json().totalRecipients).toBe(2);
  });

  it('sends a test to the typed addresses, marked as a test', async () => {
    const { client, email } = await signUpUser(t());
    const campaign = (await client.post('/api/campaigns', draft())).json();
    const before = sink.received.length;
    const response = await client.post(`/api/campaigns/${campaign.id}/test`, { emails: [email] });
    expect(response.json()).toEqual({ sent: 1 });
    const test = sink.received.slice(before)[0];
    expect(test?.parsed.subject).toBe('[Test] Spring is here, Ada');
    expect(test?.raw).toMatch(/^X-Sendwell-Test: yes\r?$/m);
    // Without a preheader the body starts with the layout, no hidden span.
    expect(test?.parsed.html).not.toContain('class="preheader"');
    const invalid = await client.post(`/api/campaigns/${campaign.id}/test`, { emails: [] });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toBe('Enter at least one email address');
  });

  it('stores the preheader and sends it as a hidden span at the top of the body, merge tags filled', async () => {
    const { client, email } = await signUpUser(t());
    const created = await client.post('/api/campaigns', draft({ preheader: '  Fresh picks for {{firstName}} ' }));
    expect(created.statusCode, created.body).toBe(201);
    const campaign = created.json() as { id: number; preheader: string | null };
    expect((await client.get(`/api/campaigns/${campaign.id}`)).json().preheader).toBe('Fresh picks for {{firstName}}');
    const unknown = await client.patch(`/api/campaigns/${campaign.id}`, { preheader: 'Hi {{nickname}}' });
    expect(unknown.statusCode).toBe(400);
    const before = sink.received.length;
    await client.post(`/api/campaigns/${campaign.id}/test`, { emails: [email] });
    const html = sink.received.slice(before)[0]?.parsed.html || '';
    const body = html.slice(html.indexOf('<body'));
    const span = /^<body[^>]*><span class="preheader" style="display:none!important;[^"]*">Fresh picks for Ada/.exec(
      body,
    );
    expect(span, body.slice(0, 400)).not.toBeNull();
    // Cleared: the preheader goes, and so does the span.
    const cleared = await client.patch(`/api/campaigns/${campaign.id}`, { preheader: '' });
    expect(cleared.json().preheader).toBeNull();
    const preview = await client.post('/api/campaigns/preview', {
      blocks: [{ id: 'b', type: 'text', content: { text: 'Hi', tag: 'p' } }],
      subject: 'x',
      preheader: 'Seen in the inbox',
    });
    expect(preview.json().html).toContain('Seen in the inbox');
  });
});
