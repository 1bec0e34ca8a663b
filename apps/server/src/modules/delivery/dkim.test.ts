import { generateKeyPairSync } from 'node:crypto';
import { dkimSign } from 'mailauth/lib/dkim/sign.js';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { describe, expect, it } from 'vitest';
import { dkimSignatureField, relaxedBody, relaxedHeader } from './dkim.ts';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ed = generateKeyPairSync('ed25519');
const SELECTOR = 'sw1';
const DOMAIN = 'acme.example';
const records = {
  rsa: `v=DKIM1; k=rsa; p=${rsa.publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`,
  // RFC 8463: the bare 32-byte public key.
  ed25519: `v=DKIM1; k=ed25519; p=${ed.publicKey.export({ type: 'spki', format: 'der' }).subarray(-32).toString('base64')}`,
} as const;
const pem = {
  rsa: rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  ed25519: ed.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
};
const HEADERS = ['From', 'To', 'Subject', 'Date', 'Message-ID', 'Reply-To', 'MIME-Version', 'Content-Type'];

async function verify(signed: Buffer, kind: 'rsa' | 'ed25519') {
  const result = await dkimVerify(signed, {
    resolver: async (name: string, type: string) => {
      if (type === 'TXT' && name === `${SELECTOR}._domainkey.${DOMAIN}`) return [[records[kind]]];
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    },
  });
  return result.results[0];
}

function signWith(raw: Buffer, kind: 'rsa' | 'ed25519' = 'rsa'): Buffer {
  const field = dkimSignatureField(raw, {
    domainName: DOMAIN,
    keySelector: SELECTOR,
    privateKey: pem[kind],
    headerNames: HEADERS,
    signTime: new Date(),
  });
  return Buffer.concat([Buffer.from(field, 'latin1'), raw]);
}

/** mailauth's body hash for the same message (relaxed, sha256): ours must be the same. */
async function mailauthBodyHash(raw: Buffer): Promise<string | undefined> {
  const signature = {
    signingDomain: DOMAIN,
    selector: SELECTOR,
    privateKey: pem.rsa,
    canonicalization: 'relaxed/relaxed',
  };
  const result = await dkimSign(raw, { ...signature, signatureData: [signature] });
  return /bh=([^;]+)/.exec(result.signatures.replace(/\s+/g, ''))?.[1];
}

const head = [
  'From: "Alice Example" <alice@acme.example>',
  'To: bob@example.com',
  'Subject: Caf\u00e9 \t  menu',
  'Date: Tue, 24 Nov 2026 10:00:00 +0000',
  'Message-ID: <m1@acme.example>',
  'MIME-Version: 1.0',
  'Content-Type: text/plain; charset=utf-8',
];
const messages: Record<string, string> = {
  plain: [...head, '', 'Hello Bob,', '', 'See you.', ''].join('\r\n'),
  'whitespace runs, trailing whitespace and trailing empty lines': [
    ...head,
    '',
    'a  b\t\tc   ',
    ' \t',
    'd \t',
    '',
    '',
    '  ',
    '',
  ].join('\r\n'),
  'no line end after the last line': [...head, '', 'last line  '].join('\r\n'),
  'an empty body': [...head, '', ''].join('\r\n'),
  'a body of empty lines only': [...head, '', '', '', ''].join('\r\n'),
  'bare LF line ends': [...head, '', 'one', 'two  ', '', ''].join('\n'),
  'folded and repeated header fields': [
    'From: alice@acme.example',
    'To: bob@example.com,',
    '\tcarol@example.com',
    'Subject:   a folded',
    '   subject  ',
    'To: dave@example.com',
    'X-Not-Signed: yes',
    '',
    'body',
    '',
  ].join('\r\n'),
  '8-bit bytes': [...head, '', 'gr\u00fc\u00dfe \u2014 \u{1F600}', ''].join('\r\n'),
};

describe('DKIM signing', () => {
  for (const [name, text] of Object.entries(messages)) {
    it(`signs so that mailauth verifies it, with mailauth's body hash: ${name}`, async () => {
      const raw = Buffer.from(text, 'utf8');
      const signed = signWith(raw);
      const result = await verify(signed, 'rsa');
      expect(result?.status.result, JSON.stringify(result?.status)).toBe('pass');
      const ours = /bh=([^;]+)/.exec(signed.toString('latin1').split('\r\n\r\n')[0]?.replace(/\s+/g, '') ?? '')?.[1];
      expect(ours).toBe(await mailauthBodyHash(raw));
    });
  }

  it('signs with an Ed25519 key (ed25519-sha256)', async () => {
    const signed = signWith(Buffer.from(messages.plain as string), 'ed25519');
    expect(signed.toString('latin1')).toContain('a=ed25519-sha256');
    const result = await verify(signed, 'ed25519');
    expect(result?.status.result, JSON.stringify(result?.status)).toBe('pass');
  });

  it('names each signed field once per instance, the last first, and only fields the message has', () => {
    const field = dkimSignatureField(Buffer.from(messages['folded and repeated header fields'] as string), {
      domainName: DOMAIN,
      keySelector: SELECTOR,
      privateKey: pem.rsa,
      headerNames: HEADERS,
      signTime: new Date(),
    });
    expect(/h=([^;]+);/.exec(field)?.[1]).toBe('To:Subject:To:From');
    expect(field.split('\r\n').every((line) => line.length <= 100)).toBe(true);
  });

  it('a changed body or signed field no longer verifies', async () => {
    const signed = signWith(Buffer.from(messages.plain as string)).toString('latin1');
    const changedBody = await verify(Buffer.from(signed.replace('See you.', 'See you!'), 'latin1'), 'rsa');
    expect(changedBody?.status.result).not.toBe('pass');
    const changedField = await verify(Buffer.from(signed.replace('To: bob@', 'To: eve@'), 'latin1'), 'rsa');
    expect(changedField?.status.result).toBe('fail');
  });

  it('canonicalizes as RFC 6376 §3.4.2 and §3.4.4 show', () => {
    expect(relaxedHeader('SUBJect \t:  Hello\r\n\t  World  ')).toBe('subject:Hello World');
    expect(relaxedBody(' C \r\nD \t E\r\n\r\n\r\n')).toBe(' C\r\nD E\r\n');
    expect(relaxedBody('')).toBe('');
  });
});
