import { afterAll, describe, expect, it } from 'vitest';
import { dnsResolver } from '../../lib/dns.ts';
import { startTestDnsServer } from '../../../test/dns-server.ts';
import { addressFlags, checkAddress, MxCache } from './address-checks.ts';

const dns = await startTestDnsServer();
afterAll(() => dns.close());

describe('lead address checks (local DNS server)', () => {
  const resolver = dnsResolver([dns.server]);

  it('MX found, null MX, no domain, and a failing server', async () => {
    dns.setMx('smith-dental.example', [
      { exchange: 'mx2.smith-dental.example', priority: 20 },
      { exchange: 'mx1.smith-dental.example', priority: 10 },
    ]);
    dns.setMx('parked.example', [{ exchange: '', priority: 0 }]);
    dns.fail('broken.example');
    expect(await resolver.resolveMx('smith-dental.example')).toEqual({
      kind: 'found',
      records: [
        { exchange: 'mx1.smith-dental.example', priority: 10 },
        { exchange: 'mx2.smith-dental.example', priority: 20 },
      ],
    });
    expect(await resolver.resolveMx('parked.example')).toEqual({ kind: 'null-mx' });
    expect(await resolver.resolveMx('nowhere.example')).toEqual({ kind: 'none' });
    expect((await resolver.resolveMx('broken.example')).kind).toBe('failed');

    const cache = new MxCache(resolver);
    expect(await checkAddress('Jane@Smith-Dental.example', cache)).toMatchObject({
      email: 'jane@smith-dental.example',
      syntaxValid: true,
      mx: 'found',
      mail: 'mx',
      disposable: false,
      role: false,
      freeMail: false,
    });
    expect(await checkAddress('info@parked.example', cache)).toMatchObject({
      mx: 'null-mx',
      mail: 'no-mail',
      role: true,
    });
    expect(await checkAddress('a@nowhere.example', cache)).toMatchObject({ mx: 'none', mail: 'no-mail' });
    expect(await checkAddress('a@broken.example', cache)).toMatchObject({ mx: 'failed', mail: 'unchecked' });
    expect(await checkAddress('not an address', cache)).toMatchObject({ syntaxValid: false, mx: 'skipped' });
  });

  it('caches MX answers per domain', async () => {
    let asked = 0;
    const cache = new MxCache({
      resolveMx: async (name) => {
        asked += 1;
        return resolver.resolveMx(name);
      },
    });
    dns.setMx('cached.example', [{ exchange: 'mx.cached.example', priority: 10 }]);
    for (const local of ['a', 'b', 'c']) await checkAddress(`${local}@cached.example`, cache);
    expect(asked).toBe(1);
    dns.remove('cached.example');
    expect((await checkAddress('d@cached.example', cache)).mail).toBe('mx');
    expect((await checkAddress('d@cached.example', new MxCache(resolver))).mail).toBe('no-mail');
  });

  it('flags disposable, free-mail and role addresses from the list packages', () => {
    expect(addressFlags('someone@mailinator.com')).toMatchObject({ disposable: true });
    expect(addressFlags('someone@inbox.mailinator.com')).toMatchObject({ disposable: true });
    expect(addressFlags('someone@gmail.com')).toMatchObject({ freeMail: true, disposable: false, role: false });
    expect(addressFlags('sales@acme.example')).toMatchObject({ role: true, freeMail: false });
    expect(addressFlags('info+leads@acme.example')).toMatchObject({ role: true });
    expect(addressFlags('jane.doe@acme.example')).toMatchObject({ role: false, freeMail: false, disposable: false });
  });
});
