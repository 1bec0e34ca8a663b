import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Lead, LeadGenerationRunResponse, LeadSource } from '@sendwell/contract/leads';
import { signUpUser, useTestApp, type TestApp, type TestClient } from '../../../test/build-app.ts';
import { startTestDnsServer } from '../../../test/dns-server.ts';
import { leadGenerationRuns } from '../../db/schema/index.ts';
import { RUN_ABANDONED } from './leads.generate.ts';
import { leadGenerationJob } from './leads.jobs.ts';
import { scoreLead } from './leads.scoring.ts';

const dns = await startTestDnsServer();
dns.setMx('smithdental.example', [{ exchange: 'mx.smithdental.example', priority: 10 }]);
// Bright Smiles' domain says it takes no mail (RFC 7505 null MX): its published addresses are refused.
dns.setMx('brightsmiles.example', [{ exchange: '', priority: 0 }]);
afterAll(() => dns.close());

/**
 * One local server playing Google Places Text Search (New), Yelp business search and Hunter
 * (account, domain search), each answering in its documented shape. The key picks the case:
 * 'good', 'bad' (refused), 'busy' (rate limited), and for Hunter 'low' (one credit left).
 */
function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}
const hunterLookups: string[] = [];
const providers = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    const url = new URL(request.url ?? '/', 'http://local');
    if (url.pathname === '/v1/places:searchText') {
      const key = request.headers['x-goog-api-key'];
      if (key === 'bad') {
        return send(response, 400, {
          error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' },
        });
      }
      if (key === 'busy') {
        return send(response, 429, {
          error: { code: 429, message: 'Quota exceeded for quota metric', status: 'RESOURCE_EXHAUSTED' },
        });
      }
      return send(response, 200, {
        places: [
          {
            id: 'ChIJ-smith',
            displayName: { text: 'Smith Family Dentistry', languageCode: 'en' },
            formattedAddress: '100 Congress Ave, Austin, TX 78701, USA',
            websiteUri: 'https://www.smithdental.example/',
            internationalPhoneNumber: '+1 512-555-0100',
            types: ['dentist', 'health', 'point_of_interest'],
            primaryTypeDisplayName: { text: 'Dentist', languageCode: 'en-US' },
          },
          {
            id: 'ChIJ-bright',
            displayName: { text: 'Bright Smiles', languageCode: 'en' },
            formattedAddress: '5 Lamar Blvd, Austin, TX 78704, USA',
            websiteUri: 'https://brightsmiles.example',
            types: ['dentist'],
          },
          { id: 'ChIJ-bare', displayName: { text: 'Bare Place' } },
        ],
      });
    }
    if (url.pathname === '/v3/businesses/search') {
      const auth = request.headers.authorization;
      if (auth === 'Bearer bad') {
        return send(response, 401, {
          error: { code: 'TOKEN_INVALID', description: 'Invalid access token or authorization header.' },
        });
      }
      if (auth === 'Bearer busy') {
        return send(
          response,
          429,
          {
            error: {
              code: 'TOO_MANY_REQUESTS_PER_SECOND',
              description: 'You have exceeded the queries-per-second limit.',
            },
          },
          { 'retry-after': '2' },
        );
      }
      return send(response, 200, {
        businesses: [
          {
            // The same dentist Google found: same name and street line.
            id: 'yelp-smith',
            name: 'Smith Family Dentistry',
            url: 'https://www.yelp.com/biz/smith-family-dentistry-austin',
            display_phone: '(512) 555-0100',
            categories: [{ alias: 'generaldentistry', title: 'General Dentistry' }],
            location: { display_address: ['100 Congress Ave', 'Austin, TX 78701'] },
          },
          {
            id: 'yelp-oak',
            name: 'Oak Dental',
            url: 'https://www.yelp.com/biz/oak-dental-austin',
            phone: '+15125550199',
            categories: [{ alias: 'generaldentistry', title: 'General Dentistry' }],
            location: { display_address: ['9 Oak St', 'Austin, TX 78702'] },
          },
        ],
        total: 2,
      });
    }
    if (url.pathname === '/v2/account' || url.pathname === '/v2/domain-search') {
      const key = url.searchParams.get('api_key');
      if (key === 'bad') {
        return send(response, 401, {
          errors: [{ id: 'authentication_failed', code: 401, details: 'No user found for the API key supplied' }],
        });
      }
      if (url.pathname === '/v2/account') {
        const searches = key === 'low' ? { used: 24, available: 25 } : { used: 3, available: 50 };
        return send(response, 200, { data: { requests: { searches } } });
      }
      const domain = url.searchParams.get('domain') ?? '';
      hunterLookups.push(domain);
      const emails =
        domain === 'smithdental.example'
          ? [
              {
                value: 'Jane@SmithDental.example',
                type: 'personal',
                confidence: 94,
                first_name: 'Jane',
                last_name: 'Smith',
                position: 'Owner',
              },
              { value: 'info@smithdental.example', type: 'generic', confidence: 88, first_name: null, last_name: null },
            ]
          : domain === 'brightsmiles.example'
            ? [{ value: 'hello@brightsmiles.example', type: 'generic', confidence: 70 }]
            : [];
      return send(response, 200, { data: { domain, emails }, meta: { results: emails.length } });
    }
    send(response, 404, { error: 'not found' });
  });
});
await new Promise<void>((resolve) => providers.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => providers.close(() => resolve())));
const providerBase = () => `http://127.0.0.1:${(providers.address() as AddressInfo).port}`;

type Answer = { message: string; fields?: Record<string, string> };

/** Works every queued generation job the way a worker would (tests run without pg-boss workers). */
async function runGenerationJobs(t: TestApp): Promise<number> {
  let ran = 0;
  for (;;) {
    const jobs = await t.ctx.queue.fetch<unknown>(leadGenerationJob.name, { batchSize: 10 });
    if (!jobs || jobs.length === 0) return ran;
    for (const job of jobs) {
      const data = leadGenerationJob.payload.parse(job.data);
      await leadGenerationJob.handler(t.ctx, data);
      // Delivered twice, a run is worked once (it is claimed queued → running).
      await leadGenerationJob.handler(t.ctx, data);
      await t.ctx.queue.complete(leadGenerationJob.name, job.id);
      ran += 1;
    }
  }
}

async function addSource(client: TestClient, body: Record<string, unknown>): Promise<LeadSource> {
  const created = await client.post('/api/lead-sources', body);
  expect(created.statusCode, created.body).toBe(201);
  return created.json() as LeadSource;
}

async function generate(t: TestApp, client: TestClient, body: unknown): Promise<LeadGenerationRunResponse> {
  const started = await client.post('/api/leads/generate', body);
  expect(started.statusCode, started.body).toBe(202);
  const run = started.json() as LeadGenerationRunResponse;
  expect(run.state).toBe('queued');
  expect(run.progress).toEqual({ done: 0, total: run.platforms.length });
  expect(await runGenerationJobs(t)).toBe(1);
  const polled = await client.get(`/api/leads/generate/${run.id}`);
  expect(polled.statusCode, polled.body).toBe(200);
  return polled.json() as LeadGenerationRunResponse;
}

describe('generating leads', () => {
  const t = useTestApp(() => ({
    DNS_SERVERS: dns.server,
    GOOGLE_PLACES_API_BASE: providerBase(),
    YELP_API_BASE: providerBase(),
    HUNTER_API_BASE: providerBase(),
  }));

  it('searches connected platforms, enriches, checks, scores and de-duplicates; skipped platforms say why', async () => {
    const { client } = await signUpUser(t());
    const google = await addSource(client, { type: 'places', name: 'My Google', provider: 'google', apiKey: 'good' });
    await addSource(client, { type: 'places', name: 'My Yelp', provider: 'yelp', apiKey: 'good' });
    await addSource(client, { type: 'enrichment', name: 'Hunter', apiKey: 'good' });

    const run = await generate(t(), client, {
      profession: 'Dentist',
      location: 'Austin, TX',
      platforms: ['google', 'yelp', 'linkedin', 'instagram', 'thumbtack'],
    });
    expect(run).toMatchObject({ state: 'done', error: null, progress: { done: 5, total: 5 } });
    expect(run.finishedAt).not.toBeNull();
    expect(run.platforms).toEqual([
      { platform: 'google', state: 'searched', found: 3, created: 4, reason: null },
      { platform: 'yelp', state: 'searched', found: 2, created: 1, reason: null },
      { platform: 'linkedin', state: 'skipped', found: 0, created: 0, reason: 'Import a CSV export' },
      { platform: 'instagram', state: 'skipped', found: 0, created: 0, reason: 'No public API' },
      { platform: 'thumbtack', state: 'skipped', found: 0, created: 0, reason: 'Import a CSV export' },
    ]);
    // Smith (2 published addresses), Bright Smiles and Bare Place without one, Oak Dental from Yelp;
    // Yelp's Smith Family Dentistry is the business Google found (same name and street): a duplicate.
    expect(run.created).toBe(5);
    expect(run.duplicates).toBe(1);
    // Two domains looked up (Yelp gives no website); Bright Smiles' address refused for its null MX.
    expect(run.enrichment).toEqual({ state: 'done', lookups: 2, found: 2, rejected: 1, reason: null });

    const leads = (await client.get('/api/leads')).json() as Lead[];
    expect(leads).toHaveLength(5);
    expect(leads.every((lead) => lead.status === 'new' && !lead.isSample)).toBe(true);
    const jane = leads.find((lead) => lead.email === 'jane@smithdental.example');
    expect(jane).toMatchObject({
      firstName: 'Jane',
      lastName: 'Smith',
      jobTitle: 'Owner',
      company: 'Smith Family Dentistry',
      website: 'https://www.smithdental.example/',
      phone: '+1 512-555-0100',
      location: '100 Congress Ave, Austin, TX 78701, USA',
      sourceId: google.id,
      lawfulBasis: null,
    });
    expect(jane?.metadata).toMatchObject({ source: 'My Google', platform: 'google', providerId: 'ChIJ-smith' });
    expect(Date.parse(String(jane?.metadata.foundAt))).not.toBeNaN();
    // The documented formula: match 30 (category 'Dentist') + completeness 25 + deliverability 30 (MX) + enrichment 8.
    expect(jane?.score).toBe(93);
    const info = leads.find((lead) => lead.email === 'info@smithdental.example');
    expect(info?.metadata.address).toMatchObject({ mx: 'found', role: true, disposable: false, freeMail: false });
    // 30 + 15 (company, location, phone) + (30 − 10 role) + 8
    expect(info?.score).toBe(73);
    const bright = leads.find((lead) => lead.company === 'Bright Smiles');
    expect(bright).toMatchObject({ email: null, website: 'https://brightsmiles.example' });
    expect(bright?.score).toBe(
      scoreLead({
        email: null,
        firstName: '',
        lastName: '',
        company: 'Bright Smiles',
        jobTitle: null,
        location: '5 Lamar Blvd, Austin, TX 78704, USA',
        phone: null,
        website: 'https://brightsmiles.example',
        categories: ['dentist'],
        profession: 'Dentist',
        source: 'places',
      }),
    );
    const oak = leads.find((lead) => lead.company === 'Oak Dental');
    expect(oak?.metadata).toMatchObject({
      platform: 'yelp',
      providerUrl: 'https://www.yelp.com/biz/oak-dental-austin',
    });

    // The same search again finds only what the account has: every business a duplicate, no credit spent on them.
    const lookupsBefore = hunterLookups.length;
    const again = await generate(t(), client, {
      profession: 'Dentist',
      location: 'Austin, TX',
      platforms: ['google', 'yelp'],
    });
    expect(again).toMatchObject({ state: 'done', created: 0, duplicates: 5 });
    expect(hunterLookups.length).toBe(lookupsBefore);
    expect(((await client.get('/api/leads')).json() as Lead[]).length).toBe(5);

    // Another account cannot read the run.
    const other = await signUpUser(t());
    expect((await other.client.get(`/api/leads/generate/${run.id}`)).statusCode).toBe(404);
  });

  it('a refused key, a rate limit and a missing connection each say why; credits are respected', async () => {
    const { client } = await signUpUser(t());
    await addSource(client, { type: 'places', name: 'Google', provider: 'google', apiKey: 'bad' });
    await addSource(client, { type: 'places', name: 'Yelp', provider: 'yelp', apiKey: 'busy' });
    const failed = await generate(t(), client, { profession: 'Plumber', platforms: ['google', 'yelp', 'medium'] });
    expect(failed).toMatchObject({ state: 'done', created: 0, duplicates: 0, location: 'United States' });
    expect(failed.platforms).toEqual([
      { platform: 'google', state: 'failed', found: 0, created: 0, reason: 'API key rejected' },
      { platform: 'yelp', state: 'failed', found: 0, created: 0, reason: 'Rate limited, try later' },
      { platform: 'medium', state: 'skipped', found: 0, created: 0, reason: 'No public API' },
    ]);
    expect(failed.enrichment.state).toBe('off');

    // No places source, or one without a key: 'Not connected'.
    const fresh = await signUpUser(t());
    await addSource(fresh.client, { type: 'places', name: 'Yelp', provider: 'yelp' });
    const unconnected = await generate(t(), fresh.client, { profession: 'Dentist', platforms: ['google', 'yelp'] });
    expect(unconnected.platforms.map((p) => [p.state, p.reason])).toEqual([
      ['skipped', 'Not connected'],
      ['skipped', 'Not connected'],
    ]);

    // One Hunter credit left: one domain looked up, then enrichment stops and says so.
    await addSource(fresh.client, { type: 'places', name: 'Google', provider: 'google', apiKey: 'good' });
    await addSource(fresh.client, { type: 'enrichment', name: 'Hunter', apiKey: 'low' });
    const lookupsBefore = hunterLookups.length;
    const low = await generate(t(), fresh.client, { profession: 'Dentist', platforms: ['google'] });
    expect(hunterLookups.length - lookupsBefore).toBe(1);
    expect(low.enrichment).toMatchObject({
      state: 'stopped',
      lookups: 1,
      reason: 'No Hunter credits left this period',
    });
    expect(low.created).toBe(4);

    // A refused Hunter key: businesses still stored, without addresses.
    const third = await signUpUser(t());
    await addSource(third.client, { type: 'places', name: 'Google', provider: 'google', apiKey: 'good' });
    await addSource(third.client, { type: 'enrichment', name: 'Hunter', apiKey: 'bad' });
    const refusedHunter = await generate(t(), third.client, { profession: 'Dentist', platforms: ['google'] });
    expect(refusedHunter.enrichment).toMatchObject({ state: 'stopped', lookups: 0, reason: 'API key rejected' });
    expect(refusedHunter.created).toBe(3);
  });

  it('refuses bad input with 400 and unknown runs with 404; signed-out is 401', async () => {
    const { client } = await signUpUser(t());
    const cases: [unknown, RegExp][] = [
      [{ profession: 'Astronaut', platforms: ['google'] }, /Please select a profession/],
      [{ profession: 'Dentist', platforms: [] }, /Please select a profession and at least one source/],
      [{ profession: 'Dentist' }, /Please select a profession and at least one source/],
      [{ profession: 'Dentist', platforms: ['myspace'] }, /Unknown platform/],
      [{ profession: 'Dentist', platforms: ['google'], location: 'x'.repeat(201) }, /Location must be at most 200/],
    ];
    for (const [body, message] of cases) {
      const answer = await client.post('/api/leads/generate', body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect((answer.json() as Answer).message).toMatch(message);
    }
    expect((await client.get('/api/leads/generate/not-a-uuid')).statusCode).toBe(400);
    const unknown = await client.get('/api/leads/generate/00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect((unknown.json() as Answer).message).toBe('Lead generation run not found');
    const signedOut = t().client();
    expect(
      (await signedOut.post('/api/leads/generate', { profession: 'Dentist', platforms: ['google'] })).statusCode,
    ).toBe(401);
    expect((await signedOut.get('/api/leads/generate/00000000-0000-4000-8000-000000000000')).statusCode).toBe(401);
    // Nothing was queued by the refused requests.
    expect(await runGenerationJobs(t())).toBe(0);
  });

  it('a run whose job died answers as failed after 20 minutes, so polling stops', async () => {
    const { client } = await signUpUser(t());
    const started = (
      await client.post('/api/leads/generate', { profession: 'Dentist', platforms: ['medium'] })
    ).json() as LeadGenerationRunResponse;
    await t()
      .ctx.db.update(leadGenerationRuns)
      .set({ state: 'running', createdAt: new Date(Date.now() - 21 * 60 * 1000) })
      .where(eq(leadGenerationRuns.id, started.id));
    const polled = (await client.get(`/api/leads/generate/${started.id}`)).json() as LeadGenerationRunResponse;
    expect(polled).toMatchObject({ state: 'failed', error: RUN_ABANDONED });
    // Its job, delivered late, finds the run claimed and does nothing.
    expect(await runGenerationJobs(t())).toBe(1);
    expect(
      ((await client.get(`/api/leads/generate/${started.id}`)).json() as LeadGenerationRunResponse).platforms[0]?.state,
    ).toBe('pending');
  });
});
