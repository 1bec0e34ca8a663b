import { describe, expect, it } from 'vitest';
import {
  BARE_DOMAIN_ONLY,
  bareDomain,
  createDomainBodySchema,
  DOMAIN_REQUIRED,
  INVALID_DOMAIN,
  isHostname,
} from './domains.ts';

const messageOf = (domain: unknown) => {
  const result = createDomainBodySchema.safeParse({ domain });
  return result.success ? result.data.domain : `error: ${result.error.issues.map((i) => i.message).join(' | ')}`;
};

describe('domain input (spec §5 Domain)', () => {
  it('normalises a bare domain', () => {
    expect(messageOf('  Example.COM ')).toBe('example.com');
    expect(messageOf('mail.example.co.uk.')).toBe('mail.example.co.uk');
    expect(messageOf('bücher.de')).toBe('xn--bcher-kva.de');
    expect(messageOf('my-shop.io')).toBe('my-shop.io');
  });

  it('answers exactly one message per problem', () => {
    expect(messageOf(undefined)).toBe(`error: ${DOMAIN_REQUIRED}`);
    expect(messageOf('')).toBe(`error: ${DOMAIN_REQUIRED}`);
    expect(messageOf('www.example.com')).toBe(`error: ${BARE_DOMAIN_ONLY}`);
    expect(messageOf('http://example.com')).toBe(`error: ${BARE_DOMAIN_ONLY}`);
    expect(messageOf('https://www.example.com/path')).toBe(`error: ${BARE_DOMAIN_ONLY}`);
    for (const bad of [
      'example',
      'example..com',
      'exa_mple.com',
      'example.com/x',
      'a@b.com',
      'example.-com',
      '10.0.0.1',
      'example.123',
    ]) {
      expect(messageOf(bad), bad).toBe(`error: ${INVALID_DOMAIN}`);
    }
  });

  it('limits labels to 63 and names to 253 characters', () => {
    expect(isHostname(`${'a'.repeat(63)}.com`)).toBe(true);
    expect(isHostname(`${'a'.repeat(64)}.com`)).toBe(false);
    expect(isHostname(`${'abcdefghi.'.repeat(25)}com`)).toBe(true);
    expect(isHostname(`${'abcdefghi.'.repeat(25)}info`)).toBe(false);
  });
});

// First-hour finding 10: a pasted https://www.example.com was refused instead of cleaned up.
describe('a pasted domain', () => {
  it('is cut down to the bare domain', () => {
    expect(bareDomain('https://www.example.com')).toBe('example.com');
    expect(bareDomain('  HTTP://WWW.Example.COM/pricing?x=1#top ')).toBe('example.com');
    expect(bareDomain('news.example.co.uk/')).toBe('news.example.co.uk');
    expect(bareDomain('example.com:443')).toBe('example.com');
    expect(bareDomain('//mail.example.com')).toBe('mail.example.com');
    expect(bareDomain('example.com')).toBe('example.com');
    expect(createDomainBodySchema.safeParse({ domain: bareDomain('https://www.example.com/') }).success).toBe(true);
  });
});
