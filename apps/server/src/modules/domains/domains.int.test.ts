import { createPublicKey } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  BARE_DOMAIN_ONLY,
  DOMAIN_ALREADY_ADDED,
  DOMAIN_REQUIRED,
  INVALID_DOMAIN,
  NOT_A_REGISTRABLE_DOMAIN,
  type Domain,
} from '@sendwell/contract/domains';
import type { NotificationList } from '@sendwell/contract/notifications';
import { domainDailySends, domains, emailEvents, emailSequences } from '../../db/schema/index.ts';
import { signUpUser, TEST_SENDER, useTestApp, type TestApp, type TestClient } from '../../../test/build-app.ts';
import { startTestDnsServer } from '../../../test/dns-server.ts';
import { recheckDueDomains } from './domains.jobs.ts';
import { DOMAIN_VERIFY_LIMIT_PER_MINUTE } from './domains.routes.ts';

const dns = await startTestDnsServer();
afterAll(() => dns.close());

const SPF_INCLUDE = 'include:_spf.sendwell.test';

async function addDomain(client: TestClient, domain: string): Promise<Domain> {
  const response = await client.post('/api/domains', { domain });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Domain;
}

async function verify(client: TestClient, id: number): Promise<Domain> {
  const response = await client.post(`/api/domains/${id}/verify`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Domain;
}

/** Publishes exactly the records the app asks for. */
function publish(domain: Domain): void {
  for (const record of domain.records) dns.setTxt(record.host, [record.value]);
}

const statuses = (domain: Domain) => Object.fromEntries(domain.records.map((r) => [r.kind, r.status]));
const record = (domain: Domain, kind: 'spf' | 'dkim' | 'dmarc') => domain.records.find((r) => r.kind === kind);
const HOUR = 60 * 60 * 1000;

describe('domains API', () => {
  const t = useTestApp({ DNS_SERVERS: dns.server, SPF_INCLUDE });
  beforeEach(() => dns.clear());

  it('refuses invalid input with the spec’s messages and writes nothing', async () => {
    const { client } = await signUpUser(t());
    const cases: Array<[unknown, string]> = [
      [{}, DOMAIN_REQUIRED],
      [{ domain: '' }, DOMAIN_REQUIRED],
      [{ domain: '   ' }, DOMAIN_REQUIRED],
      [{ domain: null }, DOMAIN_REQUIRED],
      [{ domain: 'www.example.com' }, BARE_DOMAIN_ONLY],
      [{ domain: 'http://example.com' }, BARE_DOMAIN_ONLY],
      [{ domain: 'HTTPS://example.com/' }, BARE_DOMAIN_ONLY],
      [{ domain: 'example' }, INVALID_DOMAIN],
      [{ domain: 'exa mple.com' }, INVALID_DOMAIN],
      [{ domain: 'user@example.com' }, INVALID_DOMAIN],
      [{ domain: '-bad.example.com' }, INVALID_DOMAIN],
      [{ domain: '203.0.113.5' }, INVALID_DOMAIN],
      [{ domain: `${'a'.repeat(64)}.com` }, INVALID_DOMAIN],
    ];
    for (const [body, message] of cases) {
      const response = await client.post('/api/domains', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json(), JSON.stringify(body)).toMatchObject({ message, fields: { domain: message } });
    }
    expect((await client.get('/api/domains')).json()).toEqual([]);
    expect(BARE_DOMAIN_ONLY).toMatch(/www\./);
    expect(BARE_DOMAIN_ONLY).toMatch(/http:\/\//);
  });

  it('adds a domain with a fresh 2048-bit DKIM key (sealed at rest) and the three records to publish', async () => {
    const { client, user } = await signUpUser(t());
    const domain = await addDomain(client, '  Mail.Example.COM. ');
    expect(domain).toMatchObject({
      domain: 'mail.example.com',
      isVerified: false,
      isPrimary: true,
      verifiedAt: null,
      senderScore: null,
      bounceRate: null,
      spamRate: null,
      warmingProgress: 0,
      spfRecord: `v=spf1 ${SPF_INCLUDE} ~all`,
      dmarcRecord: 'v=DMARC1; p=none; rua=mailto:dmarc@mail.example.com',
      warming: { status: 'not_started', week: 1, totalWeeks: 4, dailyLimit: 1000, sentToday: 0, remainingToday: 1000 },
      reputation: { label: null, sentLast30Days: 0, domainAgeDays: 0 },
    });
    expect(domain.lastCheckedAt).not.toBeNull();
    const now = new Date();
    expect(domain.dkimSelector).toBe(`sw${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`);
    const p = /^v=DKIM1; k=rsa; p=([A-Za-z0-9+/=]+)$/.exec(domain.dkimRecord)?.[1] ?? '';
    const publicKey = createPublicKey({ key: Buffer.from(p, 'base64'), format: 'der', type: 'spki' });
    expect(publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(domain.records).toEqual([
      {
        kind: 'spf',
        type: 'TXT',
        host: 'mail.example.com',
        value: domain.spfRecord,
        status: 'missing',
        found: null,
        note: expect.stringMatching(/24-48 hours/),
      },
      {
        kind: 'dkim',
        type: 'TXT',
        host: `${domain.dkimSelector}._domainkey.mail.example.com`,
        value: domain.dkimRecord,
        status: 'missing',
        found: null,
        note: expect.any(String),
      },
      {
        kind: 'dmarc',
        type: 'TXT',
        host: '_dmarc.mail.example.com',
        value: domain.dmarcRecord,
        status: 'missing',
        found: null,
        note: expect.any(String),
      },
    ]);

    const [row] = await t().ctx.db.select().from(domains).where(eq(domains.id, domain.id));
    expect(row?.userId).toBe(user.id);
    expect(row?.dkimPrivateKeyEncrypted).not.toMatch(/PRIVATE KEY/);
    expect(row?.dkimPrivateKeyEncrypted.split(':')).toHaveLength(3);

    expect((await client.get(`/api/domains/${domain.id}`)).json()).toEqual(domain);
    expect((await client.get('/api/domains')).json()).toEqual([domain]);

    // The second domain is not primary; the same name again (any case) is a 409.
    expect((await addDomain(client, 'example.org')).isPrimary).toBe(false);
    const duplicate = await client.post('/api/domains', { domain: 'MAIL.example.com' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ message: DOMAIN_ALREADY_ADDED });
    expect((await client.get('/api/domains')).json()).toHaveLength(2);
  });

  it('judges each record from DNS: missing, right, wrong, two SPF records, chunked DKIM', async () => {
    const { client } = await signUpUser(t());
    const domain = await addDomain(client, 'states.example');
    expect(statuses(domain)).toEqual({ spf: 'missing', dkim: 'missing', dmarc: 'missing' });

    publish(domain);
    let checked = await verify(client, domain.id);
    expect(statuses(checked)).toEqual({ spf: 'verified', dkim: 'verified', dmarc: 'verified' });
    expect(checked.isVerified).toBe(true);
    expect(checked.verifiedAt).not.toBeNull();
    expect(checked.warming).toMatchObject({ status: 'warming', week: 1, dailyLimit: 1000, nextIncreaseInDays: 7 });

    // Wrong: SPF without our include; DKIM with another key; DMARC without a policy.
    dns.setTxt('states.example', ['v=spf1 include:_spf.google.com ~all', 'google-site-verification=x']);
    dns.setTxt(record(domain, 'dkim')?.host ?? '', ['v=DKIM1; k=rsa; p=MIIBIjANBgkqOTHERKEY']);
    dns.setTxt('_dmarc.states.example', ['v=DMARC1; rua=mailto:d@states.example']);
    checked = await verify(client, domain.id);
    expect(statuses(checked)).toEqual({ spf: 'wrong', dkim: 'wrong', dmarc: 'wrong' });
    expect(checked.isVerified).toBe(false);
    expect(checked.verifiedAt).toBeNull();
    expect(record(checked, 'spf')).toMatchObject({
      found: 'v=spf1 include:_spf.google.com ~all',
      note: `The SPF record must include ${SPF_INCLUDE}.`,
    });
    expect(record(checked, 'dkim')?.found).toBe('v=DKIM1; k=rsa; p=MIIBIjANBgkqOTHERKEY');
    expect(record(checked, 'dmarc')?.found).toBe('v=DMARC1; rua=mailto:d@states.example');
    // Warming, once started, is not restarted by losing verification.
    expect(checked.warming.status).toBe('warming');

    // Two SPF records: wrong, with both shown.
    dns.setTxt('states.example', [domain.spfRecord, 'v=spf1 include:_spf.google.com ~all']);
    // DKIM published as 255-byte chunks of one TXT record: the chunks are joined.
    const dkim = record(domain, 'dkim');
    dns.setTxt(dkim?.host ?? '', [[(dkim?.value ?? '').slice(0, 255), (dkim?.value ?? '').slice(255)]]);
    dns.setTxt('_dmarc.states.example', ['v=DMARC1; p=reject; adkim=s']);
    checked = await verify(client, domain.id);
    expect(statuses(checked)).toEqual({ spf: 'wrong', dkim: 'verified', dmarc: 'verified' });
    expect(record(checked, 'spf')?.found).toBe(`${domain.spfRecord}\nv=spf1 include:_spf.google.com ~all`);
    expect(record(checked, 'spf')?.note).toMatch(/Found 2 SPF records/);

    // Missing again: NXDOMAIN for every name.
    dns.clear();
    checked = await verify(client, domain.id);
    expect(statuses(checked)).toEqual({ spf: 'missing', dkim: 'missing', dmarc: 'missing' });
    expect(checked.records.every((r) => r.found === null)).toBe(true);

    // NODATA (the name exists, no TXT) is missing too.
    dns.setTxt(`x._dmarc.states.example`, ['v=DMARC1; p=none']);
    checked = await verify(client, domain.id);
    expect(record(checked, 'dmarc')?.status).toBe('missing');
  });

  it('keeps the previous status when DNS gives no definitive answer, and records the attempt', async () => {
    const { client } = await signUpUser(t());
    const domain = await addDomain(client, 'flaky.example');
    publish(domain);
    const verified = await verify(client, domain.id);
    expect(verified.isVerified).toBe(true);

    dns.fail(record(domain, 'dkim')?.host ?? '');
    dns.fail('flaky.example');
    dns.remove('_dmarc.flaky.example');
    const later = await verify(client, domain.id);
    expect(statuses(later)).toEqual({ spf: 'verified', dkim: 'verified', dmarc: 'missing' });
    expect(later.isVerified).toBe(false);
    expect(Date.parse(later.lastCheckedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(verified.lastCheckedAt ?? ''));
  });

  it('answers isVerified from the first look-up when the records are already there', async () => {
    const { client } = await signUpUser(t());
    const name = 'ready.example';
    dns.setTxt(name, [`v=spf1 ${SPF_INCLUDE} -all`]);
    dns.setTxt(`_dmarc.${name}`, ['v=DMARC1; p=quarantine']);
    // The DKIM key is new, so its record is read from the database when the question arrives.
    const db = t().ctx.db;
    const selector = `sw${new Date().getUTCFullYear()}${String(new Date().getUTCMonth() + 1).padStart(2, '0')}`;
    dns.setTxtLater(`${selector}._domainkey.${name}`, async () => {
      const rows = await db.select({ dkimRecord: domains.dkimRecord }).from(domains).where(eq(domains.domain, name));
      return rows.map((row) => row.dkimRecord);
    });
    const domain = await addDomain(client, name);
    expect(domain.isVerified).toBe(true);
    expect(statuses(domain)).toEqual({ spf: 'verified', dkim: 'verified', dmarc: 'verified' });
  });

  it('lets the user choose the primary domain; deleting the primary promotes the oldest remaining one', async () => {
    const { client } = await signUpUser(t());
    const first = await addDomain(client, 'first.example');
    const second = await addDomain(client, 'second.example');
    const third = await addDomain(client, 'third.example');
    expect([first.isPrimary, second.isPrimary, third.isPrimary]).toEqual([true, false, false]);

    const chosen = await client.post(`/api/domains/${third.id}/primary`);
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json()).toMatchObject({ id: third.id, isPrimary: true });
    let list = (await client.get('/api/domains')).json() as Domain[];
    expect(list.map((d) => [d.domain, d.isPrimary])).toEqual([
      ['third.example', true],
      ['first.example', false],
      ['second.example', false],
    ]);

    expect((await client.delete(`/api/domains/${third.id}`)).statusCode).toBe(204);
    expect((await client.get(`/api/domains/${third.id}`)).statusCode).toBe(404);
    list = (await client.get('/api/domains')).json() as Domain[];
    expect(list.map((d) => [d.domain, d.isPrimary])).toEqual([
      ['first.example', true],
      ['second.example', false],
    ]);
    expect((await client.delete(`/api/domains/${third.id}`)).statusCode).toBe(404);
  });

  it('deletes a domain with its daily counts', async () => {
    const { client } = await signUpUser(t());
    const domain = await addDomain(client, 'gone.example');
    const db = t().ctx.db;
    await db.insert(domainDailySends).values({ domainId: domain.id, day: '2026-01-01', sent: 5 });
    expect((await client.delete(`/api/domains/${domain.id}`)).statusCode).toBe(204);
    expect(await db.select().from(domainDailySends).where(eq(domainDailySends.domainId, domain.id))).toEqual([]);
  });

  it('computes reputation from the domain’s own sends, hard bounces and complaints of the last 30 days', async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const parent = await addDomain(a.client, 'acme.example');
    const child = await addDomain(a.client, 'mail.acme.example');
    const other = await addDomain(b.client, 'acme.example');
    const db = t().ctx.db;
    const today = new Date().toISOString().slice(0, 10);
    await db.insert(domainDailySends).values([
      { domainId: parent.id, day: today, sent: 1000 },
      { domainId: child.id, day: today, sent: 200 },
      { domainId: other.id, day: today, sent: 1000 },
    ]);
    // Campaigns that went out from these domains (stored as sent ones are: the domains need not be verified now).
    const campaign = async (client: TestClient, fromEmail: string) => {
      const response = await client.post('/api/campaigns', {
        name: fromEmail,
        subject: 'Hi',
        fromEmail: TEST_SENDER,
        content: { html: '<p>Hi</p>' },
      });
      expect(response.statusCode, response.body).toBe(201);
      const id = (response.json() as { id: number }).id;
      await t().ctx.database.raw.executeSql('UPDATE campaigns SET from_email = $1 WHERE id = $2', [fromEmail, id]);
      return id;
    };
    const fromParent = await campaign(a.client, 'news@acme.example');
    const fromGrandchild = await campaign(a.client, 'x@eu.acme.example');
    const fromChild = await campaign(a.client, 'hello@mail.acme.example');
    const fromB = await campaign(b.client, 'news@acme.example');
    const event = (
      userId: string,
      campaignId: number,
      type: string,
      detail: string | null = null,
      createdAt = new Date(),
    ) => ({ userId, campaignId, type, detail, createdAt });
    const old = new Date(Date.now() - 40 * 24 * HOUR);
    await db.insert(emailEvents).values([
      // acme.example: 20 hard bounces (one via a subdomain without a domain of its own), 1 complaint.
      ...Array.from({ length: 19 }, () => event(a.user.id, fromParent, 'bounce', '550 no such user')),
      event(a.user.id, fromGrandchild, 'bounce', null),
      event(a.user.id, fromParent, 'complaint'),
      // Not counted: a soft bounce, an open, and a bounce older than the window.
      event(a.user.id, fromParent, 'bounce', 'soft: mailbox full'),
      event(a.user.id, fromParent, 'open'),
      event(a.user.id, fromParent, 'bounce', null, old),
      // mail.acme.example has its own domain row, so its events count there.
      event(a.user.id, fromChild, 'complaint'),
      // Another user's events never count for A.
      ...Array.from({ length: 50 }, () => event(b.user.id, fromB, 'bounce', null)),
    ]);
    const list = (await a.client.get('/api/domains')).json() as Domain[];
    const byName = Object.fromEntries(list.map((d) => [d.domain, d]));
    expect(byName['acme.example']).toMatchObject({
      bounceRate: 2,
      spamRate: 0.1,
      reputation: { sentLast30Days: 1000, label: 'Good' },
    });
    // 100 − 16 (2% bounces) − 10 (0.1% complaints) − 0 (1,000 sent) − 10 (new domain) = 64.
    expect(byName['acme.example']?.senderScore).toBe(64);
    expect(byName['mail.acme.example']).toMatchObject({ bounceRate: 0, spamRate: 0.5 });
    expect((await a.client.get(`/api/domains/${parent.id}`)).json()).toMatchObject({
      senderScore: 64,
      bounceRate: 2,
      spamRate: 0.1,
    });
    expect((await b.client.get(`/api/domains/${other.id}`)).json()).toMatchObject({ bounceRate: 5, spamRate: 0 });
  });

  it('counts the hard bounces and complaints of sequence mail toward its From domain’s reputation', async () => {
    const a = await signUpUser(t(), { email: `owner-${Date.now()}@own.example` });
    const b = await signUpUser(t());
    const acme = await addDomain(a.client, 'acme.example');
    const own = await addDomain(a.client, 'own.example');
    const db = t().ctx.db;
    const today = new Date().toISOString().slice(0, 10);
    await db.insert(domainDailySends).values([
      { domainId: acme.id, day: today, sent: 1000 },
      { domainId: own.id, day: today, sent: 1000 },
    ]);
    const start = { id: 'start', type: 'input' as const, position: { x: 400, y: 50 }, data: { label: 'Start' } };
    const sequence = async (userId: string, fromEmail: string | null) => {
      const [row] = await db
        .insert(emailSequences)
        .values({ userId, name: 'S', fromEmail, flowData: { nodes: [start], edges: [] } })
        .returning({ id: emailSequences.id });
      return row?.id ?? 0;
    };
    const fromAcme = await sequence(a.user.id, 'news@acme.example');
    // No From of its own: it sends as the account's address.
    const asAccount = await sequence(a.user.id, null);
    const fromB = await sequence(b.user.id, 'news@acme.example');
    const event = (userId: string, sequenceId: number, type: string, detail: string | null = null) => ({
      userId,
      sequenceId,
      type,
      detail,
    });
    await db.insert(emailEvents).values([
      // acme.example: 30 hard bounces and 2 complaints of sequence mail; a soft bounce does not count.
      ...Array.from({ length: 30 }, () => event(a.user.id, fromAcme, 'bounce', '550 no such user')),
      event(a.user.id, fromAcme, 'complaint'),
      event(a.user.id, fromAcme, 'complaint'),
      event(a.user.id, fromAcme, 'bounce', 'soft: mailbox full'),
      // own.example (the account's address): 10 hard bounces.
      ...Array.from({ length: 10 }, () => event(a.user.id, asAccount, 'bounce', null)),
      // Another user's sequence mail never counts for A.
      ...Array.from({ length: 50 }, () => event(b.user.id, fromB, 'bounce', null)),
    ]);
    const list = (await a.client.get('/api/domains')).json() as Domain[];
    const byName = Object.fromEntries(list.map((d) => [d.domain, d]));
    expect(byName['acme.example']).toMatchObject({ bounceRate: 3, spamRate: 0.2 });
    expect(byName['own.example']).toMatchObject({ bounceRate: 1, spamRate: 0 });
  });

  it('keeps each user to their own domains (404 on another user’s ids)', async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const domain = await addDomain(a.client, 'private.example');
    expect((await b.client.get('/api/domains')).json()).toEqual([]);
    expect((await b.client.get(`/api/domains/${domain.id}`)).statusCode).toBe(404);
    expect((await b.client.post(`/api/domains/${domain.id}/verify`)).statusCode).toBe(404);
    expect((await b.client.post(`/api/domains/${domain.id}/primary`)).statusCode).toBe(404);
    expect((await b.client.delete(`/api/domains/${domain.id}`)).statusCode).toBe(404);
    // The name is per user: B may add it too, and A's domain is untouched.
    expect((await addDomain(b.client, 'private.example')).isPrimary).toBe(true);
    expect((await a.client.get(`/api/domains/${domain.id}`)).json()).toMatchObject({ id: domain.id, isPrimary: true });
    // Signed out: 401 everywhere.
    const anonymous = t().client();
    expect((await anonymous.get('/api/domains')).statusCode).toBe(401);
    expect((await anonymous.post('/api/domains', { domain: 'x.example' })).statusCode).toBe(401);
    expect((await anonymous.get(`/api/domains/${domain.id}`)).statusCode).toBe(401);
    expect((await anonymous.post(`/api/domains/${domain.id}/verify`)).statusCode).toBe(401);
    expect((await anonymous.post(`/api/domains/${domain.id}/primary`)).statusCode).toBe(401);
    expect((await anonymous.delete(`/api/domains/${domain.id}`)).statusCode).toBe(401);
  });

  it('enforces the plan’s domain limit with a clear 403, and nothing is written', async () => {
    const starter = await signUpUser(t(), { plan: 'starter' });
    await addDomain(starter.client, 'one.example');
    const refused = await starter.client.post('/api/domains', { domain: 'two.example' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(
      'Your Starter plan allows 1 sending domain. Remove a domain or upgrade your plan to add another.',
    );
    expect((await starter.client.get('/api/domains')).json()).toHaveLength(1);

    // Concurrent adds cannot slip past the limit together.
    const pro = await signUpUser(t(), { plan: 'pro' });
    const results = await Promise.all(
      Array.from({ length: 7 }, (_, i) => pro.client.post('/api/domains', { domain: `d${i}.example` })),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(5);
    expect(results.filter((r) => r.statusCode === 403).map((r) => r.json().message)).toEqual([
      'Your Pro plan allows 5 sending domains. Remove a domain or upgrade your plan to add another.',
      'Your Pro plan allows 5 sending domains. Remove a domain or upgrade your plan to add another.',
    ]);

    // Enterprise has no limit (null in the catalogue).
    const enterprise = await signUpUser(t(), { plan: 'enterprise' });
    for (let i = 0; i < 6; i += 1) await addDomain(enterprise.client, `e${i}.example`);
  });

  it('a bad public suffix refused with 400: names nobody can register are never looked up', async () => {
    const { client } = await signUpUser(t());
    for (const name of ['intranet.corp', 'co.uk', 'github.io', 'printer.local']) {
      const response = await client.post('/api/domains', { domain: name });
      expect(response.statusCode, name).toBe(400);
      expect(response.json(), name).toEqual({
        message: NOT_A_REGISTRABLE_DOMAIN,
        fields: { domain: NOT_A_REGISTRABLE_DOMAIN },
      });
    }
    expect((await client.get('/api/domains')).json()).toEqual([]);
    // A name stored before the check came in is refused at verify, without a look-up.
    const added = await addDomain(client, 'legacy.example');
    await t().ctx.db.update(domains).set({ domain: 'legacy.corp' }).where(eq(domains.id, added.id));
    const refused = await client.post(`/api/domains/${added.id}/verify`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(NOT_A_REGISTRABLE_DOMAIN);
    const [row] = await t().ctx.db.select().from(domains).where(eq(domains.id, added.id));
    expect(row?.lastCheckedAt?.toISOString()).toBe(added.lastCheckedAt);
  });

  it('verify throttled per account (429): ten look-ups a minute, whichever of its domains', async () => {
    const a = await signUpUser(t());
    const first = await addDomain(a.client, 'throttled.example');
    const second = await addDomain(a.client, 'throttled-two.example');
    for (let i = 0; i < DOMAIN_VERIFY_LIMIT_PER_MINUTE; i += 1) await verify(a.client, i % 2 ? first.id : second.id);
    const refused = await a.client.post(`/api/domains/${first.id}/verify`);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many requests\. Please try again in \d+ seconds\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await a.client.post(`/api/domains/${second.id}/verify`)).statusCode).toBe(429);
    // Another account, even from the same address, has its own allowance.
    const b = await signUpUser(t());
    const theirs = await addDomain(b.client, 'throttled.example');
    await verify(b.client, theirs.id);
  });
});

describe('domain re-check job', () => {
  const t = useTestApp({ DNS_SERVERS: dns.server, SPF_INCLUDE });
  beforeEach(() => dns.clear());

  async function notifications(client: TestClient): Promise<NotificationList> {
    const response = await client.get('/api/notifications');
    expect(response.statusCode).toBe(200);
    return response.json() as NotificationList;
  }

  async function domainsChecked(app: TestApp, at: Date): Promise<number> {
    const result = await recheckDueDomains(app.ctx, at);
    return result.verified + result.pending + result.lost;
  }

  it('moves a verified domain whose records disappear back to pending and tells the user once', async () => {
    const { client } = await signUpUser(t());
    const domain = await addDomain(client, 'lost.example');
    publish(domain);
    expect((await verify(client, domain.id)).isVerified).toBe(true);
    expect((await notifications(client)).unreadCount).toBe(0);

    dns.remove(record(domain, 'dkim')?.host ?? '');
    const tomorrow = new Date(Date.now() + 25 * HOUR);
    await recheckDueDomains(t().ctx, tomorrow);
    const after = (await client.get(`/api/domains/${domain.id}`)).json() as Domain;
    expect(after).toMatchObject({ isVerified: false, verifiedAt: null, lastCheckedAt: tomorrow.toISOString() });
    expect(statuses(after)).toEqual({ spf: 'verified', dkim: 'missing', dmarc: 'verified' });

    const list = await notifications(client);
    expect(list.unreadCount).toBe(1);
    expect(list.notifications).toEqual([
      {
        id: expect.any(Number),
        title: 'lost.example is no longer verified',
        body: 'The DKIM record is missing or changed, so lost.example is pending again. Check your DNS settings.',
        link: '/domain-settings',
        readAt: null,
        createdAt: expect.any(String),
      },
    ]);

    // Running again (or twice at once) does not tell the user again.
    await Promise.all([
      recheckDueDomains(t().ctx, new Date(tomorrow.getTime() + 2 * HOUR)),
      recheckDueDomains(t().ctx, new Date(tomorrow.getTime() + 2 * HOUR)),
    ]);
    expect((await notifications(client)).unreadCount).toBe(1);

    // Records back: the job verifies it again and says so.
    publish(domain);
    await recheckDueDomains(t().ctx, new Date(tomorrow.getTime() + 4 * HOUR));
    expect(((await client.get(`/api/domains/${domain.id}`)).json() as Domain).isVerified).toBe(true);
    const again = await notifications(client);
    expect(again.unreadCount).toBe(2);
    expect(again.notifications[0]?.title).toBe('lost.example is verified');

    expect((await client.post('/api/notifications/read-all')).statusCode).toBe(204);
    const read = await notifications(client);
    expect(read.unreadCount).toBe(0);
    expect(read.notifications.every((n) => n.readAt !== null)).toBe(true);
  });

  it('checks pending domains every 15 minutes for 48 hours, then hourly; verified ones daily', async () => {
    const app = t();
    const { client } = await signUpUser(app);
    const pending = await addDomain(client, 'pending.example');
    const base = Date.parse(pending.lastCheckedAt ?? '');
    const at = (minutes: number) => new Date(base + minutes * 60 * 1000);
    await app.ctx.db
      .update(domains)
      .set({ lastCheckedAt: new Date(base) })
      .where(eq(domains.id, pending.id));
    const others = await app.ctx.db.select({ id: domains.id }).from(domains);
    // Park every other domain far in the future so only this one is due.
    for (const other of others) {
      if (other.id !== pending.id)
        await app.ctx.db
          .update(domains)
          .set({ lastCheckedAt: at(100_000) })
          .where(eq(domains.id, other.id));
    }

    expect(await domainsChecked(app, at(10))).toBe(0);
    expect(await domainsChecked(app, at(15))).toBe(1);
    expect(await domainsChecked(app, at(20))).toBe(0);
    expect(await domainsChecked(app, at(30))).toBe(1);
    // After 48 hours: hourly.
    const twoDays = 48 * 60;
    expect(await domainsChecked(app, at(twoDays + 1))).toBe(1);
    expect(await domainsChecked(app, at(twoDays + 16))).toBe(0);
    expect(await domainsChecked(app, at(twoDays + 46))).toBe(0);
    expect(await domainsChecked(app, at(twoDays + 61))).toBe(1);

    // Verified: daily.
    publish(pending);
    expect(await domainsChecked(app, at(twoDays + 121))).toBe(1);
    expect(((await client.get(`/api/domains/${pending.id}`)).json() as Domain).isVerified).toBe(true);
    expect(await domainsChecked(app, at(twoDays + 121 + 60))).toBe(0);
    expect(await domainsChecked(app, at(twoDays + 121 + 23 * 60))).toBe(0);
    expect(await domainsChecked(app, at(twoDays + 121 + 24 * 60))).toBe(1);
  });
});

describe('domain names without ALLOW_TEST_DOMAINS', () => {
  const t = useTestApp({ DNS_SERVERS: dns.server, SPF_INCLUDE, ALLOW_TEST_DOMAINS: 'false' });

  it('refuses the reserved test names like any other name off the public suffix list', async () => {
    const { client } = await signUpUser(t());
    for (const name of ['acme.example', 'brand.e2e.test']) {
      const response = await client.post('/api/domains', { domain: name });
      expect(response.statusCode, name).toBe(400);
      expect(response.json().fields).toEqual({ domain: NOT_A_REGISTRABLE_DOMAIN });
    }
  });
});
