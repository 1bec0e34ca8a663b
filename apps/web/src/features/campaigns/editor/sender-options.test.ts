import { describe, expect, it } from 'vitest';
import type { SenderOverview } from '@sendwell/contract/sender-addresses';

import { aliasNames, defaultSender, hasProvenSender, senderChoices, senderStanding } from './sender-options';

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
    expect(senderChoices({ overview, aliases: undefined, aliasDomain: null })).toEqual([
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

  it('forms the first domain’s aliases as alias@domain (spec §2) when it is verified', () => {
    const choices = senderChoices({ overview, aliases: ['hello', 'Team'], aliasDomain: 'acme.com' });
    expect(choices.slice(0, 2).map((c) => c.address)).toEqual(['hello@acme.com', 'team@acme.com']);
    expect(choices.map((c) => c.address)).toContain('marketing@shop.io');
  });

  it('offers nothing at an unverified domain or the domain of the user’s own address, and no pending address', () => {
    const addresses = senderChoices({
      overview: { ...overview, verifiedDomains: [] },
      aliases: ['x'],
      aliasDomain: 'other.io',
    }).map((c) => c.address);
    expect(addresses).toEqual(['ada@gmail.com', 'press@partner.org']);
  });

  it('offers the account’s own address before it is confirmed, marked so, and knows nothing is proven yet', () => {
    const fresh: SenderOverview = {
      accountEmail: { email: 'new@example.org', confirmed: false },
      verifiedDomains: [],
      addresses: [],
    };
    const choices = senderChoices({ overview: fresh, aliases: undefined, aliasDomain: null });
    expect(choices).toEqual([{ address: 'new@example.org', kind: 'unconfirmed-account' }]);
    expect(hasProvenSender(choices)).toBe(false);
    expect(hasProvenSender(senderChoices({ overview, aliases: undefined, aliasDomain: null }))).toBe(true);
    expect(senderChoices({ overview: undefined, aliases: undefined, aliasDomain: null })).toEqual([]);
  });

  it('defaults to marketing@ a verified domain, else the first choice', () => {
    expect(defaultSender(senderChoices({ overview, aliases: undefined, aliasDomain: null }))).toBe(
      'marketing@acme.com',
    );
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

describe('aliasNames', () => {
  it('reads {alias} objects or strings and ignores anything else', () => {
    expect(aliasNames([{ alias: 'sales' }, 'info', { name: 'x' }, 3])).toEqual(['sales', 'info']);
    expect(aliasNames({ message: 'Not found' })).toEqual([]);
  });
});
