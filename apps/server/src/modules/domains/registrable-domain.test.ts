import { describe, expect, it } from 'vitest';
import { isRegistrableDomain } from './registrable-domain.ts';

describe('isRegistrableDomain', () => {
  it.each(['example.com', 'mail.example.com', 'shop.co.uk', 'xn--bcher-kva.de', 'me.github.io'])(
    'accepts %s',
    (name) => {
      expect(isRegistrableDomain(name, false)).toBe(true);
    },
  );

  it.each([
    ['an unknown ending', 'intranet.corp'],
    ['a public suffix itself', 'co.uk'],
    ['a private public suffix itself', 'github.io'],
    ['a reserved test name without the setting', 'acme.example'],
    ['a .test name without the setting', 'brand.e2e.test'],
    ['a .local name', 'printer.local'],
  ])('refuses %s (%s)', (_label, name) => {
    expect(isRegistrableDomain(name, false)).toBe(false);
  });

  it('accepts the reserved test names only when the setting allows them', () => {
    expect(isRegistrableDomain('acme.example', true)).toBe(true);
    expect(isRegistrableDomain('brand.e2e.test', true)).toBe(true);
    expect(isRegistrableDomain('intranet.corp', true)).toBe(false);
  });
});
