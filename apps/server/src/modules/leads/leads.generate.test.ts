import { describe, expect, it } from 'vitest';
import { businessKeys, websiteDomain } from './leads.generate.ts';

describe('business identity', () => {
  it('normalises a website to its domain', () => {
    expect(websiteDomain('https://www.SmithDental.example/contact?x=1')).toBe('smithdental.example');
    expect(websiteDomain('smithdental.example')).toBe('smithdental.example');
    expect(websiteDomain('http://localhost')).toBeNull();
    expect(websiteDomain('not a url')).toBeNull();
    expect(websiteDomain(null)).toBeNull();
  });

  it('keys a business by place id, domain, and name with street, the same across providers', () => {
    const google = businessKeys({
      provider: 'google',
      providerId: 'ChIJ1',
      name: 'Smith Family Dentistry',
      website: 'https://www.smithdental.example/',
      address: '100 Congress Ave, Austin, TX 78701, USA',
    });
    expect(google).toEqual([
      'place:google:ChIJ1',
      'web:smithdental.example',
      'name:smithfamilydentistry|100congressave',
    ]);
    const yelp = businessKeys({
      provider: 'yelp',
      providerId: 'y1',
      name: 'Smith Family Dentistry',
      website: null,
      address: '100 Congress Ave., Austin, TX 78701',
    });
    expect(yelp).toContain('name:smithfamilydentistry|100congressave');
    // Without an address, the name alone is no key (two branches of a chain are two businesses).
    expect(businessKeys({ provider: 'google', providerId: 'x', name: 'Chain', website: null, address: null })).toEqual([
      'place:google:x',
    ]);
  });
});
