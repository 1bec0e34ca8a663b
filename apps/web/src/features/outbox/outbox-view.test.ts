import { describe, expect, it } from 'vitest';

import {
  emlFileName,
  formatSentAt,
  formatSentAtFull,
  listQueryString,
  pageCount,
  pageRangeText,
  readListQuery,
  viewerDocument,
} from './outbox-view';

describe('list query in the URL', () => {
  it('reads search and page, ignoring malformed pages', () => {
    expect(readListQuery('?q=%20spring%20&page=3')).toEqual({ search: 'spring', page: 3 });
    expect(readListQuery('')).toEqual({ search: '', page: 1 });
    expect(readListQuery('page=0')).toEqual({ search: '', page: 1 });
    expect(readListQuery('page=2.5')).toEqual({ search: '', page: 1 });
    expect(readListQuery('page=abc&q=')).toEqual({ search: '', page: 1 });
  });
  it('writes only what differs from the first page without a search, and round-trips', () => {
    expect(listQueryString({ search: '', page: 1 })).toBe('');
    expect(listQueryString({ search: 'a&b', page: 2 })).toBe('?q=a%26b&page=2');
    expect(readListQuery(listQueryString({ search: 'a&b', page: 2 }))).toEqual({ search: 'a&b', page: 2 });
  });
});

describe('paging text', () => {
  it('counts pages and says which messages are shown', () => {
    expect(pageCount(0, 25)).toBe(1);
    expect(pageCount(25, 25)).toBe(1);
    expect(pageCount(26, 25)).toBe(2);
    expect(pageRangeText(1, 25, 0)).toBe('No messages');
    expect(pageRangeText(1, 25, 1)).toBe('1 message');
    expect(pageRangeText(1, 25, 3)).toBe('Showing 1–3 of 3 messages');
    expect(pageRangeText(2, 25, 1234)).toBe('Showing 26–50 of 1,234 messages');
    expect(pageRangeText(9, 25, 30)).toBe('30 messages');
  });
});

describe('sent times', () => {
  const now = new Date('2026-03-04T18:00:00Z');
  it('shows the time today, day and time this year, the date before', () => {
    expect(formatSentAt('2026-03-04T15:05:00Z', now, 'UTC')).toBe('3:05 PM');
    expect(formatSentAt('2026-01-10T09:30:00Z', now, 'UTC')).toBe('Jan 10, 9:30 AM');
    expect(formatSentAt('2025-12-31T23:00:00Z', now, 'UTC')).toBe('Dec 31, 2025');
    expect(formatSentAt('not a date', now, 'UTC')).toBe('');
  });
  it('judges "today" in the viewer’s time zone', () => {
    // 01:00 UTC on the 5th is still the 4th in New York.
    expect(formatSentAt('2026-03-05T01:00:00Z', now, 'America/New_York')).toBe('8:00 PM');
  });
  it('gives the full time with seconds', () => {
    expect(formatSentAtFull('2026-03-04T15:05:09Z', 'UTC')).toBe('March 4, 2026 at 3:05:09 PM');
  });
});

describe('viewerDocument', () => {
  it('puts a base target in the head, or in front when there is none', () => {
    expect(viewerDocument('<html><head><title>x</title></head><body>Hi</body></html>')).toBe(
      '<html><head><base target="_blank"><title>x</title></head><body>Hi</body></html>',
    );
    expect(viewerDocument('<HTML><HEAD lang="en"></HEAD></HTML>')).toBe(
      '<HTML><HEAD lang="en"><base target="_blank"></HEAD></HTML>',
    );
    expect(viewerDocument('<p>Hi</p>')).toBe('<base target="_blank"><p>Hi</p>');
    // <header> is not <head>.
    expect(viewerDocument('<header>x</header>')).toBe('<base target="_blank"><header>x</header>');
  });
});

describe('emlFileName', () => {
  it('makes the subject safe for a file name', () => {
    expect(emlFileName('Spring sale: 20% off!', 7)).toBe('Spring-sale-20-off-7.eml');
    expect(emlFileName('../../etc', 8)).toBe('etc-8.eml');
    expect(emlFileName('', 9)).toBe('message-9.eml');
  });
});
