import { describe, expect, it } from 'vitest';
import type { Lead, LeadSource } from '@sendwell/contract/leads';
import {
  followConfirmationLink,
  signUpUser,
  useTestApp,
  type TestApp,
  type TestClient,
} from '../../../test/build-app.ts';
import { leadFormConfirmationJob } from './leads.jobs.ts';
import { formConfirmationLink } from './lead-forms.service.ts';

type OutboxList = { messages: { id: number; to: string; subject: string }[] };

/** Posts a hosted form the way a browser on another site does (form-encoded, cross-site Origin). */
function submit(client: TestClient, slug: string, fields: Record<string, string>, remoteAddress?: string) {
  return client.request({
    method: 'POST',
    url: `/f/${slug}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://customer-site.example' },
    payload: new URLSearchParams(fields).toString(),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

async function formSource(
  client: TestClient,
  body: Record<string, unknown> = {},
): Promise<LeadSource & { slug: string }> {
  const created = await client.post('/api/lead-sources', { type: 'form', name: 'Acme newsletter', ...body });
  expect(created.statusCode, created.body).toBe(201);
  const source = created.json() as LeadSource;
  return { ...source, slug: String(source.settings.slug) };
}

/** Runs the queued confirmation mails the way a worker would (tests run without pg-boss workers). */
async function runConfirmationJobs(t: TestApp): Promise<number> {
  let ran = 0;
  for (;;) {
    const jobs = await t.ctx.queue.fetch<unknown>(leadFormConfirmationJob.name, { batchSize: 50 });
    if (!jobs || jobs.length === 0) return ran;
    for (const job of jobs) {
      const data = leadFormConfirmationJob.payload.parse(job.data);
      await leadFormConfirmationJob.handler(t.ctx, data);
      // A second run of the same job sends nothing more (the mail is claimed once).
      await leadFormConfirmationJob.handler(t.ctx, data);
      await t.ctx.queue.complete(leadFormConfirmationJob.name, job.id);
      ran += 1;
    }
  }
}

/** The confirmation link in the Outbox message to `to` (its text part carries it). */
async function linkInOutbox(client: TestClient, to: string): Promise<string> {
  const list = (await client.get(`/api/outbox?search=${encodeURIComponent(to)}`)).json() as OutboxList;
  const message = list.messages.find((m) => m.to.includes(to));
  // Named by the account's business (its company at sign-up), not by the source's own label.
  expect(message?.subject).toBe('Confirm your subscription to Analytical Engines');
  const full = (await client.get(`/api/outbox/${message?.id}`)).json() as { text: string };
  expect(full.text).toContain('signed up to "Analytical Engines"');
  const link = /https?:\/\/\S+\/f\/[\w-]+\/confirm\?token=\S+/.exec(full.text)?.[0];
  if (!link) throw new Error('no confirmation link in the mail');
  return link;
}

/** The account's notifications, newest first. */
async function notificationTitles(client: TestClient): Promise<string[]> {
  const list = (await client.get('/api/notifications')).json() as { notifications: { title: string }[] };
  return list.notifications.map((n) => n.title);
}

describe('hosted lead forms', () => {
  const t = useTestApp({ LEAD_FORM_RATE_LIMIT_PER_MINUTE: '5' });

  it('submission → confirmation mail in the Outbox → link → lead with its consent record', async () => {
    const { client } = await signUpUser(t());
    const source = await formSource(client, { consentText: 'Send me the Acme newsletter.' });

    const page = await t().client().get(`/f/${source.slug}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('Send me the Acme newsletter.');
    expect(page.body).toContain('name="email"');
    // The page is headed by the business name the account set, never the source's internal name.
    expect(page.body).toContain('<h1>Analytical Engines</h1>');
    expect(page.body).not.toContain('<h1>Acme newsletter</h1>');

    const visitor = t().client();
    const answer = await submit(
      visitor,
      source.slug,
      { email: 'Reader@Mail.example', firstName: 'Rita', lastName: 'Reader', company: 'Books', website: '' },
      '203.0.113.7',
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.body).toContain('Check your inbox');
    // No lead until the person confirms; the mail is queued, then sent by the job.
    expect((await client.get('/api/leads')).json()).toEqual([]);
    expect(await runConfirmationJobs(t())).toBe(1);

    const link = await linkInOutbox(client, 'reader@mail.example');
    const opened = await visitor.get(new URL(link).pathname + new URL(link).search);
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toContain('Yes, subscribe me');
    expect((await client.get('/api/leads')).json()).toEqual([]);

    const confirmed = await followConfirmationLink(visitor, link);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain('Subscription confirmed');
    expect((await followConfirmationLink(visitor, link)).statusCode).toBe(200);

    const leads = (await client.get('/api/leads')).json() as Lead[];
    expect(leads).toHaveLength(1);
    const [lead] = leads;
    expect(lead).toMatchObject({
      email: 'reader@mail.example',
      firstName: 'Rita',
      lastName: 'Reader',
      company: 'Books',
      status: 'new',
      sourceId: source.id,
      lawfulBasis: 'consent',
      metadata: { source: 'Acme newsletter' },
    });
    expect(lead?.consent).toMatchObject({ ip: '203.0.113.7', formVersion: 1, text: 'Send me the Acme newsletter.' });
    expect(Date.parse(lead?.consent?.confirmedAt ?? '')).toBeGreaterThanOrEqual(
      Date.parse(lead?.consent?.submittedAt ?? ''),
    );
    expect(((await client.get('/api/lead-sources')).json() as LeadSource[])[0]?.totalLeads).toBe(1);

    // A link altered or for another form is refused.
    const tampered = await visitor.get(`${new URL(link).pathname}${new URL(link).search.slice(0, -2)}xx`);
    expect(tampered.statusCode).toBe(400);
    const other = await formSource(client);
    const wrongForm = await visitor.get(`/f/${other.slug}/confirm${new URL(link).search}`);
    expect(wrongForm.statusCode).toBe(400);
    // Expired: a link for a submission not yet confirmed, made 49 hours ago.
    await submit(visitor, source.slug, { email: 'late@mail.example' });
    await runConfirmationJobs(t());
    const lateLink = await linkInOutbox(client, 'late@mail.example');
    const token = new URL(lateLink).searchParams.get('token') ?? '';
    const id = Number(
      Buffer.from(token.split('.')[0] ?? '', 'base64url')
        .toString('utf8')
        .split('.')[1]
        ?.split(':')[0],
    );
    const old = formConfirmationLink(
      t().ctx.config,
      source.slug,
      { id, email: 'late@mail.example' },
      new Date(Date.now() - 49 * 3600_000),
    );
    expect((await visitor.get(new URL(old).pathname + new URL(old).search)).statusCode).toBe(410);
  });

  it('a single opt-in form stores the lead at once; bad input re-renders the form with its error', async () => {
    const { client } = await signUpUser(t());
    const source = await formSource(client, { doubleOptIn: false });
    const visitor = t().client();
    const bad = await submit(visitor, source.slug, { email: 'not-an-email', firstName: 'Bo' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Please enter a valid email address');
    expect(bad.body).toContain('value="Bo"');
    const ok = await submit(visitor, source.slug, { email: 'bo@x.example', firstName: 'Bo' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.body).toContain('You are subscribed');
    const [lead] = (await client.get('/api/leads')).json() as Lead[];
    expect(lead).toMatchObject({ email: 'bo@x.example', lawfulBasis: 'consent' });
    expect(lead?.consent).toMatchObject({ confirmedAt: null, formVersion: 1 });
    expect(
      ((await client.get('/api/outbox')).json() as OutboxList).messages.filter((m) => m.to.includes('bo@')),
    ).toEqual([]);
  });

  it('a filled honeypot answers like success and stores and mails nothing', async () => {
    const { client } = await signUpUser(t());
    const source = await formSource(client);
    const bot = await submit(t().client(), source.slug, { email: 'bot@spam.example', website: 'http://spam.example' });
    expect(bot.statusCode).toBe(200);
    expect(bot.body).toContain('Check your inbox');
    expect(await runConfirmationJobs(t())).toBe(0);
    const outbox = (await client.get('/api/outbox?search=bot%40spam')).json() as OutboxList;
    expect(outbox.messages).toEqual([]);
    expect((await client.get('/api/leads')).json()).toEqual([]);
  });

  it('limits submissions per client address; unknown and inactive forms are 404', async () => {
    const { client } = await signUpUser(t());
    const source = await formSource(client, { doubleOptIn: false });
    const visitor = t().client();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      statuses.push((await submit(visitor, source.slug, { email: `r${i}@x.example` }, '198.51.100.9')).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    // Another address is not held back.
    expect((await submit(visitor, source.slug, { email: 'other@x.example' }, '198.51.100.10')).statusCode).toBe(200);

    expect((await t().client().get('/f/no-such-form')).statusCode).toBe(404);
    await client.patch(`/api/lead-sources/${source.id}`, { isActive: false });
    expect((await t().client().get(`/f/${source.slug}`)).statusCode).toBe(404);
    expect((await submit(t().client(), source.slug, { email: 'late@x.example' })).statusCode).toBe(404);
  });

  // Issue 27 (4): a fresh account's form mailed strangers with its own name and consent text.
  it('an unconfirmed account’s hosted form sends no double opt-in mail: it says so (403) and stores nothing', async () => {
    const { client } = await signUpUser(t(), { confirmEmail: false, senders: [] });
    const source = await formSource(client, { consentText: 'Visit https://evil.example for prizes' });
    const answer = await submit(t().client(), source.slug, { email: 'stranger@mail.example' }, '192.0.2.44');
    expect(answer.statusCode).toBe(403);
    expect(answer.body).toContain('This form cannot send confirmation emails yet');
    expect(await runConfirmationJobs(t())).toBe(0);
    const outbox = (await client.get('/api/outbox?search=stranger')).json() as OutboxList;
    expect(outbox.messages).toEqual([]);
  });

  it('the double opt-in mail repeats no consent text, and the business name only when it is a plain name', async () => {
    const { client } = await signUpUser(t(), { company: 'Win big at https://evil.example' });
    const source = await formSource(client, {
      name: 'Win big at https://evil.example',
      consentText: 'Call +1 555 0100 now',
    });
    const answer = await submit(t().client(), source.slug, { email: 'plain@mail.example' }, '192.0.2.45');
    expect(answer.statusCode).toBe(200);
    expect(await runConfirmationJobs(t())).toBe(1);
    const list = (await client.get('/api/outbox?search=plain%40mail')).json() as OutboxList;
    // A company that reads as a link is left out: the owner's plain name stands in.
    expect(list.messages.map((m) => m.subject)).toEqual(['Confirm your subscription to Ada Lovelace']);
    const full = (await client.get(`/api/outbox/${list.messages[0]?.id}`)).json() as { text: string; html: string };
    expect(`${full.text}${full.html}`).not.toContain('evil.example');
    expect(`${full.text}${full.html}`).not.toContain('555 0100');
  });
});

describe('hosted lead forms: double opt-in caps', () => {
  const t = useTestApp({ LEAD_FORM_CONFIRMATIONS_PER_ACCOUNT_DAY: '103' });

  // Issue 27 (4): no cap per form or account, only 10 a minute per client IP.
  it('form cap: the 101st double opt-in in an hour is refused (429, nothing stored) with a notification; the account’s daily cap too', async () => {
    const { client } = await signUpUser(t());
    const source = await formSource(client);
    const statuses: number[] = [];
    for (let i = 0; i < 102; i += 1) {
      const answer = await submit(t().client(), source.slug, { email: `c${i}@mail.example` }, `10.1.${i}.1`);
      statuses.push(answer.statusCode);
    }
    expect(statuses.slice(0, 100).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(100)).toEqual([429, 429]);
    const refused = await submit(t().client(), source.slug, { email: 'late@mail.example' }, '10.2.0.1');
    expect(refused.body).toContain('Please try again later');
    expect(await runConfirmationJobs(t())).toBe(100);
    // One notification for the form's window, not one per refusal.
    expect((await notificationTitles(client)).filter((n) => n.includes('reached its limit'))).toEqual([
      'Form "Acme newsletter" reached its limit',
    ]);

    // Another form of the same account has its own hourly cap, under the account's daily one (103 here).
    const second = await formSource(client);
    const more: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      more.push((await submit(t().client(), second.slug, { email: `d${i}@mail.example` }, `10.3.${i}.1`)).statusCode);
    }
    expect(more).toEqual([200, 200, 200, 429, 429]);
    expect(await runConfirmationJobs(t())).toBe(3);
    expect(await notificationTitles(client)).toContain('Your forms reached their daily limit');

    // Another account is not held back by these caps (tenant isolation).
    const { client: other } = await signUpUser(t());
    const theirs = await formSource(other);
    expect((await submit(t().client(), theirs.slug, { email: 'x@mail.example' }, '10.4.0.1')).statusCode).toBe(200);
    expect((await notificationTitles(other)).filter((n) => n.includes('limit'))).toEqual([]);
  });
});
