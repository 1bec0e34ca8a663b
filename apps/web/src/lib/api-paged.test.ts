import { describe, expect, it } from 'vitest';

import { parseTotalCount, urlWithQuery } from './api-paged';

describe('parseTotalCount', () => {
  it('reads the header', () => {
    expect(parseTotalCount('1234', 50)).toBe(1234);
    expect(parseTotalCount('0', 0)).toBe(0);
  });
  it('falls back to the rows on the page when the header is missing or malformed', () => {
    expect(parseTotalCount(null, 7)).toBe(7);
    expect(parseTotalCount('', 7)).toBe(7);
    expect(parseTotalCount('lots', 7)).toBe(7);
    expect(parseTotalCount('-3', 7)).toBe(7);
    expect(parseTotalCount('2.5', 7)).toBe(7);
  });
});

describe('urlWithQuery', () => {
  it('leaves out empty values and encodes the rest', () => {
    expect(
      urlWithQuery('/api/contacts', { search: 'ada lovelace', listId: undefined, status: '', page: 2, pageSize: 50 }),
    ).toBe('/api/contacts?search=ada+lovelace&page=2&pageSize=50');
  });
  it('gives the bare path when nothing is set', () => {
    expect(urlWithQuery('/api/contacts', { search: undefined, listId: null })).toBe('/api/contacts');
  });
});
