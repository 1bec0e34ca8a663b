import { afterAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import type { Domain } from '@sendwell/contract/domains';
import { domainDailySends, domains } from '../../db/schema/index.ts';
import { dnsResolver } from '../../lib/dns.ts';
import { signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';
import { startTestDnsServer } from '../../../test/dns-server.ts';
import { dkimSigningKeyFor, releaseDailySends, reserveDailySends } from './domains.sending.ts';

const dns = await startTestDnsServer();
afterAll(() => dns.close());

async function addVerifiedDomain(client: TestClient, name: string): Promise<Domain> {
  const added = await client.post('/api/domains', { domain: name });
  expect(added.statusCode, added.body).toBe(201);
  const domain = added.json() as Domain;
  for (const record of domain.records) dns.setTxt(record.host, [record.value]);
  const verified = (await client.post(`/api/domains/${domain.id}/verify`)).json() as Domain;
  expect(verified.isVerified).toBe(true);
  return verified;
}

describe('what the delivery engine uses', () => {
  const t = useTestApp({ DNS_SERVERS: dns.server });

  it('signs a message with the generated key so that it verifies against the published DKIM record', async () => {
    const { client, user } = await signUpUser(t());
    const domain = await addVerifiedDomain(client, 'signed.example');
    const { db, config } = t().ctx;

    const key = await dkimSigningKeyFor(db, config, user.id, 'signed.example');
    expect(key).toMatchObject({ domainName: 'signed.example', keySelector: domain.dkimSelector });
    expect(key?.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----/);

    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    const sent = await transport.sendMail({
      from: 'Ada <hello@news.signed.example>',
      to: 'reader@example.net',
      subject: 'Signed with the domain’s own key',
      text: 'Hello from a verified sending domain.',
      dkim: (await dkimSigningKeyFor(db, config, user.id, 'news.signed.example')) ?? undefined,
    });
    const message = sent.message as Buffer;
    expect(message.toString()).toMatch(/^DKIM-Signature: .*d=signed\.example/m);

    // mailauth looks the key up through the app's resolver, i.e. in the local DNS server's published record.
    const resolver = dnsResolver([dns.server]);
    const result = await dkimVerify(message, { resolver: (name: string) => resolver.resolveTxtRaw(name) });
    const [signature] = result.results;
    expect(signature?.status.result, JSON.stringify(signature?.status)).toBe('pass');
    expect(signature?.signingDomain).toBe('signed.example');
    expect(signature?.selector).toBe(domain.dkimSelector);

    // A different key published under the selector makes the same message fail.
    const dkimHost = `${domain.dkimSelector}._domainkey.signed.example`;
    const other = await addVerifiedDomain(client, 'other.example');
    dns.setTxt(dkimHost, [other.dkimRecord]);
    const tampered = await dkimVerify(message, { resolver: (name: string) => resolver.resolveTxtRaw(name) });
    expect(tampered.results[0]?.status.result).toBe('fail');
  });

  it('gives a key only for the user’s own domain whose DKIM record is verified', async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const { db, config } = t().ctx;
    await addVerifiedDomain(a.client, 'mine.example');
    const pending = ((await a.client.post('/api/domains', { domain: 'pending.example' })).json() as Domain).domain;
    expect(await dkimSigningKeyFor(db, config, a.user.id, 'MINE.example')).toMatchObject({
      domainName: 'mine.example',
    });
    expect(await dkimSigningKeyFor(db, config, a.user.id, 'deep.sub.mine.example')).toMatchObject({
      domainName: 'mine.example',
    });
    expect(await dkimSigningKeyFor(db, config, a.user.id, 'notmine.example')).toBeNull();
    expect(await dkimSigningKeyFor(db, config, a.user.id, pending)).toBeNull();
    expect(await dkimSigningKeyFor(db, config, b.user.id, 'mine.example')).toBeNull();
  });

  it('grants sends up to the day’s warming cap, defers the rest to the next UTC day, and never overshoots under concurrency', async () => {
    const { client } = await signUpUser(t());
    const domain = await addVerifiedDomain(client, 'warm.example');
    const { db } = t().ctx;
    const startedAt = new Date(domain.warming.startedAt ?? '');
    const day0 = new Date(Date.UTC(startedAt.getUTCFullYear(), startedAt.getUTCMonth(), startedAt.getUTCDate(), 15));
    const dayN = (n: number) => new Date(day0.getTime() + n * 24 * 60 * 60 * 1000);

    // Week 1: 1,000 a day.
    expect(await reserveDailySends(db, domain.id, 600, day0)).toMatchObject({
      granted: 600,
      dailyLimit: 1000,
      sentToday: 600,
      resumesAt: null,
    });
    const capped = await reserveDailySends(db, domain.id, 600, day0);
    expect(capped).toMatchObject({ granted: 400, dailyLimit: 1000, sentToday: 1000 });
    expect(capped.resumesAt?.toISOString()).toBe(
      new Date(Date.UTC(day0.getUTCFullYear(), day0.getUTCMonth(), day0.getUTCDate() + 1)).toISOString(),
    );
    expect((await reserveDailySends(db, domain.id, 1, day0)).granted).toBe(0);

    // Sends that did not go out are handed back.
    await releaseDailySends(db, domain.id, 50, capped.day);
    expect((await reserveDailySends(db, domain.id, 80, day0)).granted).toBe(50);

    // The next day starts from zero; in week 2 the cap is 2,500.
    expect((await reserveDailySends(db, domain.id, 5000, dayN(1))).granted).toBe(1000);
    expect((await reserveDailySends(db, domain.id, 5000, dayN(8))).granted).toBe(2500);

    // Concurrent workers share the cap exactly (week 3: 5,000).
    const grants = await Promise.all(
      Array.from({ length: 12 }, () => db.transaction((tx) => reserveDailySends(tx, domain.id, 700, dayN(15)))),
    );
    expect(grants.reduce((sum, r) => sum + r.granted, 0)).toBe(5000);
    const [row] = await db
      .select()
      .from(domainDailySends)
      .where(
        and(eq(domainDailySends.domainId, domain.id), eq(domainDailySends.day, dayN(15).toISOString().slice(0, 10))),
      );
    expect(row?.sent).toBe(5000);

    // Week 4: 10,000; after 28 days no warming cap.
    expect((await reserveDailySends(db, domain.id, 20_000, dayN(22))).granted).toBe(10_000);
    expect(await reserveDailySends(db, domain.id, 20_000, dayN(28))).toMatchObject({
      granted: 20_000,
      dailyLimit: null,
      resumesAt: null,
    });
  });

  it('shows today’s sends, the remaining allowance and a computed score once the domain has sent', async () => {
    const { client } = await signUpUser(t());
    const domain = await addVerifiedDomain(client, 'shown.example');
    const { db } = t().ctx;
    await reserveDailySends(db, domain.id, 250);
    const shown = (await client.get(`/api/domains/${domain.id}`)).json() as Domain;
    expect(shown.warming).toMatchObject({
      status: 'warming',
      week: 1,
      dailyLimit: 1000,
      sentToday: 250,
      remainingToday: 750,
    });
    expect(shown.reputation).toMatchObject({ sentLast30Days: 250, domainAgeDays: 0, label: 'Excellent' });
    // 250 sent, no bounces or complaints recorded, a new domain: 100 − 2 (volume) − 10 (age).
    expect(shown).toMatchObject({ senderScore: 88, bounceRate: 0, spamRate: 0 });

    // An unverified domain is held to the first week's cap and its clock has not started.
    await db.update(domains).set({ warmingStartedAt: null }).where(eq(domains.id, domain.id));
    expect(await reserveDailySends(db, domain.id, 1000)).toMatchObject({ granted: 750, dailyLimit: 1000 });
  });
});
