import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailAlias, ForwardingStats } from '@sendwell/contract/aliases';
import type { Domain } from '@sendwell/contract/domains';
import { followConfirmationLink, signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';
import { startTestDnsServer } from '../../../test/dns-server.ts';
import { runForwardJobs } from '../../../test/forward-jobs.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';

// Issue 34, finding 11: an alias shows its real state (Pending while its domain is unverified),
// and its tests are recorded apart from real mail in its analytics.

const dns = await startTestDnsServer();
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink.close();
  await dns.close();
});

function forwardingLinkTo(email: string): string {
  const text = sink.received.filter((m) => m.to.includes(email)).at(-1)?.parsed.text ?? '';
  const link = /https?:\/\/\S+\/confirm-forwarding\?token=\S+/.exec(text)?.[0];
  if (!link) throw new Error(`no forwarding confirmation link mailed to ${email}`);
  return link;
}

describe('alias state and test mail', () => {
  const t = useTestApp(() => ({ SMTP_URL: sink.url, DNS_SERVERS: dns.server, MAIL_FROM_DOMAIN: 'mail.sendwell.test' }));
  let client: TestClient;

  async function addDomain(name: string, verify: boolean): Promise<Domain> {
    const added = await client.post('/api/domains', { domain: name });
    expect(added.statusCode, added.body).toBe(201);
    const domain = added.json() as Domain;
    if (!verify) return domain;
    for (const record of domain.records) dns.setTxt(record.host, [record.value]);
    const verified = (await client.post(`/api/domains/${domain.id}/verify`)).json() as Domain;
    expect(verified.isVerified).toBe(true);
    return verified;
  }

  async function addAlias(domain: Domain, alias: string, destination: string): Promise<EmailAlias> {
    const created = await client.post(`/api/domains/${domain.id}/aliases`, { alias, destination });
    expect(created.statusCode, created.body).toBe(201);
    return created.json() as EmailAlias;
  }

  beforeAll(async () => {
    const user = await signUpUser(t());
    client = user.client;
  });

  it('reports an alias on an unverified domain as not verified, with a confirmed destination', async () => {
    const domain = await addDomain('unverified-alias.example', false);
    const alias = await addAlias(domain, 'hello', 'owner@dest34.example');
    expect((await followConfirmationLink(t().client(), forwardingLinkTo('owner@dest34.example'))).statusCode).toBe(200);
    const [listed] = (await client.get(`/api/domains/${domain.id}/aliases`)).json() as EmailAlias[];
    expect(listed).toMatchObject({ id: alias.id, isVerified: true, isActive: true, domainVerified: false });
  });

  it('counts a Test apart from real mail: the figures count only the real forward', async () => {
    const domain = await addDomain('verified-alias.example', true);
    const alias = await addAlias(domain, 'sales', 'boss@dest34.example');
    expect(alias.domainVerified).toBe(true);
    expect((await followConfirmationLink(t().client(), forwardingLinkTo('boss@dest34.example'))).statusCode).toBe(200);

    const tested = await client.post('/api/test-alias', { alias: alias.address, aliasId: alias.id });
    expect(tested.statusCode, tested.body).toBe(200);
    await runForwardJobs(t());
    let stats = (await client.get(`/api/forwarding-stats?aliasId=${alias.id}`)).json() as ForwardingStats;
    expect(stats).toMatchObject({ totalForwarded: 0, totalReceived: 0, successRate: null, totalTests: 1 });
    expect(stats.days.reduce((sum, day) => sum + day.received + day.forwarded, 0)).toBe(0);

    const raw = [
      'From: Alice <alice@sender34.example>',
      `To: ${alias.address}`,
      'Subject: A real question',
      `Message-ID: <real-${Date.now()}@sender34.example>`,
      'Date: Tue, 24 Nov 2026 10:00:00 +0000',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Hello.',
      '',
    ].join('\r\n');
    // Real mail arrives through the account's inbound webhook (a provider's forward of the raw message).
    const token = ((await client.get('/api/webhook/email-address')).json() as { token: string }).token;
    const received = await t()
      .client()
      .request({
        method: 'POST',
        url: '/api/webhook/email',
        headers: { 'content-type': 'message/rfc822', 'x-sendwell-token': token },
        payload: raw,
      });
    expect(received.statusCode, received.body).toBeLessThan(300);
    await runForwardJobs(t());
    stats = (await client.get(`/api/forwarding-stats?aliasId=${alias.id}`)).json() as ForwardingStats;
    expect(stats).toMatchObject({ totalForwarded: 1, totalReceived: 1, successRate: 100, totalTests: 1 });
  });

  it('keeps another account out of the figures', async () => {
    const other = await signUpUser(t());
    const stats = (await other.client.get('/api/forwarding-stats')).json() as ForwardingStats;
    expect(stats).toMatchObject({ totalForwarded: 0, totalTests: 0 });
  });
});
