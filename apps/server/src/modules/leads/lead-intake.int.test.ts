import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { CreatedLeadSource, Lead, LeadSource, LeadsLoaded } from '@sendwell/contract/leads';
import { leadSources } from '../../db/schema/index.ts';
import { signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';
import { startTestDnsServer } from '../../../test/dns-server.ts';
import { leadWebhookSignature, sampleBusinesses } from './lead-intake.service.ts';

const dns = await startTestDnsServer();
dns.setMx('acme.example', [{ exchange: 'mx.acme.example', priority: 10 }]);
dns.setMx('mailinator.com', [{ exchange: 'mail.mailinator.com', priority: 10 }]);
dns.setMx('parked.example', [{ exchange: '', priority: 0 }]);
afterAll(() => dns.close());

type Answer = { message: string };

async function newList(client: TestClient, name: string): Promise<number> {
  const list = await client.post('/api/contact-lists', { name });
  expect(list.statusCode, list.body).toBe(201);
  return (list.json() as { id: number }).id;
}

describe('sample, webhook and CSV lead sources', () => {
  const t = useTestApp(() => ({ DNS_SERVERS: dns.server }));

  it('a webhook source: URL and secret shown once; valid, tampered, stale and replayed deliveries', async () => {
    const { client } = await signUpUser(t());
    const created = await client.post('/api/lead-sources', { type: 'webhook', name: 'Thumbtack' });
    expect(created.statusCode, created.body).toBe(201);
    const source = created.json() as CreatedLeadSource;
    expect(source.webhook?.url).toBe(`http://localhost:5000/api/webhook/leads/${source.id}`);
    const secret = source.webhook?.secret ?? '';
    expect(secret).toMatch(/^whsec_[\w-]{32}$/);
    // Sealed at rest and never answered again.
    const [stored] = await t().ctx.db.select().from(leadSources).where(eq(leadSources.id, source.id));
    expect(stored?.apiKeySealed).not.toContain(secret);
    const listed = await client.get('/api/lead-sources');
    expect(listed.body).not.toContain(secret);
    expect((listed.json() as LeadSource[])[0]).not.toHaveProperty('webhook');

    const deliver = (body: string, options: { timestamp?: number; signature?: string; id?: number } = {}) => {
      const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
      return t().app.inject({
        method: 'POST',
        url: `/api/webhook/leads/${options.id ?? source.id}`,
        headers: {
          'content-type': 'application/json',
          'x-sendwell-timestamp': timestamp,
          'x-sendwell-signature': options.signature ?? leadWebhookSignature(secret, timestamp, body),
        },
        payload: body,
      });
    };

    const body = JSON.stringify({
      leads: [
        { email: 'Pat@Acme.example', firstName: 'Pat', lastName: 'Lee', phone: '+1 555-0100', notes: 'Needs a quote' },
        { email: 'temp@mailinator.com' },
        { email: 'nobody@parked.example' },
      ],
    });
    const sentAt = Math.floor(Date.now() / 1000);
    const signature = leadWebhookSignature(secret, String(sentAt), body);
    const ok = await deliver(body, { timestamp: sentAt, signature });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({
      created: 2,
      duplicates: 0,
      skipped: 1,
      errors: [{ row: 3, message: "The address's domain says it accepts no mail (null MX)" }],
    });
    const leads = (await client.get('/api/leads')).json() as Lead[];
    const pat = leads.find((lead) => lead.email === 'pat@acme.example');
    expect(pat).toMatchObject({ firstName: 'Pat', status: 'new', sourceId: source.id, notes: 'Needs a quote' });
    expect(pat?.metadata).toMatchObject({ source: 'Thumbtack', via: 'webhook' });
    const temp = leads.find((lead) => lead.email === 'temp@mailinator.com');
    expect(temp?.metadata.address).toMatchObject({ disposable: true });

    // The same delivery again: refused as a replay, nothing stored.
    const replay = await deliver(body, { timestamp: sentAt, signature });
    expect(replay.statusCode).toBe(409);
    expect((replay.json() as Answer).message).toMatch(/replay/);

    // Tampered: the signature of another body.
    const now = Math.floor(Date.now() / 1000);
    const tampered = await deliver(JSON.stringify({ email: 'evil@acme.example' }), {
      timestamp: now,
      signature: leadWebhookSignature(secret, String(now), JSON.stringify({ email: 'other@acme.example' })),
    });
    expect(tampered.statusCode).toBe(401);
    expect((tampered.json() as Answer).message).toBe('Invalid signature');
    // Signed with another secret.
    const wrongSecret = await deliver(JSON.stringify({ email: 'evil@acme.example' }), {
      timestamp: now,
      signature: leadWebhookSignature(
        'whsec_not-the-secret',
        String(now),
        JSON.stringify({ email: 'evil@acme.example' }),
      ),
    });
    expect(wrongSecret.statusCode).toBe(401);
    // Stale: correctly signed, six minutes old.
    const stale = await deliver(JSON.stringify({ email: 'late@acme.example' }), { timestamp: now - 360 });
    expect(stale.statusCode).toBe(401);
    expect((stale.json() as Answer).message).toMatch(/5-minute tolerance/);
    // Missing headers.
    const unsigned = await t().app.inject({
      method: 'POST',
      url: `/api/webhook/leads/${source.id}`,
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(unsigned.statusCode).toBe(401);
    // Signed but not leads: 400, nothing stored.
    const badLead = await deliver(JSON.stringify({ email: 'not-an-address' }));
    expect(badLead.statusCode).toBe(400);
    const notJson = await deliver('nope');
    expect(notJson.statusCode).toBe(400);
    expect(((await client.get('/api/leads')).json() as Lead[]).length).toBe(2);

    // A duplicate email is counted, not stored twice.
    const dup = await deliver(JSON.stringify({ email: 'pat@acme.example' }));
    expect(dup.json()).toMatchObject({ created: 0, duplicates: 1 });

    // Unknown sources, and sources that are not webhooks, are 404; another account's secret does not sign for this one.
    expect((await deliver('{}', { id: 999999 })).statusCode).toBe(404);
    const form = (await client.post('/api/lead-sources', { type: 'form', name: 'Form' })).json() as LeadSource;
    expect((await deliver('{}', { id: form.id })).statusCode).toBe(404);
    const other = await signUpUser(t());
    const otherSource = (
      await other.client.post('/api/lead-sources', { type: 'webhook', name: 'Mine' })
    ).json() as CreatedLeadSource;
    const crossBody = JSON.stringify({ email: 'cross@acme.example' });
    const crossTime = String(Math.floor(Date.now() / 1000));
    const cross = await t().app.inject({
      method: 'POST',
      url: `/api/webhook/leads/${source.id}`,
      headers: {
        'content-type': 'application/json',
        'x-sendwell-timestamp': crossTime,
        'x-sendwell-signature': leadWebhookSignature(otherSource.webhook?.secret ?? '', crossTime, crossBody),
      },
      payload: crossBody,
    });
    expect(cross.statusCode).toBe(401);
    expect(((await other.client.get('/api/leads')).json() as Lead[]).length).toBe(0);

    // A paused source refuses deliveries.
    await client.patch(`/api/lead-sources/${source.id}`, { isActive: false });
    expect((await deliver(JSON.stringify({ email: 'paused@acme.example' }))).statusCode).toBe(403);
  });

  it('a CSV source: a lead list through the streaming importer, with its lawful basis, checks and de-duplication', async () => {
    const { client } = await signUpUser(t());
    const source = (
      await client.post('/api/lead-sources', {
        type: 'csv',
        name: 'Trade fair',
        origin: 'Sign-up sheet at the 2026 trade fair',
        lawfulBasis: 'consent',
      })
    ).json() as LeadSource;
    await client.post('/api/leads', { email: 'known@acme.example' });
    const csv = [
      'Email,First Name,Last Name,Company',
      'ann@acme.example,Ann,Ito,Acme',
      'ANN@acme.example,Ann,,',
      'known@acme.example,Known,,',
      'not-an-email,X,,',
      'info@acme.example,,,Acme',
      'gone@parked.example,,,',
    ].join('\n');
    const imported = await client.post(`/api/lead-sources/${source.id}/import-csv`, { csvData: csv });
    expect(imported.statusCode, imported.body).toBe(200);
    const result = imported.json() as LeadsLoaded;
    expect(result).toMatchObject({ created: 2, duplicates: 2, skipped: 2 });
    expect(result.errors).toEqual([
      { row: 5, message: '“not-an-email” is not a valid email address' },
      { row: 7, message: "The address's domain says it accepts no mail (null MX)" },
    ]);
    const leads = (await client.get('/api/leads')).json() as Lead[];
    const ann = leads.find((lead) => lead.email === 'ann@acme.example');
    expect(ann).toMatchObject({
      firstName: 'Ann',
      lastName: 'Ito',
      company: 'Acme',
      lawfulBasis: 'consent',
      sourceId: source.id,
    });
    expect(ann?.metadata).toMatchObject({ source: 'Trade fair', via: 'csv', address: { mx: 'found', role: false } });
    expect(leads.find((lead) => lead.email === 'info@acme.example')?.metadata.address).toMatchObject({ role: true });

    // Its leads carry the list's lawful basis, so they may become contacts.
    const list = await newList(client, 'Fair');
    const converted = await client.post(`/api/leads/${ann?.id}/convert`, { listId: list });
    expect(converted.statusCode, converted.body).toBe(200);

    // Streamed as text/csv with progress lines.
    const streamed = await client.request({
      method: 'POST',
      url: `/api/lead-sources/${source.id}/import-csv`,
      headers: { 'content-type': 'text/csv', accept: 'application/x-ndjson' },
      payload: 'email;company\nbo@acme.example;Acme\nann@acme.example;Acme\n',
    });
    expect(streamed.statusCode).toBe(200);
    const lines = streamed.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; rows?: number; result?: LeadsLoaded });
    expect(lines[0]).toEqual({ type: 'progress', rows: 2 });
    expect(lines.at(-1)).toEqual({ type: 'result', result: { created: 1, duplicates: 1, skipped: 0, errors: [] } });

    // Only a csv source takes a list; another account's source is 404; bad files are 400.
    const webhook = (await client.post('/api/lead-sources', { type: 'webhook', name: 'W' })).json() as LeadSource;
    expect((await client.post(`/api/lead-sources/${webhook.id}/import-csv`, { csvData: csv })).statusCode).toBe(400);
    const other = await signUpUser(t());
    expect((await other.client.post(`/api/lead-sources/${source.id}/import-csv`, { csvData: csv })).statusCode).toBe(
      404,
    );
    const noEmail = await client.post(`/api/lead-sources/${source.id}/import-csv`, { csvData: 'name\nAnn\n' });
    expect(noEmail.statusCode).toBe(400);
    expect((noEmail.json() as Answer).message).toMatch(/no email column/);
    expect((await client.post(`/api/lead-sources/${source.id}/import-csv`, { csvData: '' })).statusCode).toBe(400);
    const wrongType = await client.request({
      method: 'POST',
      url: `/api/lead-sources/${source.id}/import-csv`,
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(wrongType.statusCode).toBe(415);
  });

  it('a sample source: a deterministic demo directory, badged, refused for conversion', async () => {
    expect(sampleBusinesses('Dentist', 'Austin')).toEqual(sampleBusinesses('Dentist', 'Austin'));
    expect(sampleBusinesses('Dentist', 'Austin')).not.toEqual(sampleBusinesses('Plumber', 'Austin'));
    const { client } = await signUpUser(t());
    const source = (await client.post('/api/lead-sources', { type: 'sample', name: 'Demo' })).json() as LeadSource;
    const loaded = await client.post(`/api/lead-sources/${source.id}/sample-leads`, {
      profession: 'Dentist',
      location: 'Austin',
    });
    expect(loaded.statusCode, loaded.body).toBe(200);
    expect(loaded.json()).toEqual({ created: 10, duplicates: 0, skipped: 0, errors: [] });
    const leads = (await client.get('/api/leads')).json() as Lead[];
    expect(leads).toHaveLength(10);
    for (const lead of leads) {
      expect(lead).toMatchObject({ isSample: true, tags: ['Sample data'], firstName: '', lastName: '' });
      expect(lead.metadata).toMatchObject({ source: 'Sample data', sample: true });
      expect(lead.email).toMatch(/\.example$/);
      expect(lead.company).toMatch(/Dentist/);
    }
    // Loading again adds nothing new.
    expect(
      (
        await client.post(`/api/lead-sources/${source.id}/sample-leads`, { profession: 'Dentist', location: 'Austin' })
      ).json(),
    ).toMatchObject({
      created: 0,
      duplicates: 10,
    });

    // Never a contact, even with a lawful basis recorded.
    const list = await newList(client, 'Demo list');
    const lead = leads[0] as Lead;
    await client.patch(`/api/leads/${lead.id}`, { lawfulBasis: 'consent' });
    const refused = await client.post(`/api/leads/${lead.id}/convert`, { listId: list });
    expect(refused.statusCode).toBe(400);
    expect((refused.json() as Answer).message).toMatch(/Sample data/);

    // Only a sample source loads them; bad input 400; another account 404.
    const csv = (
      await client.post('/api/lead-sources', { type: 'csv', name: 'C', origin: 'CRM', lawfulBasis: 'contract' })
    ).json() as LeadSource;
    expect((await client.post(`/api/lead-sources/${csv.id}/sample-leads`, { profession: 'Dentist' })).statusCode).toBe(
      400,
    );
    expect(
      (await client.post(`/api/lead-sources/${source.id}/sample-leads`, { profession: 'Astronaut' })).statusCode,
    ).toBe(400);
    const other = await signUpUser(t());
    expect(
      (await other.client.post(`/api/lead-sources/${source.id}/sample-leads`, { profession: 'Dentist' })).statusCode,
    ).toBe(404);
  });
});
