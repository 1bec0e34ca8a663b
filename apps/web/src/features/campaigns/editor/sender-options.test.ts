import { describe, expect, it } from 'vitest';

import { aliasNames, defaultSender, isVerifiedSender, senderDomain, senderOptions } from './sender-options';

const domains = [
  { domain: 'acme.com', isVerified: true },
  { domain: 'other.io', isVerified: false },
];

describe('senderOptions (spec §2/§9)', () => {
  it('forms the first domain’s aliases as alias@domain', () => {
    expect(senderOptions({ domains, aliases: ['hello', 'Team'], userEmail: 'me@gmail.com' })).toEqual([
      'hello@acme.com',
      'team@acme.com',
    ]);
  });

  it('falls back to marketing, support and newsletter at the first domain', () => {
    expect(senderOptions({ domains, aliases: undefined, userEmail: 'me@gmail.com' })).toEqual([
      'marketing@acme.com',
      'support@acme.com',
      'newsletter@acme.com',
    ]);
    expect(senderOptions({ domains, aliases: [], userEmail: 'me@gmail.com' })[0]).toBe('marketing@acme.com');
  });

  it('uses the domain of the user’s email when there is no domain', () => {
    expect(senderDomain([], 'Ada@Example.org')).toBe('example.org');
    expect(senderOptions({ domains: [], aliases: ['x'], userEmail: 'ada@example.org' })).toEqual([
      'marketing@example.org',
      'support@example.org',
      'newsletter@example.org',
    ]);
  });

  it('keeps a saved sender that is no longer offered', () => {
    expect(senderOptions({ domains, aliases: undefined, userEmail: 'me@x.com', keep: 'Old@Before.com' })[0]).toBe(
      'old@before.com',
    );
    expect(
      senderOptions({ domains, aliases: undefined, userEmail: 'me@x.com', keep: 'support@acme.com' }),
    ).toHaveLength(3);
  });

  it('defaults to marketing', () => {
    expect(defaultSender(['support@a.com', 'marketing@a.com'])).toBe('marketing@a.com');
    expect(defaultSender(['hello@a.com'])).toBe('hello@a.com');
    expect(defaultSender([])).toBe('');
  });
});

describe('isVerifiedSender', () => {
  it('is true only at a verified domain or its subdomain', () => {
    expect(isVerifiedSender('marketing@acme.com', domains)).toBe(true);
    expect(isVerifiedSender('news@mail.acme.com', domains)).toBe(true);
    expect(isVerifiedSender('x@other.io', domains)).toBe(false);
    expect(isVerifiedSender('x@notacme.com', domains)).toBe(false);
    expect(isVerifiedSender('x@gmail.com', undefined)).toBe(false);
  });
});

describe('aliasNames', () => {
  it('reads {alias} objects or strings and ignores anything else', () => {
    expect(aliasNames([{ alias: 'sales' }, 'info', { name: 'x' }, 3])).toEqual(['sales', 'info']);
    expect(aliasNames({ message: 'Not found' })).toEqual([]);
  });
});
