import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error.ts';
import { alignedDomains } from './sender-auth.ts';
import { cleanHeaderControls, isDataException, withoutControls } from './content.ts';

const message = (head: string) => Buffer.from(`${head}\r\n\r\nBody \u0001 stays\r\n`, 'latin1');

describe('control characters in a header (issue 27, finding 5)', () => {
  it('refuses a NUL anywhere in the header, and a control in a field name', () => {
    expect(() => cleanHeaderControls(message('Subject: a\u0000b'))).toThrow(AppError);
    expect(() => cleanHeaderControls(message('Subject: ok\r\n X-Fold: \u0000'))).toThrow(AppError);
    expect(() => cleanHeaderControls(message('Sub\u0001ject: a'))).toThrow(AppError);
  });

  it('removes other C0 controls from field values and continuation lines; the body is untouched', () => {
    const cleaned = cleanHeaderControls(message('Subject: a\u0001b\u001fc\r\n\td\u007fe\r\nFrom: x@y.example'));
    expect(cleaned.toString('latin1')).toBe('Subject: abc\r\n\tde\r\nFrom: x@y.example\r\n\r\nBody \u0001 stays\r\n');
    const clean = message('Subject: plain');
    expect(cleanHeaderControls(clean)).toBe(clean);
    expect(withoutControls('a\u0000b\tc\u0007')).toBe('ab\tc');
  });

  it('tells a data exception (SQLSTATE class 22) from other database errors', () => {
    expect(isDataException(Object.assign(new Error('x'), { code: '22021' }))).toBe(true);
    expect(isDataException(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: '22P05' }) }))).toBe(
      true,
    );
    expect(isDataException(Object.assign(new Error('x'), { code: '23505' }))).toBe(false);
  });
});

describe('aligned domains (DMARC relaxed alignment)', () => {
  it('takes the same organizational domain, not a mere suffix', () => {
    expect(alignedDomains('mail.people.example', 'people.example')).toBe(true);
    expect(alignedDomains('people.example', 'people.example')).toBe(true);
    expect(alignedDomains('evil.example', 'people.example')).toBe(false);
    expect(alignedDomains('news.example.co.uk', 'shop.example.co.uk')).toBe(true);
    expect(alignedDomains('a.co.uk', 'b.co.uk')).toBe(false);
  });
});
