import { describe, expect, it } from 'vitest';

import { aliasFormErrors } from './alias-form-errors';
import { aliasStatus, missingPopularAliases, POPULAR_ALIASES } from './alias-display';

describe('aliasStatus (spec §4: Pending until verified, then Active)', () => {
  it('is Pending before the destination is confirmed, Active after, Off when switched off', () => {
    expect(aliasStatus({ isVerified: false, isActive: true, domainVerified: true })).toBe('pending');
    expect(aliasStatus({ isVerified: true, isActive: true, domainVerified: true })).toBe('active');
    expect(aliasStatus({ isVerified: true, isActive: false, domainVerified: true })).toBe('off');
  });

  it('is Pending, never Active, while its domain is unverified (issue 34)', () => {
    expect(aliasStatus({ isVerified: true, isActive: true, domainVerified: false })).toBe('pending');
  });
});

describe('missingPopularAliases', () => {
  it('suggests only the popular aliases the domain lacks', () => {
    expect(missingPopularAliases([]).length).toBe(POPULAR_ALIASES.length);
    expect(missingPopularAliases([{ alias: 'hello' }, { alias: 'sales' }]).map((p) => p.alias)).not.toContain('hello');
  });
});

describe('aliasFormErrors', () => {
  it('reports the alias and the destination mistakes together, with the spec’s texts', () => {
    expect(aliasFormErrors({ alias: '', destination: '' })).toEqual({
      alias: 'Alias is required',
      destination: 'Destination email is required',
    });
    expect(aliasFormErrors({ alias: '-x', destination: 'nope' })).toEqual({
      alias: 'Invalid alias format',
      destination: 'Please enter a valid email address',
    });
    expect(aliasFormErrors({ alias: 'sales', destination: 'nope', forwardingType: 'split' })).toEqual({
      destination: 'Invalid email address',
    });
    expect(aliasFormErrors({ alias: 'sales', destination: '', forwardingType: 'split' })).toEqual({});
  });
});
