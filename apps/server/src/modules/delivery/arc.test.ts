import { generateKeyPairSync } from 'node:crypto';
import { authenticate } from 'mailauth';
import { describe, expect, it } from 'vitest';
import { withArcSeal, type ArcSealInput } from './arc.ts';
import { rewriteHeaders } from './forward.ts';
import { signDkim } from './message.ts';
import type { DkimKey } from './transactional.ts';

function keyFor(domainName: string): { key: DkimKey; record: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const spki = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  return {
    key: { domainName, keySelector: 'sw1', privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() },
    record: `v=DKIM1; k=rsa; p=${spki}`,
  };
}

const sender = keyFor('sender.example');
const alias = keyFor('alias.example');
const relay = keyFor('relay.example');
const txt = new Map<string, string>([
  ['sw1._domainkey.sender.example', sender.record],
  ['sw1._domainkey.alias.example', alias.record],
  ['sw1._domainkey.relay.example', relay.record],
  ['sender.example', 'v=spf1 ip4:198.51.100.7 -all'],
  ['_dmarc.sender.example', 'v=DMARC1; p=reject'],
]);

/** A DNS of the records above only, answering "not found" for anything else. */
async function resolver(name: string, type: string): Promise<string[][]> {
  const record = type === 'TXT' ? txt.get(name.toLowerCase()) : undefined;
  if (record === undefined) throw Object.assign(new Error(`${name} ${type} not found`), { code: 'ENOTFOUND' });
  return [[record]];
}

async function originalMessage(): Promise<Buffer> {
  const raw = Buffer.from(
    [
      'From: Ana <ana@sender.example>',
      'To: hello@alias.example',
      'Subject: Lunch on Friday?',
      'Date: Sun, 29 Nov 2026 10:00:00 +0000',
      'Message-ID: <lunch-1@sender.example>',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Are you free at noon?',
      '',
    ].join('\r\n'),
  );
  return signDkim(raw, sender.key);
}

const sealInput = (overrides: Partial<ArcSealInput> = {}): ArcSealInput => ({
  key: alias.key,
  authServId: 'mx.sendwell.test',
  mailFrom: 'ana@sender.example',
  smtp: { ip: '198.51.100.7', helo: 'mail.sender.example' },
  resolver,
  ...overrides,
});

/** What the next hop sees: our forward of `sealed`, DKIM-signed by the alias domain as the forwarder does. */
async function receivedAtNextHop(sealed: Buffer) {
  return authenticate(await signDkim(sealed, alias.key), {
    ip: '192.0.2.25',
    helo: 'mx.sendwell.test',
    sender: 'SRS0=abcd=XY=sender.example=ana@alias.example',
    mta: 'mx.gmail.test',
    resolver,
  });
}

describe('ARC seals on forwards', () => {
  it("a forward with our trace headers verifies as arc=pass, the sender's DKIM intact, SPF and DMARC of the original recorded", async () => {
    const original = await originalMessage();
    const outgoing = rewriteHeaders(original, [
      'X-Forwarded-To: bo@elsewhere.example',
      'Resent-From: <hello@alias.example>',
    ]);
    const sealed = await withArcSeal(original, outgoing, sealInput());
    expect(sealed.toString('latin1')).toMatch(/^ARC-Seal: i=1; /);

    const result = await receivedAtNextHop(sealed);
    expect(result.arc && result.arc.status.result).toBe('pass');
    expect(result.arc && result.arc.i).toBe(1);
    const dkim = result.dkim.results.map((entry) => [entry.signingDomain, entry.status.result]);
    expect(dkim).toContainEqual(['sender.example', 'pass']);
    expect(dkim).toContainEqual(['alias.example', 'pass']);
    // The next hop's own SPF check fails (we are not sender.example's server): ARC carries the original's pass.
    const recorded = sealed.toString('latin1').match(/ARC-Authentication-Results: i=1; ([^]*?)\r\n(?=\S)/)?.[1] ?? '';
    expect(recorded).toMatch(/^mx\.sendwell\.test;/);
    expect(recorded).toMatch(/spf=pass/);
    expect(recorded).toMatch(/dkim=pass header\.i=@sender\.example/);
    expect(recorded).toMatch(/dmarc=pass/);
  });

  it('a message that came through the webhook (no SMTP client) is sealed with its DKIM result and SPF none', async () => {
    const original = await originalMessage();
    const sealed = await withArcSeal(original, original, sealInput({ smtp: null }));
    const result = await receivedAtNextHop(sealed);
    expect(result.arc && result.arc.status.result).toBe('pass');
    expect(sealed.toString('latin1')).toMatch(/ARC-Authentication-Results: i=1; mx\.sendwell\.test;[^]*dkim=pass/);
  });

  it('a message already sealed by a relay gets the next instance, and the chain passes', async () => {
    const first = await withArcSeal(await originalMessage(), await originalMessage(), {
      ...sealInput(),
      key: relay.key,
      authServId: 'mx.relay.example',
    });
    const sealed = await withArcSeal(
      first,
      first,
      sealInput({ smtp: { ip: '203.0.113.9', helo: 'mx.relay.example' } }),
    );
    expect(sealed.toString('latin1')).toMatch(/^ARC-Seal: i=2; /);
    const result = await receivedAtNextHop(sealed);
    expect(result.arc && result.arc.status.result).toBe('pass');
    expect(result.arc && result.arc.i).toBe(2);
  });

  it('a message whose chain is broken goes on unsealed', async () => {
    const first = await withArcSeal(await originalMessage(), await originalMessage(), {
      ...sealInput(),
      key: relay.key,
      authServId: 'mx.relay.example',
    });
    // The relay's signed ARC-Authentication-Results altered after sealing: the seal no longer verifies.
    const tampered = Buffer.from(first.toString('latin1').replace('spf=pass', 'spf=fail'), 'latin1');
    const sealed = await withArcSeal(tampered, tampered, sealInput());
    expect(sealed.equals(tampered)).toBe(true);
  });
});
