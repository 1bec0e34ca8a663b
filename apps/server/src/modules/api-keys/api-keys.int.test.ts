import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ApiKey, ApiKeyList, CreatedApiKey } from '@sendwell/contract/api-keys';
import { signUpUser, TEST_SENDER, useTestApp, type TestApp, type TestClient } from '../../../test/build-app.ts';
import { domains, idempotencyKeys } from '../../db/schema/index.ts';

type Account = Awaited<ReturnType<typeof signUpUser>>;

async function createKey(client: TestClient, body: Record<string, unknown>): Promise<CreatedApiKey> {
  const created = await client.post('/api/api-keys', body);
  expect(created.statusCode, created.body).toBe(201);
  return created.json() as CreatedApiKey;
}

/** A client with no cookie that calls with the key's header only, as a program does. */
function withKey(t: TestApp, secret: string) {
  const client = t.client();
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers = {}) =>
    client.request({
      method,
      url,
      headers: { authorization: `Bearer ${secret}`, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return call;
}

/** Lets the account's keys make many requests a second, so a test's own pace never hits the limit. */
async function raiseRateLimit(client: TestClient) {
  const saved = await client.request({ method: 'PUT', url: '/api/api-settings', payload: { requestsPerSecond: 100 } });
  expect(saved.statusCode).toBe(200);
}

async function verifiedDomain(t: TestApp, client: TestClient, domain: string) {
  const added = await client.post('/api/domains', { domain });
  expect(added.statusCode, added.body).toBe(201);
  await t.ctx.db.update(domains).set({ dkimStatus: 'verified' }).where(eq(domains.domain, domain));
}

async function draftCampaign(client: TestClient, fromEmail: string) {
  await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
  const list = (await client.post('/api/contact-lists', { name: `List ${fromEmail}` })).json() as { id: number };
  await client.post('/api/contacts', {
    email: `reader-${fromEmail}`,
    firstName: 'R',
    lastName: 'D',
    listIds: [list.id],
  });
  const created = await client.post('/api/campaigns', {
    name: `From ${fromEmail}`,
    subject: 'Hi',
    fromEmail,
    content: { html: '' },
    blocks: [{ id: 'b1', type: 'text', content: { text: 'Hello', tag: 'p' } }],
    listIds: [list.id],
  });
  expect(created.statusCode, created.body).toBe(201);
  return (created.json() as { id: number }).id;
}

describe('API keys', () => {
  const t = useTestApp();

  it('creates a key whose secret is shown once and kept hashed; the key works by its header on program routes', async () => {
    const { client } = await signUpUser(t());
    await raiseRateLimit(client);
    const { apiKey, secret } = await createKey(client, { name: 'CRM sync', scope: 'full' });
    expect(secret).toMatch(/^sw_live_[\w-]{43}$/);
    expect(apiKey).toMatchObject({ name: 'CRM sync', scope: 'full', domain: null, lastUsedAt: null, revokedAt: null });
    expect(secret.startsWith(apiKey.prefix)).toBe(true);
    // The list never shows the secret again.
    const listed = await client.get('/api/api-keys');
    expect(listed.body).not.toContain(secret);
    expect((listed.json() as ApiKeyList).apiKeys.map((key) => key.id)).toEqual([apiKey.id]);

    const call = withKey(t(), secret);
    const created = await call('POST', '/api/contacts', { email: 'api@x.io', firstName: 'Api', lastName: 'Caller' });
    expect(created.statusCode, created.body).toBe(201);
    const contacts = await call('GET', '/api/contacts');
    expect(contacts.statusCode).toBe(200);
    expect((contacts.json() as { email: string }[]).map((row) => row.email)).toEqual(['api@x.io']);
    for (const url of [
      '/api/contact-lists',
      '/api/contact-segments',
      '/api/campaigns',
      '/api/leads',
      '/api/suppressions',
    ]) {
      expect((await call('GET', url)).statusCode, url).toBe(200);
    }
    const [used] = ((await client.get('/api/api-keys')).json() as ApiKeyList).apiKeys;
    expect(Date.parse(used?.lastUsedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
  });

  it('needs a signed-in person, not a key, for key management, billing and account settings', async () => {
    const { client } = await signUpUser(t());
    const { secret } = await createKey(client, { name: 'Full', scope: 'full' });
    const call = withKey(t(), secret);
    for (const [method, url] of [
      ['GET', '/api/api-keys'],
      ['POST', '/api/api-keys'],
      ['GET', '/api/api-settings'],
      ['GET', '/api/billing/usage'],
      ['GET', '/api/auth/user'],
      ['PATCH', '/api/auth/user'],
      ['GET', '/api/sequence-settings'],
    ] as const) {
      expect((await call(method, url, method === 'GET' ? undefined : {})).statusCode, url).toBe(401);
    }
  });

  it('refuses a sending-only key on routes that read contacts, and lets it list and send campaigns', async () => {
    const { client } = await signUpUser(t());
    await raiseRateLimit(client);
    const { secret } = await createKey(client, { name: 'Sender', scope: 'sending' });
    const call = withKey(t(), secret);
    for (const url of [
      '/api/contacts',
      '/api/contact-lists',
      '/api/contact-segments',
      '/api/leads',
      '/api/suppressions',
    ]) {
      const refused = await call('GET', url);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json()).toEqual({
        message: 'This API key may only send: this route needs a key with full access',
      });
    }
    expect(
      (await call('POST', '/api/contacts', { email: 'no@x.io', firstName: 'Fay', lastName: 'Lee' })).statusCode,
    ).toBe(403);
    const campaignId = await draftCampaign(client, 'news@acme.example');
    expect((await call('GET', '/api/campaigns')).statusCode).toBe(200);
    expect((await call('GET', `/api/campaigns/${campaignId}`)).statusCode).toBe(200);
    // Creating or changing campaigns needs full access.
    expect((await call('PATCH', `/api/campaigns/${campaignId}`, { name: 'Renamed' })).statusCode).toBe(403);
    const sent = await call('POST', `/api/campaigns/${campaignId}/send`);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ id: campaignId });
  });

  it('limits a sending key to one verified domain: it sends only campaigns from there', async () => {
    // The account may send from both addresses; its key only from the one on acme.example.
    const { client } = await signUpUser(t(), { senders: [TEST_SENDER, 'news@elsewhere.example'] });
    await raiseRateLimit(client);
    // Only a verified domain of the account, and only on a sending key.
    const unverified = await client.post('/api/api-keys', { name: 'X', scope: 'sending', domain: 'acme.example' });
    expect(unverified.statusCode).toBe(400);
    expect(unverified.json()).toMatchObject({ fields: { domain: 'Choose one of your verified domains' } });
    await verifiedDomain(t(), client, 'acme.example');
    const fullWithDomain = await client.post('/api/api-keys', { name: 'X', scope: 'full', domain: 'acme.example' });
    expect(fullWithDomain.statusCode).toBe(400);
    expect(fullWithDomain.json()).toMatchObject({
      fields: { domain: 'Only a sending key can be limited to a domain' },
    });

    const { apiKey, secret } = await createKey(client, { name: 'Acme only', scope: 'sending', domain: 'ACME.example' });
    expect(apiKey).toMatchObject({ scope: 'sending', domain: 'acme.example' });
    const call = withKey(t(), secret);
    const elsewhere = await draftCampaign(client, 'news@elsewhere.example');
    const refused = await call('POST', `/api/campaigns/${elsewhere}/send`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'This API key may only send from acme.example' });
    expect((await client.get(`/api/campaigns/${elsewhere}`)).json()).toMatchObject({ status: 'draft' });
    expect((await call('POST', '/api/email-sequences/events', { email: 'a@x.io', event: 'paid' })).statusCode).toBe(
      403,
    );

    const acme = await draftCampaign(client, 'news@acme.example');
    expect((await call('POST', `/api/campaigns/${acme}/send`)).statusCode).toBe(200);
  });

  it('stops a revoked key at once; revoking is the account’s own business', async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const { apiKey, secret } = await createKey(a.client, { name: 'Old', scope: 'full' });
    const call = withKey(t(), secret);
    expect((await call('GET', '/api/contacts')).statusCode).toBe(200);

    expect((await b.client.delete(`/api/api-keys/${apiKey.id}`)).statusCode).toBe(404);
    expect((await call('GET', '/api/contacts')).statusCode).toBe(200);

    const revoked = await a.client.delete(`/api/api-keys/${apiKey.id}`);
    expect(revoked.statusCode).toBe(200);
    expect(Date.parse((revoked.json() as ApiKey).revokedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
    const refused = await call('GET', '/api/contacts');
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ message: 'This API key is not valid or has been revoked' });
    // Still listed, as revoked.
    expect(((await a.client.get('/api/api-keys')).json() as ApiKeyList).apiKeys[0]?.revokedAt).not.toBeNull();
  });

  it("keeps accounts apart: B's key never sees A's rows, and B never sees A's keys", async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    await createKey(a.client, { name: 'A key', scope: 'full' });
    const contact = (
      await a.client.post('/api/contacts', { email: 'only-a@x.io', firstName: 'Fay', lastName: 'Lee' })
    ).json() as { id: number };
    const { secret } = await createKey(b.client, { name: 'B key', scope: 'full' });
    const call = withKey(t(), secret);
    expect((await call('GET', '/api/contacts')).json()).toEqual([]);
    expect((await call('GET', `/api/contacts/${contact.id}`)).statusCode).toBe(404);
    expect((await call('PATCH', `/api/contacts/${contact.id}`, { firstName: 'B' })).statusCode).toBe(404);
    expect((await call('DELETE', `/api/contacts/${contact.id}`)).statusCode).toBe(404);
    expect(((await b.client.get('/api/api-keys')).json() as ApiKeyList).apiKeys.map((key) => key.name)).toEqual([
      'B key',
    ]);
  });

  it('answers bad input with 4xx and writes nothing', async () => {
    const { client } = await signUpUser(t());
    for (const body of [
      {},
      { name: '', scope: 'full' },
      { name: 'x', scope: 'admin' },
      { name: 'x'.repeat(101), scope: 'full' },
    ]) {
      expect((await client.post('/api/api-keys', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await client.delete('/api/api-keys/not-a-uuid')).statusCode).toBe(400);
    expect((await client.delete('/api/api-keys/7b0c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3')).statusCode).toBe(404);
    for (const requestsPerSecond of [0, 101, 1.5, 'ten']) {
      const answer = await client.request({ method: 'PUT', url: '/api/api-settings', payload: { requestsPerSecond } });
      expect(answer.statusCode).toBe(400);
    }
    expect(((await client.get('/api/api-keys')).json() as ApiKeyList).apiKeys).toEqual([]);
    expect((await client.get('/api/api-settings')).json()).toEqual({ requestsPerSecond: 10 });

    const bare = t().client();
    for (const authorization of ['Basic abc', 'Bearer', 'Bearer sw_live_unknown', `Bearer ${'x'.repeat(300)}`]) {
      const answer = await bare.request({ method: 'GET', url: '/api/contacts', headers: { authorization } });
      expect(answer.statusCode, authorization).toBe(401);
    }
  });

  describe('per-key rate limits', () => {
    it('says the limit in RateLimit-* headers and answers 429 with Retry-After beyond it', async () => {
      const { client } = await signUpUser(t());
      const saved = await client.request({
        method: 'PUT',
        url: '/api/api-settings',
        payload: { requestsPerSecond: 2 },
      });
      expect(saved.json()).toEqual({ requestsPerSecond: 2 });
      const { secret } = await createKey(client, { name: 'Slow', scope: 'full' });
      const call = withKey(t(), secret);
      const first = await call('GET', '/api/contacts');
      expect(first.statusCode).toBe(200);
      expect(first.headers['ratelimit-limit']).toBe('2');
      // The first request of a key starts its one-second window.
      expect(first.headers['ratelimit-remaining']).toBe('1');
      expect(Number(first.headers['ratelimit-reset'])).toBe(1);
      // At once, four more: whichever window they land in, at most two of them get through.
      const burst = await Promise.all(Array.from({ length: 4 }, () => call('GET', '/api/contacts')));
      const refused = burst.filter((answer) => answer.statusCode === 429);
      expect(refused.length).toBeGreaterThanOrEqual(2);
      for (const answer of refused) {
        expect(answer.headers['retry-after']).toBe('1');
        expect(answer.headers['ratelimit-limit']).toBe('2');
        expect(answer.headers['ratelimit-remaining']).toBe('0');
        expect(answer.json()).toEqual({
          message: 'This API key is limited to 2 requests per second. Please slow down.',
        });
      }
      // A signed-in person is not counted against the keys' limit.
      expect((await client.get('/api/contacts')).statusCode).toBe(200);
      expect((await client.get('/api/contacts')).headers['ratelimit-limit']).toBeUndefined();
    });
  });

  describe('Idempotency-Key', () => {
    async function keyed(t: TestApp): Promise<{ account: Account; call: ReturnType<typeof withKey> }> {
      const account = await signUpUser(t);
      await raiseRateLimit(account.client);
      const { secret } = await createKey(account.client, { name: 'Retrying', scope: 'full' });
      return { account, call: withKey(t, secret) };
    }

    it('replays the stored answer for the same key and body, once done; refuses another body with 409', async () => {
      const { account, call } = await keyed(t());
      const headers = { 'idempotency-key': 'order-1001' };
      const first = await call(
        'POST',
        '/api/contacts',
        { email: 'once@x.io', firstName: 'Fay', lastName: 'Lee' },
        headers,
      );
      expect(first.statusCode).toBe(201);
      const again = await call(
        'POST',
        '/api/contacts',
        { email: 'once@x.io', firstName: 'Fay', lastName: 'Lee' },
        headers,
      );
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(first.json());
      expect((await account.client.get('/api/contacts')).json()).toHaveLength(1);

      const other = await call(
        'POST',
        '/api/contacts',
        { email: 'twice@x.io', firstName: 'Fay', lastName: 'Lee' },
        headers,
      );
      expect(other.statusCode).toBe(409);
      expect(other.json()).toEqual({ message: 'This Idempotency-Key was already used with a different request' });
      // The same key on another route is another request too.
      expect((await call('POST', '/api/contact-lists', { name: 'L' }, headers)).statusCode).toBe(409);
      expect((await account.client.get('/api/contacts')).json()).toHaveLength(1);

      // A refused request (400) keeps nothing: the key is free for the corrected request.
      const bad = await call(
        'POST',
        '/api/contacts',
        { email: 'not-an-email', firstName: 'Fay', lastName: 'Lee' },
        { 'idempotency-key': 'order-1002' },
      );
      expect(bad.statusCode).toBe(400);
      const fixed = await call(
        'POST',
        '/api/contacts',
        { email: 'fixed@x.io', firstName: 'Fay', lastName: 'Lee' },
        { 'idempotency-key': 'order-1002' },
      );
      expect(fixed.statusCode).toBe(201);
    });

    it('answers 409 while the first request with the key is still running', async () => {
      const { account, call } = await keyed(t());
      const first = await call(
        'POST',
        '/api/contacts',
        { email: 'run@x.io', firstName: 'Fay', lastName: 'Lee' },
        { 'idempotency-key': 'first' },
      );
      expect(first.statusCode).toBe(201);
      const [stored] = await t()
        .ctx.db.select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, account.user.id), eq(idempotencyKeys.key, 'first')));
      // A request that claimed 'running' with this very body and has not answered yet.
      await t()
        .ctx.db.insert(idempotencyKeys)
        .values({ userId: account.user.id, key: 'running', requestHash: stored?.requestHash ?? '' });
      const meanwhile = await call(
        'POST',
        '/api/contacts',
        { email: 'run@x.io', firstName: 'Fay', lastName: 'Lee' },
        { 'idempotency-key': 'running' },
      );
      expect(meanwhile.statusCode).toBe(409);
      expect(meanwhile.json()).toEqual({
        message: 'A request with this Idempotency-Key is still being processed; retry later',
      });
    });

    it("keeps each account's keys its own, and refuses a key over 256 characters", async () => {
      const a = await keyed(t());
      const b = await keyed(t());
      const headers = { 'idempotency-key': 'shared-name' };
      expect(
        (await a.call('POST', '/api/contacts', { email: 'a@x.io', firstName: 'Fay', lastName: 'Lee' }, headers))
          .statusCode,
      ).toBe(201);
      const fromB = await b.call(
        'POST',
        '/api/contacts',
        { email: 'a@x.io', firstName: 'Fay', lastName: 'Lee' },
        headers,
      );
      expect(fromB.statusCode).toBe(201);
      expect(fromB.headers['idempotent-replayed']).toBeUndefined();
      expect((await b.account.client.get('/api/contacts')).json()).toHaveLength(1);

      const tooLong = await a.call(
        'POST',
        '/api/contacts',
        { email: 'long@x.io', firstName: 'Fay', lastName: 'Lee' },
        { 'idempotency-key': 'k'.repeat(257) },
      );
      expect(tooLong.statusCode).toBe(400);
      expect(tooLong.json()).toEqual({ message: 'Idempotency-Key must be one value of 1 to 256 characters' });
      const longest = await a.call(
        'POST',
        '/api/contacts',
        { email: 'long@x.io', firstName: 'Fay', lastName: 'Lee' },
        { 'idempotency-key': 'k'.repeat(256) },
      );
      expect(longest.statusCode).toBe(201);
    });
  });
});
