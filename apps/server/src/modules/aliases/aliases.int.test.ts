import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALIAS_EXISTS,
  ALIAS_TESTS_PER_MINUTE,
  ALIAS_REQUIRED,
  ALIAS_TOO_LONG,
  CATCH_ALL_EXISTS,
  DESTINATION_REQUIRED,
  FORWARDING_LOOP,
  INVALID_ALIAS_FORMAT,
  INVALID_DESTINATION_SIMPLE,
  INVALID_EMAIL_ADDRESS,
  PRIORITY_RANGE,
  RULE_NAME_REQUIRED,
  WEIGHT_RANGE,
  type EmailAlias,
  type ForwardingDestination,
  type ForwardingRule,
  type ForwardingStats,
} from '@sendwell/contract/aliases';
import { followConfirmationLink, signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';
import { startSmtpSink, type ReceivedMessage } from '../../../test/smtp-sink.ts';
import { signExpiringToken } from '../../lib/expiring-token.ts';
import { FORWARD_CONFIRMATIONS_PER_HOUR } from './aliases.service.ts';

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink.close();
});

function forwardingLinkIn(message: ReceivedMessage | undefined): string {
  const link = /https?:\/\/\S+\/confirm-forwarding\?token=\S+/.exec(message?.parsed.text ?? '')?.[0];
  if (!link) throw new Error(`no forwarding confirmation link in ${message?.parsed.subject}`);
  return link;
}
const receivedTo = (to: string) => sink.received.filter((m) => m.to.includes(to));

async function addDomain(client: TestClient, name: string): Promise<number> {
  const added = await client.post('/api/domains', { domain: name });
  expect(added.statusCode, added.body).toBe(201);
  return (added.json() as { id: number }).id;
}

const messages = (body: string) =>
  (JSON.parse(body) as { fields?: Record<string, string>; message: string }).fields ?? {};

describe('email aliases, rules, destinations', () => {
  const t = useTestApp(() => ({ SMTP_URL: sink.url }));

  it('creates, lists, updates and deletes aliases on the account’s own domain, confirming the destination by link', async () => {
    const { client } = await signUpUser(t());
    const domainId = await addDomain(client, 'alpha.example');
    const created = await client.post(`/api/domains/${domainId}/aliases`, {
      alias: 'Sales',
      destination: 'Boss@Inbox.example',
    });
    expect(created.statusCode, created.body).toBe(201);
    const alias = created.json() as EmailAlias;
    expect(alias).toMatchObject({
      alias: 'sales',
      address: 'sales@alpha.example',
      destination: 'boss@inbox.example',
      isVerified: false,
      isActive: true,
      forwardingType: 'simple',
      domainId,
      destinationConfirmed: false,
    });
    expect(alias.confirmationSentAt).not.toBeNull();

    const link = forwardingLinkIn(receivedTo('boss@inbox.example').at(-1));
    // The mailbox's owner confirms, signed in or not.
    const confirmed = await followConfirmationLink(t().client(), link);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain('Forwarding confirmed');

    const list = (await client.get(`/api/domains/${domainId}/aliases`)).json() as EmailAlias[];
    expect(list.map((a) => [a.address, a.isVerified])).toEqual([['sales@alpha.example', true]]);

    const again = await client.post(`/api/domains/${domainId}/aliases`, { alias: 'sales', destination: 'x@y.example' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(ALIAS_EXISTS);

    const star = await client.post(`/api/domains/${domainId}/aliases`, { alias: '*', forwardingType: 'split' });
    expect(star.statusCode, star.body).toBe(201);
    const star2 = await client.post(`/api/domains/${domainId}/aliases`, { alias: '*', forwardingType: 'simple' });
    expect(star2.statusCode).toBe(409);
    expect(star2.json().message).toBe(CATCH_ALL_EXISTS);

    const patched = await client.patch(`/api/email-aliases/${alias.id}`, {
      description: 'Sales inbox',
      forwardingType: 'round_robin',
      autoReply: true,
      autoReplyMessage: 'Thanks!',
      isActive: false,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({
      description: 'Sales inbox',
      forwardingType: 'round_robin',
      isActive: false,
    });

    const resend = await client.post(`/api/email-aliases/${alias.id}/resend-confirmation`);
    expect(resend.json()).toMatchObject({ sent: false, email: 'boss@inbox.example' });

    expect((await client.delete(`/api/email-aliases/${alias.id}`)).statusCode).toBe(204);
    expect((await client.get(`/api/email-aliases/${alias.id}`)).statusCode).toBe(404);
  });

  it('refuses bad input with the spec’s texts', async () => {
    const { client } = await signUpUser(t());
    const domainId = await addDomain(client, 'bravo.example');
    const post = (body: unknown) => client.post(`/api/domains/${domainId}/aliases`, body);
    const cases: [unknown, string, string][] = [
      [{ alias: '', destination: 'a@b.example' }, 'alias', ALIAS_REQUIRED],
      [{ alias: '-sales', destination: 'a@b.example' }, 'alias', INVALID_ALIAS_FORMAT],
      [{ alias: 'a b', destination: 'a@b.example' }, 'alias', INVALID_ALIAS_FORMAT],
      [{ alias: 'a'.repeat(65), destination: 'a@b.example' }, 'alias', ALIAS_TOO_LONG],
      [{ alias: 'sales' }, 'destination', DESTINATION_REQUIRED],
      [{ alias: 'sales', destination: 'nope' }, 'destination', INVALID_DESTINATION_SIMPLE],
      [{ alias: 'sales', destination: 'nope', forwardingType: 'split' }, 'destination', INVALID_EMAIL_ADDRESS],
    ];
    for (const [body, field, text] of cases) {
      const response = await post(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(messages(response.body)[field], JSON.stringify(body)).toBe(text);
    }
    const alias = (await post({ alias: 'ok', forwardingType: 'conditional' })).json() as EmailAlias;
    const rule = await client.post('/api/forwarding-rules', {
      name: ' ',
      priority: 101,
      actions: {},
      aliasId: alias.id,
    });
    expect(rule.statusCode).toBe(400);
    expect(messages(rule.body)).toMatchObject({ name: RULE_NAME_REQUIRED, priority: PRIORITY_RANGE });
    const badTo = await client.post('/api/forwarding-rules', {
      name: 'r',
      priority: 1,
      actions: { forwardTo: ['x'] },
      aliasId: alias.id,
    });
    expect(messages(badTo.body)['actions.forwardTo.0']).toBe(INVALID_EMAIL_ADDRESS);
    const dest = await client.post('/api/forwarding-destinations', { email: 'x', weight: 0, aliasId: alias.id });
    expect(dest.statusCode).toBe(400);
    expect(messages(dest.body)).toMatchObject({ email: INVALID_EMAIL_ADDRESS, weight: WEIGHT_RANGE });
    // Nothing half-written.
    expect((await client.get(`/api/domains/${domainId}/aliases`)).json()).toHaveLength(1);
  });

  it('keeps rules and destinations per alias, Pending until confirmed, and refuses loops', async () => {
    const { client } = await signUpUser(t());
    const domainId = await addDomain(client, 'charlie.example');
    const a = (await client.post(`/api/domains/${domainId}/aliases`, { alias: 'a', forwardingType: 'split' })).json();
    const b = (
      await client.post(`/api/domains/${domainId}/aliases`, { alias: 'b', destination: 'a@charlie.example' })
    ).json() as EmailAlias;
    expect(b.destination).toBe('a@charlie.example');
    // a → b while b → a is a loop.
    const loop = await client.post('/api/forwarding-destinations', { email: 'b@charlie.example', aliasId: a.id });
    expect(loop.statusCode).toBe(400);
    expect(loop.json().message).toBe(FORWARDING_LOOP);
    const loopRule = await client.post('/api/forwarding-rules', {
      name: 'back',
      priority: 5,
      actions: { forwardTo: ['b@charlie.example'] },
      aliasId: a.id,
    });
    expect(loopRule.statusCode).toBe(400);

    const d1 = await client.post('/api/forwarding-destinations', {
      email: 'one@team.example',
      name: 'One',
      weight: 3,
      aliasId: a.id,
    });
    expect(d1.statusCode, d1.body).toBe(201);
    expect(d1.json()).toMatchObject({ email: 'one@team.example', weight: 3, isConfirmed: false, aliasId: a.id });
    const dup = await client.post('/api/forwarding-destinations', { email: 'one@team.example', aliasId: a.id });
    expect(dup.statusCode).toBe(409);
    const rule = await client.post('/api/forwarding-rules', {
      name: 'Invoices',
      priority: 10,
      conditions: { subjectContains: 'invoice', hasAttachment: true },
      actions: { forwardTo: ['books@team.example'] },
      aliasId: a.id,
    });
    expect(rule.statusCode, rule.body).toBe(201);
    expect(rule.json()).toMatchObject({ pendingForwardTo: ['books@team.example'], priority: 10 });

    const rules = (await client.get(`/api/forwarding-rules?aliasId=${a.id}`)).json() as ForwardingRule[];
    expect(rules.map((r) => r.name)).toEqual(['Invoices']);
    const dests = (await client.get(`/api/forwarding-destinations?aliasId=${a.id}`)).json() as ForwardingDestination[];
    expect(dests.map((d) => d.email)).toEqual(['one@team.example']);
    expect((await client.get(`/api/forwarding-rules?aliasId=${b.id}`)).json()).toEqual([]);

    await followConfirmationLink(t().client(), forwardingLinkIn(receivedTo('one@team.example').at(-1)));
    const after = (await client.get(`/api/forwarding-destinations?aliasId=${a.id}`)).json() as ForwardingDestination[];
    expect(after[0]?.isConfirmed).toBe(true);
    const aliasA = (await client.get(`/api/email-aliases/${a.id}`)).json() as EmailAlias;
    expect(aliasA.isVerified).toBe(true);

    const stats = (await client.get(`/api/forwarding-stats?aliasId=${a.id}`)).json() as ForwardingStats;
    expect(stats).toMatchObject({ totalForwarded: 0, totalBlocked: 0, totalAutoReplied: 0, successRate: null });
    expect(stats.days).toHaveLength(30);
    expect((await client.get(`/api/email-aliases/${a.id}/activity`)).json()).toEqual([]);

    const destId = (d1.json() as ForwardingDestination).id;
    expect((await client.patch(`/api/forwarding-destinations/${destId}`, { weight: 7 })).json()).toMatchObject({
      weight: 7,
    });
    const ruleId = (rule.json() as ForwardingRule).id;
    expect((await client.patch(`/api/forwarding-rules/${ruleId}`, { isActive: false })).json()).toMatchObject({
      isActive: false,
    });
    expect((await client.delete(`/api/forwarding-rules/${ruleId}`)).statusCode).toBe(204);
    expect((await client.delete(`/api/forwarding-destinations/${destId}`)).statusCode).toBe(204);
  });

  it('edits a rule in full: name, conditions, actions; new forward addresses get their link, loops and empty actions are refused', async () => {
    const { client } = await signUpUser(t());
    const domainId = await addDomain(client, 'echo.example');
    const a = (
      await client.post(`/api/domains/${domainId}/aliases`, { alias: 'a', forwardingType: 'split' })
    ).json() as EmailAlias;
    await client.post(`/api/domains/${domainId}/aliases`, { alias: 'b', destination: 'a@echo.example' });
    const created = (
      await client.post('/api/forwarding-rules', {
        name: 'Offers',
        priority: 10,
        conditions: { subjectContains: 'offer' },
        actions: { block: true },
        aliasId: a.id,
      })
    ).json() as ForwardingRule;

    const edited = await client.patch(`/api/forwarding-rules/${created.id}`, {
      name: 'Invoices',
      priority: 20,
      conditions: { fromDomain: 'Billing.Example', hasAttachment: true },
      actions: { forwardTo: ['ledger@books.example'], autoReply: true, autoReplyMessage: 'Got it' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      name: 'Invoices',
      priority: 20,
      isActive: true,
      conditions: { fromDomain: 'billing.example', hasAttachment: true },
      actions: { block: false, forwardTo: ['ledger@books.example'], autoReply: true, autoReplyMessage: 'Got it' },
      pendingForwardTo: ['ledger@books.example'],
    });
    expect((edited.json() as ForwardingRule).conditions.subjectContains).toBeUndefined();
    // The new address is mailed its link, as at creation.
    expect(receivedTo('ledger@books.example')).toHaveLength(1);

    const empty = await client.patch(`/api/forwarding-rules/${created.id}`, { actions: {} });
    expect(empty.statusCode).toBe(400);
    const noMessage = await client.patch(`/api/forwarding-rules/${created.id}`, {
      actions: { autoReply: true },
    });
    expect(noMessage.statusCode).toBe(400);
    const loop = await client.patch(`/api/forwarding-rules/${created.id}`, {
      actions: { forwardTo: ['b@echo.example'] },
    });
    expect(loop.statusCode).toBe(400);
    expect(loop.json().message).toBe(FORWARDING_LOOP);
    const self = await client.patch(`/api/forwarding-rules/${created.id}`, {
      actions: { forwardTo: ['a@echo.example'] },
    });
    expect(self.statusCode).toBe(400);
    const blankName = await client.patch(`/api/forwarding-rules/${created.id}`, { name: ' ' });
    expect(messages(blankName.body)).toMatchObject({ name: RULE_NAME_REQUIRED });
    // Nothing half-written by the refused edits.
    const [kept] = (await client.get(`/api/forwarding-rules?aliasId=${a.id}`)).json() as ForwardingRule[];
    expect(kept).toMatchObject({ name: 'Invoices', actions: { forwardTo: ['ledger@books.example'] } });
  });

  it('limits alias tests per account (429 with a clear message); another account keeps its own allowance', async () => {
    const a = await signUpUser(t());
    const domainId = await addDomain(a.client, 'foxtrot.example');
    // An alias with no destination: each test answers 400 'No Destination Set' at once, and still counts.
    const alias = (
      await a.client.post(`/api/domains/${domainId}/aliases`, { alias: 'x', forwardingType: 'split' })
    ).json() as EmailAlias;
    for (let i = 0; i < ALIAS_TESTS_PER_MINUTE; i += 1)
      expect((await a.client.post('/api/test-alias', { aliasId: alias.id })).statusCode).toBe(400);
    const refused = await a.client.post('/api/test-alias', { aliasId: alias.id });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^You can run 30 alias tests a minute\. Please try again in \d+ seconds\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const b = await signUpUser(t());
    expect((await b.client.post('/api/test-alias', { aliasId: alias.id })).statusCode).toBe(404);
  });

  it('gives user B a 404 on every one of user A’s ids', async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const domainId = await addDomain(a.client, 'delta.example');
    const alias = (
      await a.client.post(`/api/domains/${domainId}/aliases`, { alias: 'x', forwardingType: 'split' })
    ).json() as EmailAlias;
    const dest = (
      await a.client.post('/api/forwarding-destinations', { email: 'd@e.example', aliasId: alias.id })
    ).json() as ForwardingDestination;
    const rule = (
      await a.client.post('/api/forwarding-rules', {
        name: 'r',
        priority: 1,
        actions: { block: true },
        aliasId: alias.id,
      })
    ).json() as ForwardingRule;
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/domains/${domainId}/aliases`],
      ['POST', `/api/domains/${domainId}/aliases`, { alias: 'y', destination: 'q@r.example' }],
      ['GET', `/api/email-aliases/${alias.id}`],
      ['PATCH', `/api/email-aliases/${alias.id}`, { description: 'mine now' }],
      ['DELETE', `/api/email-aliases/${alias.id}`],
      ['POST', `/api/email-aliases/${alias.id}/resend-confirmation`],
      ['GET', `/api/email-aliases/${alias.id}/activity`],
      ['GET', `/api/forwarding-rules?aliasId=${alias.id}`],
      ['POST', '/api/forwarding-rules', { name: 'r', priority: 1, actions: { block: true }, aliasId: alias.id }],
      ['PATCH', `/api/forwarding-rules/${rule.id}`, { isActive: false }],
      ['PATCH', `/api/forwarding-rules/${rule.id}`, { name: 'mine', actions: { forwardTo: ['q@r.example'] } }],
      ['DELETE', `/api/forwarding-rules/${rule.id}`],
      ['GET', `/api/forwarding-destinations?aliasId=${alias.id}`],
      ['POST', '/api/forwarding-destinations', { email: 'z@z.example', aliasId: alias.id }],
      ['PATCH', `/api/forwarding-destinations/${dest.id}`, { weight: 2 }],
      ['DELETE', `/api/forwarding-destinations/${dest.id}`],
      ['POST', `/api/forwarding-destinations/${dest.id}/resend-confirmation`],
      ['GET', `/api/forwarding-stats?aliasId=${alias.id}`],
      ['GET', `/api/domains/${domainId}/inbound-mx`],
      ['POST', '/api/test-alias', { aliasId: alias.id }],
      ['POST', '/api/test-forwarding', { alias: 'x@delta.example', fromEmail: 'a@b.example', aliasId: alias.id }],
      ['POST', '/api/test-forwarding', { alias: 'x@delta.example', fromEmail: 'a@b.example' }],
    ];
    for (const [method, url, payload] of calls) {
      const response = await b.client.request({
        method: method as 'GET',
        url,
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    // B's own listings do not show A's rows.
    expect((await b.client.get('/api/forwarding-rules')).json()).toEqual([]);
    expect((await b.client.get('/api/forwarding-destinations')).json()).toEqual([]);
    // A's rows are untouched.
    expect((await a.client.get(`/api/email-aliases/${alias.id}`)).json()).toMatchObject({ description: null });
    expect((await a.client.get(`/api/forwarding-rules?aliasId=${alias.id}`)).json()).toHaveLength(1);
  });

  it('refuses an expired or tampered forwarding confirmation link; the destination stays Pending until the real one', async () => {
    const { client } = await signUpUser(t());
    const domainId = await addDomain(client, 'echo.example');
    const alias = (
      await client.post(`/api/domains/${domainId}/aliases`, { alias: 'late', forwardingType: 'split' })
    ).json() as EmailAlias;
    const added = await client.post('/api/forwarding-destinations', { email: 'late@inbox.example', aliasId: alias.id });
    expect(added.statusCode, added.body).toBe(201);
    const link = new URL(forwardingLinkIn(receivedTo('late@inbox.example').at(-1)));
    const token = link.searchParams.get('token') ?? '';
    // The token is base64url("<expiry seconds>.<subject>") "." MAC; re-signed with a past expiry it is expired.
    const subject = Buffer.from(token.split('.')[0] ?? '', 'base64url')
      .toString('utf8')
      .replace(/^\d+\./, '');
    const expired = signExpiringToken(
      t().ctx.config.sessionSecret,
      'forward-address',
      subject,
      new Date(Date.now() - 1000),
    );
    // The same MAC over another address's payload is tampered.
    const forgedPayload = Buffer.from(
      `${Math.floor(Date.now() / 1000) + 3600}.${subject.replace('late@', 'evil@')}`,
    ).toString('base64url');
    const tampered = `${forgedPayload}.${token.split('.')[1] ?? ''}`;
    const post = (value: string) =>
      t()
        .client()
        .request({
          method: 'POST',
          url: `/confirm-forwarding?token=${encodeURIComponent(value)}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: link.origin },
          payload: '',
        });
    expect((await post(expired)).statusCode).toBe(410);
    expect((await post(tampered)).statusCode).toBe(400);
    const pending = (
      await client.get(`/api/forwarding-destinations?aliasId=${alias.id}`)
    ).json() as ForwardingDestination[];
    expect(pending.map((d) => [d.email, d.isConfirmed])).toEqual([['late@inbox.example', false]]);
    expect((await followConfirmationLink(t().client(), link.toString())).statusCode).toBe(200);
    const confirmed = (
      await client.get(`/api/forwarding-destinations?aliasId=${alias.id}`)
    ).json() as ForwardingDestination[];
    expect(confirmed.map((d) => d.isConfirmed)).toEqual([true]);
  });

  // Issue 27 (4): the hourly count was read, then the mail sent, so 40 requests at once sent 26 past 20.
  it('40 concurrent destination adds send at most the limit of confirmation mails an hour', async () => {
    const { client } = await signUpUser(t());
    const domainId = await addDomain(client, 'burst.example');
    const alias = (
      await client.post(`/api/domains/${domainId}/aliases`, { alias: 'inbox', forwardingType: 'split' })
    ).json() as EmailAlias;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        client.post('/api/forwarding-destinations', { email: `burst${i}@stranger.example`, aliasId: alias.id }),
      ),
    );
    expect(answers.map((a) => a.statusCode).filter((s) => s !== 201)).toEqual([]);
    const mailed = sink.received.filter((m) => m.to.some((to) => /^burst\d+@stranger\.example$/.test(to)));
    expect(mailed.length).toBe(FORWARD_CONFIRMATIONS_PER_HOUR);
    // Each mailed address is marked sent; the others wait (Pending, offered to resend), none marked falsely.
    const destinations = (
      await client.get(`/api/forwarding-destinations?aliasId=${alias.id}`)
    ).json() as ForwardingDestination[];
    expect(destinations.filter((d) => d.confirmationSentAt !== null)).toHaveLength(mailed.length);
    // An explicit resend past the limit says so (429), sending nothing.
    const waiting = destinations.find((d) => d.confirmationSentAt === null);
    const resend = await client.post(`/api/forwarding-destinations/${waiting?.id}/resend-confirmation`);
    expect(resend.statusCode).toBe(429);
    expect(sink.received.filter((m) => m.to.some((to) => to.startsWith('burst')))).toHaveLength(mailed.length);
  });

  // Issue 27 (4): confirmation mail to a stranger needs an account that proved its own address.
  it('an unconfirmed account cannot add forwarding destinations (403, nothing written, nothing mailed)', async () => {
    const { client } = await signUpUser(t(), { confirmEmail: false, senders: [] });
    const domainId = await addDomain(client, 'unconfirmed.example');
    const bare = await client.post(`/api/domains/${domainId}/aliases`, { alias: 'bare', forwardingType: 'split' });
    expect(bare.statusCode, bare.body).toBe(201);
    const alias = bare.json() as EmailAlias;
    const before = sink.received.length;
    const attempts = [
      await client.post('/api/forwarding-destinations', { email: 'victim@stranger.example', aliasId: alias.id }),
      await client.post(`/api/domains/${domainId}/aliases`, { alias: 'sales', destination: 'victim@stranger.example' }),
      await client.patch(`/api/email-aliases/${alias.id}`, { destination: 'victim@stranger.example' }),
      await client.post('/api/forwarding-rules', {
        name: 'all',
        priority: 1,
        actions: { forwardTo: ['victim@stranger.example'] },
        aliasId: alias.id,
      }),
    ];
    for (const answer of attempts) {
      expect(answer.statusCode, answer.body).toBe(403);
      expect((answer.json() as { message: string }).message).toContain('Confirm your own email address');
    }
    expect(sink.received.length).toBe(before);
    expect((await client.get(`/api/forwarding-destinations?aliasId=${alias.id}`)).json()).toEqual([]);
    expect((await client.get(`/api/forwarding-rules?aliasId=${alias.id}`)).json()).toEqual([]);
    const aliases = (await client.get(`/api/domains/${domainId}/aliases`)).json() as EmailAlias[];
    expect(aliases.map((a) => [a.alias, a.destination])).toEqual([['bare', null]]);
  });

  it('a forwarding confirmation names the account only by a checked plain name', async () => {
    const { client } = await signUpUser(t(), { firstName: 'Visit', lastName: 'https://evil.example/win' });
    const domainId = await addDomain(client, 'named.example');
    await client.post(`/api/domains/${domainId}/aliases`, { alias: 'x', destination: 'named@stranger.example' });
    const mail = receivedTo('named@stranger.example').at(-1);
    expect(mail?.parsed.text).toContain('A Sendwell user asked Sendwell to forward email to named@stranger.example.');
    expect(mail?.parsed.text).not.toContain('evil.example');
    expect(mail?.parsed.text).not.toContain('Visit');
  });

  it('answers 401 without a session', async () => {
    expect((await t().client().get('/api/forwarding-rules')).statusCode).toBe(401);
  });
});
