import { generateKeyPairSync } from 'node:crypto';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { simpleParser } from 'mailparser';
import { buildRawMessage, quotedPrintable, signDkim } from './message.ts';

const base = {
  from: { name: 'Acme Shop', address: 'news@acme.example' },
  to: 'ada@example.com',
  replyTo: null,
  subject: 'Spring is here',
  html: '<p>Hello</p>',
  text: 'Hello',
  messageId: '<abc123@acme.example>',
  unsubscribeUrl: 'https://app.example/u/token',
  isTest: false,
};

/** Decodes quoted-printable back to a string, the way a mail client does. */
function decodeQp(encoded: string): string {
  const joined = encoded.replace(/=\r\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    if (joined[i] === '=') {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(joined.charCodeAt(i));
    }
  }
  return Buffer.from(bytes).toString('utf8').replace(/\r\n/g, '\n');
}

/** Every encoded line is at most 76 printable characters without trailing white space, and it decodes back. */
function expectValidQp(sample: string): void {
  const encoded = quotedPrintable(sample);
  for (const line of encoded.split('\r\n')) {
    expect(line.length).toBeLessThanOrEqual(76);
    expect(line).not.toMatch(/[ \t]$/);
    expect(line).toMatch(/^[\x21-\x7e \t]*$/);
  }
  expect(decodeQp(encoded)).toBe(sample.replace(/\r\n?/g, '\n'));
}

describe('quotedPrintable', () => {
  it('round-trips text with long lines, equals signs, UTF-8, emoji and trailing white space', () => {
    const samples = [
      '<td style="padding:16px;font-family:Arial">' + 'x'.repeat(200) + '</td>',
      'Café déjà vu — 10% off 🎉 for {{you}}',
      'ends with space \nand tab\t\nlast ',
      'a=b=c\r\nwindows\rline',
      'word '.repeat(60) + '\n' + 'ab \t'.repeat(40),
      '',
    ];
    for (const sample of samples) expectValidQp(sample);
  });

  it('round-trips any text made of the characters that need care', () => {
    const unit = fc.constantFrom(
      'a',
      'Z',
      ' ',
      '\t',
      '\n',
      '\r',
      '=',
      '.',
      'é',
      '—',
      '😀',
      '\u0000',
      '\u007f',
      '\ud800',
      'x'.repeat(90),
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 200 }), (sample) => {
        // A lone surrogate is encoded as U+FFFD, as Node's own UTF-8 encoder does.
        expectValidQp(Buffer.from(sample, 'utf8').toString('utf8'));
      }),
      { numRuns: 3000 },
    );
  });

  it('escapes = and never leaves a bare line feed', () => {
    expect(quotedPrintable('a=b')).toBe('a=3Db');
    expect(quotedPrintable('one\ntwo')).toBe('one\r\ntwo');
  });
});

describe('buildRawMessage', () => {
  it('parses back to the same sender, recipient, subject, text and HTML, with the bulk-mail headers', async () => {
    const html = `<p style="color:#333">Hi Zoë, ${'long '.repeat(40)}</p>`;
    const raw = buildRawMessage({ ...base, replyTo: 'help@acme.example', html, text: 'Hi Zoë' });
    const parsed = await simpleParser(raw);
    expect(parsed.from?.value).toEqual([{ name: 'Acme Shop', address: 'news@acme.example' }]);
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value[0]?.address : null).toBe('ada@example.com');
    expect(parsed.replyTo?.value[0]?.address).toBe('help@acme.example');
    expect(parsed.subject).toBe('Spring is here');
    expect(parsed.messageId).toBe('<abc123@acme.example>');
    expect(parsed.html).toBe(html);
    expect(parsed.text?.trim()).toBe('Hi Zoë');
    expect(String(raw)).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    // No mailto without an address we receive: a mailed unsubscribe nobody reads would be lost.
    expect(String(raw)).toMatch(/^List-Unsubscribe: <https:\/\/app\.example\/u\/token>$/m);
    const withMailto = buildRawMessage({ ...base, unsubscribeMailto: 'unsubscribe+s1-00ff@bounces.acme.example' });
    expect(String(withMailto)).toMatch(
      /^List-Unsubscribe: <https:\/\/app\.example\/u\/token>,\r\n <mailto:unsubscribe\+s1-00ff@bounces\.acme\.example\?subject=unsubscribe>$/m,
    );
    expect(parsed.date?.getTime()).toBeGreaterThan(Date.now() - 60_000);
    for (const line of raw.toString('utf8').split('\r\n')) expect(line.length).toBeLessThanOrEqual(998);
  });

  it('encodes non-ASCII names and subjects, folds long subjects, and marks tests', async () => {
    const subject = `Ünïcödé sale — ${'ends soon '.repeat(10)}🎉`;
    const raw = buildRawMessage({
      ...base,
      from: { name: 'Café "Zoë"', address: 'news@acme.example' },
      subject,
      isTest: true,
      unsubscribeUrl: null,
    });
    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe(`[Test] ${subject}`);
    expect(parsed.from?.value[0]?.name).toBe('Café "Zoë"');
    expect(parsed.headers.get('x-sendwell-test')).toBe('yes');
    expect(parsed.headers.has('list-unsubscribe')).toBe(false);
    const asciiLong = buildRawMessage({ ...base, subject: `Plain ${'word '.repeat(40)}end` });
    expect((await simpleParser(asciiLong)).subject).toBe(`Plain ${'word '.repeat(40)}end`);
    const headerBlock = asciiLong.toString().split('\r\n\r\n')[0] ?? '';
    for (const line of headerBlock.split('\r\n')) expect(line.length).toBeLessThanOrEqual(78);
  });

  it('cannot be made to add headers through a line break in a value', async () => {
    const raw = buildRawMessage({
      ...base,
      from: { name: 'Evil\r\nBcc: victim@example.com', address: 'news@acme.example' },
      subject: 'Hi\r\nBcc: x@example.com',
    });
    const parsed = await simpleParser(raw);
    expect(parsed.headers.has('bcc')).toBe(false);
    expect(parsed.bcc).toBeUndefined();
  });
});

describe('signDkim', () => {
  it('signs the t= it writes, also when the clock crosses a half second while signing', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const key = {
      domainName: 'acme.example',
      keySelector: 'sw1',
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    };
    const record = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
    // Each reading of the clock is 0.7 s later than the one before: mailauth, left to read it
    // itself, rounded two readings to different seconds and signed a t= other than the one it wrote.
    let readings = 0;
    const start = Date.now();
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => start + 700 * readings++);
    let signed: Buffer;
    try {
      signed = await signDkim(buildRawMessage(base), key);
    } finally {
      clock.mockRestore();
    }
    const result = await dkimVerify(signed, {
      resolver: async (name: string, type: string) => {
        if (type === 'TXT' && name === 'sw1._domainkey.acme.example') return [[record]];
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      },
    });
    expect(result.results[0]?.status.result, JSON.stringify(result.results[0]?.status)).toBe('pass');
  });
});
