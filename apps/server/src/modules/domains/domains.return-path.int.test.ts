import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Domain } from '@sendwell/contract/domains';
import { signUpUser, useTestApp } from '../../../test/build-app.ts';
import { startTestDnsServer } from '../../../test/dns-server.ts';
import { sentCampaign } from '../../../test/sent-campaign.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { handleBounceMessage } from '../bounces/index.ts';

const dns = await startTestDnsServer();
afterAll(() => dns.close());
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());

const MX_HOST = 'mx.sendwell.test';
const BOUNCE_DOMAIN = 'bounces.sendwell.test';

describe('the return path record bounces.<domain>', () => {
  const t = useTestApp(() => ({
    DNS_SERVERS: dns.server,
    SMTP_URL: sink.url,
    BOUNCE_DOMAIN,
    INBOUND_MX_HOST: MX_HOST,
  }));

  it('asks for MX and SPF at bounces.<domain>, checks them live, and once both verify, campaign return paths use that host', async () => {
    const { client } = await signUpUser(t());
    const added = (await client.post('/api/domains', { domain: 'acme.example' })).json() as Domain;
    expect(added.returnPathRecords).toEqual([
      expect.objectContaining({
        kind: 'bounce-mx',
        type: 'MX',
        priority: 10,
        host: 'bounces.acme.example',
        value: MX_HOST,
        status: 'missing',
      }),
      expect.objectContaining({
        kind: 'bounce-spf',
        type: 'TXT',
        host: 'bounces.acme.example',
        value: added.spfRecord,
        status: 'missing',
      }),
    ]);
    for (const record of added.records) dns.setTxt(record.host, [record.value]);
    let checked = (await client.post(`/api/domains/${added.id}/verify`)).json() as Domain;
    expect(checked.isVerified).toBe(true);
    expect(checked.returnPathVerified).toBe(false);

    // Not published: VERP return paths go to BOUNCE_DOMAIN.
    let before = sink.received.length;
    await sentCampaign(t(), client, 'Before', 1);
    expect(sink.received.slice(before).map((m) => m.from)).toEqual([
      expect.stringMatching(/@bounces\.sendwell\.test$/),
    ]);

    // An MX somewhere else is wrong, with what was found.
    dns.setMx('bounces.acme.example', [{ exchange: 'mx.elsewhere.example', priority: 5 }]);
    dns.setTxt('bounces.acme.example', [added.spfRecord]);
    checked = (await client.post(`/api/domains/${added.id}/verify`)).json() as Domain;
    expect(checked.returnPathRecords.map((r) => [r.kind, r.status, r.found])).toEqual([
      ['bounce-mx', 'wrong', '5 mx.elsewhere.example'],
      ['bounce-spf', 'verified', null],
    ]);
    expect(checked.returnPathVerified).toBe(false);
    expect(checked.isVerified).toBe(true);

    dns.setMx('bounces.acme.example', [{ exchange: `${MX_HOST}.`, priority: 10 }]);
    checked = (await client.post(`/api/domains/${added.id}/verify`)).json() as Domain;
    expect(checked.returnPathRecords.map((r) => r.status)).toEqual(['verified', 'verified']);
    expect(checked.returnPathVerified).toBe(true);

    before = sink.received.length;
    const { sends } = await sentCampaign(t(), client, 'After', 1);
    const [message] = sink.received.slice(before);
    // Relaxed SPF alignment: bounces.acme.example is within acme.example, the From domain; DKIM signs as acme.example.
    expect(message?.from).toMatch(/^bounces\+s[0-9a-z]+-[0-9a-f]{16}@bounces\.acme\.example$/);
    expect(message?.raw).toMatch(/^DKIM-Signature: .*d=acme\.example/m);

    // A bounce to that return path comes back to its send row.
    const verdict = await handleBounceMessage(t().ctx, {
      envelopeTo: message?.from ?? '',
      raw: Buffer.from(
        [
          'From: MAILER-DAEMON@x.io',
          `To: ${message?.from ?? ''}`,
          'Subject: failure notice',
          '',
          `<${sends[0]?.email ?? ''}>:`,
          'Sorry, no mailbox here by that name. (#5.1.1)',
          '',
        ].join('\r\n'),
      ),
    });
    expect(verdict).toMatchObject({ kind: 'bounce', hard: true, matched: true });

    // Records taken down: the domain stays verified for sending, its return path does not.
    dns.remove('bounces.acme.example');
    checked = (await client.post(`/api/domains/${added.id}/verify`)).json() as Domain;
    expect(checked.returnPathVerified).toBe(false);
    expect(checked.isVerified).toBe(true);
  });
});
