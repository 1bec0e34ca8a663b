import { describe, expect, it } from 'vitest';
import type { SenderOverview } from '@sendwell/contract/sender-addresses';

import { activeAliasNames, defaultSender, hasProvenSender, senderChoices, senderStanding } from './sender-options';

const address = (id: number, email: string, status: 'pending' | 'confirmed') => ({
  id,
  email,
  status,
  createdAt: '2026-01-01T00:00:00Z',
  confirmedAt: status === 'confirmed' ? '2026-01-01T00:00:00Z' : null,
  confirmationSentAt: '2026-01-01T00:00:00Z',
});

const overview: SenderOverview = {
  accountEmail: { email: 'ada@gmail.com', confirmed: true },
  verifiedDomains: ['acme.com', 'shop.io'],
  addresses: [address(1, 'press@partner.org', 'confirmed'), address(2, 'ceo@bank.example', 'pending')],
};

describe('senderChoices: exactly the addresses the account may send from', () => {
  it('offers each verified domain’s default names, the account’s own address and its confirmed sender addresses', () => {
    expect(senderChoices({ overview, aliasesByDomain: {} })).toEqual([
      { address: 'marketing@acme.com', kind: 'domain' },
      { address: 'support@acme.com', kind: 'domain' },
      { address: 'newsletter@acme.com', kind: 'domain' },
      { address: 'marketing@shop.io', kind: 'domain' },
      { address: 'support@shop.io', kind: 'domain' },
      { address: 'newsletter@shop.io', kind: 'domain' },
      { address: 'ada@gmail.com', kind: 'address' },
      { address: 'press@partner.org', kind: 'address' },
    ]);
  });

  it('forms each verified domain’s active aliases as alias@domain (spec §2), defaults where it has none', () => {
    const choices = senderChoices({ overview, aliasesByDomain: { 'acme.com': ['hello', 'Team'], 'shop.io': [] } });
    expect(choices.slice(0, 2).map((c) => c.address)).toEqual(['hello@acme.com', 'team@acme.com']);
    expect(choices.map((c) => c.address)).not.toContain('marketing@acme.com');
    expect(choices.map((c) => c.address)).toContain('marketing@shop.io');
    const both = senderChoices({ overview, aliasesByDomain: { 'acme.com': ['hello'], 'shop.io': ['orders'] } });
    expect(both.slice(0, 2).map((c) => c.address)).toEqual(['hello@acme.com', 'orders@shop.io']);
  });

  it('offers nothing at an unverified domain or the domain of the user’s own address, and no pending address', () => {
    const addresses = senderChoices({
      overview: { ...overview, verifiedDomains: [] },
      aliasesByDomain: { 'other.io': ['x'] },
    }).map((c) => c.address);
    expect(addresses).toEqual(['ada@gmail.com', 'press@partner.org']);
  });

  it('offers the account’s own address before it is confirmed, marked so, and knows nothing is proven yet', () => {
    const fresh: SenderOverview = {
      accountEmail: { email: 'new@example.org', confirmed: false },
      verifiedDomains: [],
      addresses: [],
    };
    const choices = senderChoices({ overview: fresh, aliasesByDomain: {} });
    expect(choices).toEqual([{ address: 'new@example.org', kind: 'unconfirmed-account' }]);
    expect(hasProvenSender(choices)).toBe(false);
    expect(hasProvenSender(senderChoices({ overview, aliasesByDomain: {} }))).toBe(true);
    expect(senderChoices({ overview: undefined, aliasesByDomain: {} })).toEqual([]);
  });

  it('defaults to marketing@ a verified domain, else the first choice', () => {
    expect(defaultSender(senderChoices({ overview, aliasesByDomain: {} }))).toBe('marketing@acme.com');
    expect(defaultSender([{ address: 'ada@gmail.com', kind: 'address' }])).toBe('ada@gmail.com');
    expect(defaultSender([])).toBe('');
  });
});

describe('senderStanding', () => {
  it('tells a verified domain (and subdomain), a confirmed address, a pending one and anything else apart', () => {
    expect(senderStanding('Hello@News.Acme.com', overview)).toBe('domain');
    expect(senderStanding('ada@gmail.com', overview)).toBe('address');
    expect(senderStanding('press@partner.org', overview)).toBe('address');
    expect(senderStanding('ceo@bank.example', overview)).toBe('pending');
    expect(senderStanding('x@notacme.com', overview)).toBe('unproven');
    expect(senderStanding('x@gmail.com', overview)).toBe('unproven');
    expect(
      senderStanding('ada@gmail.com', { ...overview, accountEmail: { email: 'ada@gmail.com', confirmed: false } }),
    ).toBe('unconfirmed-account');
    expect(senderStanding('ada@gmail.com', undefined)).toBe('unproven');
  });
});

const alias = (id: number, name: string, over: Partial<{ isActive: boolean; isVerified: boolean }> = {}) => ({
  id,
  domainId: 1,
  alias: name,
  address: `${name}@acme.com`,
  destination: 'me@example.org',
  isVerified: true,
  isActive: true,
  createdAt: '2026-01-01T00:00:00Z',
  forwardingType: 'simple',
  description: null,
  autoReply: false,
  autoReplyMessage: null,
  isCatchAll: name === '*',
  destinationConfirmed: true,
  domainVerified: true,
  confirmationSentAt: null,
  ...over,
});

describe('activeAliasNames', () => {
  it('keeps the aliases that are on and confirmed, never the catch-all', () => {
    const answer = [
      alias(1, 'sales'),
      alias(2, 'pending', { isVerified: false }),
      alias(3, 'off', { isActive: false }),
      alias(4, '*'),
      alias(5, 'info'),
    ];
    expect(activeAliasNames(answer)).toEqual(['sales', 'info']);
  });

  it('gives none for an answer that is not an alias list', () => {
    expect(activeAliasNames({ message: 'Not found' })).toEqual([]);
    expect(activeAliasNames(['sales'])).toEqual([]);
  });
});
