import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Lead, LeadCampaign, LeadSource, ConvertLeadResult } from '@sendwell/contract/leads';
import { leadSources } from '../../db/schema/index.ts';
import { openSecret } from '../../lib/secret-box.ts';
import { signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';
import { startTestDnsServer } from '../../../test/dns-server.ts';
import { LEAD_SOURCE_KEY_PURPOSE } from './leads.service.ts';

const dns = await startTestDnsServer();
dns.setMx('engines.example', [{ exchange: 'mx.engines.example', priority: 10 }]);
afterAll(() => dns.close());

// Hunter's account endpoint, in its documented shape: credits for key 'good', 401 for any other.
const hunter = createServer((request, response) => {
  const key = new URL(request.url ?? '/', 'http://local').searchParams.get('api_key');
  const ok = key === 'good';
  response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify(
      ok
        ? { data: { requests: { searches: { used: 3, available: 50 } } } }
        : { errors: [{ id: 'authentication_failed', code: 401, details: 'No user found for the API key supplied' }] },
    ),
  );
});
await new Promise<void>((resolve) => hunter.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => hunter.close(() => resolve())));

type Answer = { message: string; fields?: Record<string, string> };

const ada = {
  email: 'Ada@Engines.example',
  firstName: 'Ada',
  lastName: 'Byron',
  company: 'Engines Ltd',
  jobTitle: 'Accountant',
  location: 'London',
  tags: ['warm'],
};

async function newList(client: TestClient, name: string): Promise<number> {
  const list = await client.post('/api/contact-lists', { name });
  expect(list.statusCode, list.body).toBe(201);
  return (list.json() as { id: number }).id;
}

describe('leads', () => {
  const t = useTestApp(() => ({
    DNS_SERVERS: dns.server,
    HUNTER_API_BASE: `http://127.0.0.1:${(hunter.address() as AddressInfo).port}`,
  }));

  it("an enrichment source shows its Hunter credits before spending any; 'Not connected' without a key", async () => {
    const { client } = await signUpUser(t());
    const source = (
      await client.post('/api/lead-sources', { type: 'enrichment', name: 'Hunter' })
    ).json() as LeadSource;
    const unconnected = await client.get(`/api/lead-sources/${source.id}/credits`);
    expect(unconnected.statusCode).toBe(409);
    expect((unconnected.json() as Answer).message).toMatch(/^Not connected/);
    await client.patch(`/api/lead-sources/${source.id}`, { apiKey: 'good' });
    expect((await client.get(`/api/lead-sources/${source.id}/credits`)).json()).toEqual({ used: 3, available: 50 });
    await client.patch(`/api/lead-sources/${source.id}`, { apiKey: 'revoked' });
    const refused = await client.get(`/api/lead-sources/${source.id}/credits`);
    expect(refused.statusCode).toBe(422);
    expect((refused.json() as Answer).message).toMatch(/Hunter refused the API key: No user found/);
    const form = (await client.post('/api/lead-sources', { type: 'form', name: 'f' })).json() as LeadSource;
    expect((await client.get(`/api/lead-sources/${form.id}/credits`)).statusCode).toBe(400);
    const other = await signUpUser(t());
    expect((await other.client.get(`/api/lead-sources/${source.id}/credits`)).statusCode).toBe(404);
  });

  it('lead sources: create one of each type, keys sealed and never answered, patch, delete', async () => {
    const { client } = await signUpUser(t());
    const form = await client.post('/api/lead-sources', { type: 'form', name: 'Newsletter form' });
    expect(form.statusCode, form.body).toBe(201);
    const formSource = form.json() as LeadSource;
    expect(formSource).toMatchObject({ type: 'form', isActive: true, connected: true, totalLeads: 0 });
    expect(formSource.settings).toMatchObject({ version: 1, doubleOptIn: true });
    expect(String(formSource.settings.slug)).toMatch(/^[\w-]{16}$/);

    const withoutKey = (
      await client.post('/api/lead-sources', { type: 'places', name: 'Yelp', provider: 'yelp' })
    ).json() as LeadSource;
    expect(withoutKey).toMatchObject({ connected: false, apiKeyHint: null, provider: 'yelp' });

    const places = await client.post('/api/lead-sources', {
      type: 'places',
      name: 'Google',
      provider: 'google',
      apiKey: 'AIza-secret-key-1234',
    });
    expect(places.statusCode, places.body).toBe(201);
    const placesSource = places.json() as LeadSource;
    expect(places.body).not.toContain('AIza-secret');
    expect(placesSource).toMatchObject({ connected: true, apiKeyHint: '1234' });
    const [stored] = await t().ctx.db.select().from(leadSources).where(eq(leadSources.id, placesSource.id));
    expect(stored?.apiKeySealed).not.toContain('AIza');
    expect(openSecret(t().ctx.config.sessionSecret, LEAD_SOURCE_KEY_PURPOSE, stored?.apiKeySealed ?? '')).toBe(
      'AIza-secret-key-1234',
    );

    const hunter = (
      await client.post('/api/lead-sources', { type: 'enrichment', name: 'Hunter' })
    ).json() as LeadSource;
    expect(hunter).toMatchObject({ provider: 'hunter', connected: false });
    const csv = await client.post('/api/lead-sources', {
      type: 'csv',
      name: 'Trade fair',
      origin: 'Sign-up sheet at the 2026 trade fair',
      lawfulBasis: 'consent',
    });
    expect(csv.statusCode, csv.body).toBe(201);
    expect((await client.post('/api/lead-sources', { type: 'webhook', name: 'Thumbtack' })).statusCode).toBe(201);
    expect((await client.post('/api/lead-sources', { type: 'sample', name: 'Demo' })).statusCode).toBe(201);

    // Connecting a key later, then disconnecting it.
    const connected = await client.patch(`/api/lead-sources/${hunter.id}`, { apiKey: 'hunter-key-9876' });
    expect(connected.json()).toMatchObject({ connected: true, apiKeyHint: '9876' });
    const disconnected = await client.patch(`/api/lead-sources/${hunter.id}`, { apiKey: null, isActive: false });
    expect(disconnected.json()).toMatchObject({ connected: false, apiKeyHint: null, isActive: false });

    // Changing a form's words starts a new form version.
    const reworded = await client.patch(`/api/lead-sources/${formSource.id}`, { consentText: 'Yes, mail me.' });
    expect((reworded.json() as LeadSource).settings).toMatchObject({ version: 2, consentText: 'Yes, mail me.' });
    const renamed = await client.patch(`/api/lead-sources/${formSource.id}`, { name: 'Footer form' });
    expect((renamed.json() as LeadSource).settings).toMatchObject({ version: 2 });

    const listed = (await client.get('/api/lead-sources')).json() as LeadSource[];
    expect(listed.map((source) => source.type)).toEqual([
      'form',
      'places',
      'places',
      'enrichment',
      'csv',
      'webhook',
      'sample',
    ]);

    expect((await client.delete(`/api/lead-sources/${withoutKey.id}`)).statusCode).toBe(204);
    expect((await client.delete(`/api/lead-sources/${withoutKey.id}`)).statusCode).toBe(404);
    expect(((await client.get('/api/lead-sources')).json() as LeadSource[]).length).toBe(6);
  });

  it('lead sources refuse bad input with 400 naming the field', async () => {
    const { client } = await signUpUser(t());
    const cases: [unknown, string, RegExp][] = [
      [{ type: 'fax', name: 'x' }, 'type', /Choose a source type/],
      [{ name: 'x' }, 'type', /Choose a source type/],
      [{ type: 'form', name: '  ' }, 'name', /Name is required/],
      [{ type: 'form', name: 'x'.repeat(101) }, 'name', /at most 100/],
      [{ type: 'places', name: 'x', provider: 'bing' }, 'provider', /Google Places or Yelp/],
      [{ type: 'places', name: 'x', provider: 'yelp', apiKey: ' ' }, 'apiKey', /API key is required/],
      [{ type: 'csv', name: 'x', origin: 'fair' }, 'lawfulBasis', /lawful basis/],
      [{ type: 'csv', name: 'x', lawfulBasis: 'consent' }, 'origin', /.+/],
      [{ type: 'form', name: 'x', doubleOptIn: 'yes' }, 'doubleOptIn', /true or false/],
    ];
    for (const [body, field, message] of cases) {
      const answer = await client.post('/api/lead-sources', body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect((answer.json() as Answer).fields?.[field], answer.body).toMatch(message);
    }
    const webhook = (await client.post('/api/lead-sources', { type: 'webhook', name: 'w' })).json() as LeadSource;
    const keyOnWebhook = await client.patch(`/api/lead-sources/${webhook.id}`, { apiKey: 'k' });
    expect(keyOnWebhook.statusCode).toBe(400);
    const consentOnWebhook = await client.patch(`/api/lead-sources/${webhook.id}`, { consentText: 'k' });
    expect(consentOnWebhook.statusCode).toBe(400);
    expect((await client.patch('/api/lead-sources/999999', { name: 'x' })).statusCode).toBe(404);
    expect(((await client.get('/api/lead-sources')).json() as LeadSource[]).length).toBe(1);
  });

  it('a lead by hand: validated, scored by the server, one per email, listed newest first', async () => {
    const { client } = await signUpUser(t());
    const created = await client.post('/api/leads', { ...ada, score: 97, status: 'new' });
    expect(created.statusCode, created.body).toBe(201);
    const lead = created.json() as Lead;
    expect(lead).toMatchObject({
      email: 'ada@engines.example',
      status: 'new',
      tags: ['warm'],
      isSample: false,
      consent: null,
      contactId: null,
    });
    expect(lead.metadata.source).toBe('manual');
    expect(Date.parse(String(lead.metadata.foundAt))).not.toBeNaN();
    // Completeness 20 (name, company, title, location) + domain with MX 30 + by hand 8.
    expect(lead.score).toBe(58);
    expect(lead.metadata.address).toEqual({ mx: 'found', disposable: false, role: false, freeMail: false });
    // No mail servers (NXDOMAIN at the local DNS server), a role address: deliverability 0.
    const role = (await client.post('/api/leads', { email: 'info@nowhere.example' })).json() as Lead;
    expect(role.score).toBe(8);
    expect(role.metadata.address).toEqual({ mx: 'none', disposable: false, role: true, freeMail: false });

    const duplicate = await client.post('/api/leads', { ...ada, email: 'ADA@engines.example' });
    expect(duplicate.statusCode).toBe(409);
    expect((duplicate.json() as Answer).fields?.email).toBe('A lead with this email already exists');

    const cases: [unknown, string, RegExp][] = [
      [{ email: 'not-an-email' }, 'email', /Please enter a valid email address/],
      [{}, 'email', /Please enter a valid email address/],
      [{ email: 'a@b.io', status: 'qualified' }, 'status', /'new'/],
      [{ email: 'a@b.io', score: 150 }, 'score', /.+/],
      [{ email: 'a@b.io', score: 'high' }, 'score', /number/],
      [{ email: 'a@b.io', tags: 'x' }, 'tags', /list/],
      [{ email: 'a@b.io', metadata: { foundAt: 'yesterday' } }, 'metadata.foundAt', /ISO timestamp/],
      [{ email: 'a@b.io', firstName: 'x'.repeat(101) }, 'firstName', /at most 100/],
      [{ email: 'a@b.io', lawfulBasis: 'because' }, 'lawfulBasis', /lawful basis/],
      [{ email: 'a@b.io', sourceId: -1 }, 'sourceId', /lead source id/],
    ];
    for (const [body, field, message] of cases) {
      const answer = await client.post('/api/leads', body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect((answer.json() as Answer).fields?.[field], answer.body).toMatch(message);
    }
    expect((await client.post('/api/leads', { email: 'b@b.io', sourceId: 99999 })).statusCode).toBe(404);
    expect((await client.post('/api/leads', { email: 'b@b.io', campaignId: 99999 })).statusCode).toBe(404);

    const second = (
      await client.post('/api/leads', { email: 'grace@navy.example', firstName: 'Grace' })
    ).json() as Lead;
    const listed = (await client.get('/api/leads')).json() as Lead[];
    expect(listed.map((row) => row.id)).toEqual([second.id, role.id, lead.id]);
    expect((await client.get(`/api/leads/${lead.id}`)).json()).toEqual(lead);
    expect((await client.get('/api/leads/999999')).statusCode).toBe(404);
  });

  it('status moves new → contacted → qualified, or to lost; never backwards; converted only by conversion', async () => {
    const { client } = await signUpUser(t());
    const lead = (await client.post('/api/leads', { email: 'move@x.example' })).json() as Lead;
    const skip = await client.patch(`/api/leads/${lead.id}`, { status: 'qualified' });
    expect(skip.statusCode).toBe(409);
    expect((skip.json() as Answer).message).toBe('A new lead cannot become qualified');
    const convert = await client.patch(`/api/leads/${lead.id}`, { status: 'converted' });
    expect(convert.statusCode).toBe(409);
    expect(
      (await client.patch(`/api/leads/${lead.id}`, { status: 'contacted', notes: 'Called Monday' })).json(),
    ).toMatchObject({ status: 'contacted', notes: 'Called Monday' });
    expect((await client.patch(`/api/leads/${lead.id}`, { status: 'new' })).statusCode).toBe(409);
    expect((await client.patch(`/api/leads/${lead.id}`, { status: 'qualified' })).json()).toMatchObject({
      status: 'qualified',
      notes: 'Called Monday',
    });
    expect((await client.patch(`/api/leads/${lead.id}`, { status: 'lost' })).json()).toMatchObject({ status: 'lost' });
    expect((await client.patch(`/api/leads/${lead.id}`, { status: 'contacted' })).statusCode).toBe(409);
    const bad = await client.patch(`/api/leads/${lead.id}`, { status: 'won' });
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as Answer).fields?.status).toBe('Unknown lead status');
    expect((await client.patch('/api/leads/999999', { notes: 'x' })).statusCode).toBe(404);
  });

  it('lead campaigns count their leads by status', async () => {
    const { client } = await signUpUser(t());
    const refused = await client.post('/api/lead-campaigns', { name: ' ' });
    expect(refused.statusCode).toBe(400);
    expect((refused.json() as Answer).fields?.name).toBe('Name is required');
    const created = await client.post('/api/lead-campaigns', { name: 'Dentists Q3', description: 'Local practices' });
    expect(created.statusCode, created.body).toBe(201);
    const campaign = created.json() as LeadCampaign;
    expect(campaign).toMatchObject({ status: 'active', totalLeads: 0, qualifiedLeads: 0, convertedLeads: 0 });

    const list = await newList(client, 'Dentists');
    const ids: number[] = [];
    for (const name of ['a', 'b', 'c', 'd']) {
      const lead = await client.post('/api/leads', {
        email: `${name}@dent.example`,
        campaignId: campaign.id,
        lawfulBasis: 'legitimate_interest',
      });
      ids.push((lead.json() as Lead).id);
    }
    await client.post('/api/leads', { email: 'other@dent.example' });
    await client.patch(`/api/leads/${ids[0]}`, { status: 'contacted' });
    await client.patch(`/api/leads/${ids[0]}`, { status: 'qualified' });
    await client.patch(`/api/leads/${ids[1]}`, { status: 'lost' });
    expect((await client.post(`/api/leads/${ids[2]}/convert`, { listId: list })).statusCode).toBe(200);

    const [listed] = (await client.get('/api/lead-campaigns')).json() as LeadCampaign[];
    expect(listed).toMatchObject({ id: campaign.id, totalLeads: 4, qualifiedLeads: 2, convertedLeads: 1 });
    // Moving a lead out of the campaign.
    await client.patch(`/api/leads/${ids[3]}`, { campaignId: null });
    expect(((await client.get('/api/lead-campaigns')).json() as LeadCampaign[])[0]?.totalLeads).toBe(3);
  });

  it('conversion creates or updates the contact in the list, keeping source and basis; sample and basis-less leads are refused', async () => {
    const { client } = await signUpUser(t());
    const list = await newList(client, 'From leads');
    const csvSource = (
      await client.post('/api/lead-sources', {
        type: 'csv',
        name: 'Fair',
        origin: 'Fair sheet',
        lawfulBasis: 'consent',
      })
    ).json() as LeadSource;

    const noBasis = (await client.post('/api/leads', { email: 'nobasis@x.example' })).json() as Lead;
    const refused = await client.post(`/api/leads/${noBasis.id}/convert`, { listId: list });
    expect(refused.statusCode).toBe(400);
    expect((refused.json() as Answer).message).toMatch(/lawful basis/);

    // A new contact.
    const lead = (
      await client.post('/api/leads', { ...ada, sourceId: csvSource.id, lawfulBasis: 'consent' })
    ).json() as Lead;
    const converted = await client.post(`/api/leads/${lead.id}/convert`, { listId: list });
    expect(converted.statusCode, converted.body).toBe(200);
    const result = converted.json() as ConvertLeadResult;
    expect(result.createdContact).toBe(true);
    expect(result.lead).toMatchObject({ status: 'converted', contactId: result.contactId });
    const contact = (await client.get(`/api/contacts/${result.contactId}`)).json() as {
      email: string;
      company: string;
      tags: string[];
      notes: string;
      lists: { id: number }[];
    };
    expect(contact).toMatchObject({ email: 'ada@engines.example', company: 'Engines Ltd', tags: ['lead-source:csv'] });
    expect(contact.notes).toMatch(/source: Fair/);
    expect(contact.notes).toMatch(/lawful basis: consent/);
    expect(contact.lists.map((l) => l.id)).toEqual([list]);
    expect((await client.post(`/api/leads/${lead.id}/convert`, { listId: list })).statusCode).toBe(200);

    // An existing contact is updated, not duplicated.
    const existing = await client.post('/api/contacts', {
      email: 'grace@navy.example',
      firstName: 'Grace',
      lastName: 'Hopper',
      tags: ['vip'],
    });
    const other = (
      await client.post('/api/leads', {
        email: 'grace@navy.example',
        company: 'US Navy',
        lawfulBasis: 'legitimate_interest',
      })
    ).json() as Lead;
    const updated = (await client.post(`/api/leads/${other.id}/convert`, { listId: list })).json() as ConvertLeadResult;
    expect(updated.createdContact).toBe(false);
    expect(updated.contactId).toBe((existing.json() as { id: number }).id);
    const grace = (await client.get(`/api/contacts/${updated.contactId}`)).json() as {
      company: string;
      tags: string[];
      firstName: string;
    };
    expect(grace).toMatchObject({ firstName: 'Grace', company: 'US Navy', tags: ['vip', 'lead-source:manual'] });

    // Sample leads are never added to a list.
    const sample = (await client.post('/api/lead-sources', { type: 'sample', name: 'Demo' })).json() as LeadSource;
    const demo = (
      await client.post('/api/leads', { email: 'demo@sample.example', sourceId: sample.id, lawfulBasis: 'consent' })
    ).json() as Lead;
    expect(demo.isSample).toBe(true);
    const sampleRefused = await client.post(`/api/leads/${demo.id}/convert`, { listId: list });
    expect(sampleRefused.statusCode).toBe(400);
    expect((sampleRefused.json() as Answer).message).toMatch(/Sample data/);
    expect((await client.get(`/api/leads/${demo.id}`)).json()).toMatchObject({ status: 'new', contactId: null });

    // Lost leads, unknown lists, bad ids.
    const lost = (await client.post('/api/leads', { email: 'lost@x.example', lawfulBasis: 'consent' })).json() as Lead;
    await client.patch(`/api/leads/${lost.id}`, { status: 'lost' });
    expect((await client.post(`/api/leads/${lost.id}/convert`, { listId: list })).statusCode).toBe(409);
    const noList = await client.post(`/api/leads/${noBasis.id}/convert`, { listId: 999999 });
    expect(noList.statusCode).toBe(400);
    await client.patch(`/api/leads/${noBasis.id}`, { lawfulBasis: 'contract' });
    expect((await client.post(`/api/leads/${noBasis.id}/convert`, { listId: 999999 })).statusCode).toBe(404);
    expect((await client.get(`/api/leads/${noBasis.id}`)).json()).toMatchObject({ status: 'new' });
    const badBody = await client.post(`/api/leads/${noBasis.id}/convert`, { listId: 'x' });
    expect(badBody.statusCode).toBe(400);
    expect((badBody.json() as Answer).fields?.listId).toBe('Choose a contact list');
    expect((await client.post('/api/leads/999999/convert', { listId: list })).statusCode).toBe(404);

    // The source counts its leads.
    const sources = (await client.get('/api/lead-sources')).json() as LeadSource[];
    expect(sources.find((s) => s.id === csvSource.id)?.totalLeads).toBe(1);
  });

  it("user B gets 404 on every one of user A's leads, sources, campaigns and lists", async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const source = (await a.client.post('/api/lead-sources', { type: 'webhook', name: 'A hook' })).json() as LeadSource;
    const campaign = (await a.client.post('/api/lead-campaigns', { name: 'A campaign' })).json() as LeadCampaign;
    const lead = (
      await a.client.post('/api/leads', { email: 'a-lead@x.example', lawfulBasis: 'consent', campaignId: campaign.id })
    ).json() as Lead;
    const aList = await newList(a.client, 'A list');
    const bList = await newList(b.client, 'B list');
    const bLead = (
      await b.client.post('/api/leads', { email: 'b-lead@x.example', lawfulBasis: 'consent' })
    ).json() as Lead;

    const attempts: [string, string, unknown?][] = [
      ['GET', `/api/leads/${lead.id}`],
      ['PATCH', `/api/leads/${lead.id}`, { notes: 'mine now' }],
      ['POST', `/api/leads/${lead.id}/convert`, { listId: bList }],
      ['PATCH', `/api/lead-sources/${source.id}`, { name: 'mine now' }],
      ['DELETE', `/api/lead-sources/${source.id}`],
      ['POST', '/api/leads', { email: 'x@x.example', sourceId: source.id }],
      ['POST', '/api/leads', { email: 'x@x.example', campaignId: campaign.id }],
      ['PATCH', `/api/leads/${bLead.id}`, { campaignId: campaign.id }],
      ['POST', `/api/leads/${bLead.id}/convert`, { listId: aList }],
    ];
    for (const [method, url, payload] of attempts) {
      const answer = await b.client.request({
        method: method as 'GET',
        url,
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await b.client.get('/api/leads')).json()).toEqual([expect.objectContaining({ id: bLead.id })]);
    expect((await b.client.get('/api/lead-sources')).json()).toEqual([]);
    expect((await b.client.get('/api/lead-campaigns')).json()).toEqual([]);
    // A's rows are unchanged.
    expect((await a.client.get(`/api/leads/${lead.id}`)).json()).toMatchObject({ notes: null, status: 'new' });
    expect((await a.client.get('/api/lead-sources')).json()).toEqual([expect.objectContaining({ name: 'A hook' })]);
    expect(((await a.client.get('/api/lead-campaigns')).json() as LeadCampaign[])[0]?.totalLeads).toBe(1);
    // Signed out: 401 everywhere.
    const anonymous = t().client();
    for (const url of ['/api/leads', '/api/lead-sources', '/api/lead-campaigns', `/api/leads/${lead.id}`]) {
      expect((await anonymous.get(url)).statusCode).toBe(401);
    }
  });
});
