import { describe, expect, it } from 'vitest';

import { isNavItemActive, matchesRoutePath } from './nav';

describe('isNavItemActive', () => {
  it('lights a link on its own path', () => {
    expect(isNavItemActive('/', '/')).toBe(true);
    expect(isNavItemActive('/campaigns', '/campaigns')).toBe(true);
  });
  it('lights a link other than / on paths below it', () => {
    expect(isNavItemActive('/campaigns', '/campaigns/42')).toBe(true);
  });
  it('never lights / for other paths', () => {
    expect(isNavItemActive('/', '/campaigns')).toBe(false);
  });
  it('does not light unrelated links', () => {
    expect(isNavItemActive('/contacts', '/campaigns')).toBe(false);
  });
});

describe('matchesRoutePath', () => {
  it('matches fixed paths exactly and :params against one segment', () => {
    expect(matchesRoutePath('/campaigns', '/campaigns')).toBe(true);
    expect(matchesRoutePath('/campaigns', '/campaigns/1')).toBe(false);
    expect(matchesRoutePath('/campaigns/:id/report', '/campaigns/12/report')).toBe(true);
    expect(matchesRoutePath('/campaigns/:id/report', '/campaigns//report')).toBe(false);
    expect(matchesRoutePath('/campaigns/:id/report', '/campaigns/12/report/x')).toBe(false);
    expect(matchesRoutePath('/campaigns/:id/report', '/contacts/12/report')).toBe(false);
  });
});
