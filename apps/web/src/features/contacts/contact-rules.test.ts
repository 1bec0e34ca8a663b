import { describe, expect, it } from 'vitest';
import type { ContactList } from '@sendwell/contract/contacts';

import {
  contactDisplayName,
  contactStatusLabel,
  findListByName,
  hasNextPage,
  isCsvFile,
  pageCount,
  paginationText,
  selectionListName,
} from './contact-rules';

describe('contactStatusLabel', () => {
  it('labels by isActive', () => {
    expect(contactStatusLabel({ isActive: true })).toBe('Active');
    expect(contactStatusLabel({ isActive: false })).toBe('Unsubscribed');
  });
});

describe('contactDisplayName', () => {
  it('joins the names, or falls back to the email', () => {
    expect(contactDisplayName({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' })).toBe(
      'Ada Lovelace',
    );
    expect(contactDisplayName({ firstName: '', lastName: '', email: 'ada@example.com' })).toBe('ada@example.com');
  });
});

describe('pagination', () => {
  it('describes the rows on the page', () => {
    expect(paginationText(1, 50, 120)).toBe('Showing 1–50 of 120');
    expect(paginationText(3, 50, 120)).toBe('Showing 101–120 of 120');
    expect(paginationText(1, 25, 7)).toBe('Showing 1–7 of 7');
    expect(paginationText(1, 50, 12345)).toBe('Showing 1–50 of 12,345');
    expect(paginationText(1, 50, 0)).toBe('Showing 0 of 0');
  });
  it('marks a total the server stopped counting as a lower bound', () => {
    expect(paginationText(1, 50, 10_000, false, 50)).toBe('Showing 1–50 of 10,000+');
    expect(paginationText(250, 50, 10_000, false, 50)).toBe('Showing 12,451–12,500 of 10,000+');
    expect(paginationText(300, 50, 10_000, false, 7)).toBe('Showing 14,951–14,957 of 10,000+');
  });
  it('offers a next page by the total, or while pages come back full', () => {
    expect(hasNextPage(1, 50, 120, true, 50)).toBe(true);
    expect(hasNextPage(3, 50, 120, true, 20)).toBe(false);
    expect(hasNextPage(400, 50, 10_000, false, 50)).toBe(true);
    expect(hasNextPage(401, 50, 10_000, false, 12)).toBe(false);
  });
  it('counts pages, at least one', () => {
    expect(pageCount(0, 50)).toBe(1);
    expect(pageCount(50, 50)).toBe(1);
    expect(pageCount(51, 50)).toBe(2);
  });
});

describe('findListByName', () => {
  const list = (id: number, name: string): ContactList => ({
    id,
    name,
    description: null,
    subscriberCount: 0,
    createdAt: '2026-01-01T00:00:00Z',
  });
  it('matches without case or surrounding spaces', () => {
    const lists = [list(1, 'Newsletter Subscribers'), list(2, ' vip customers ')];
    expect(findListByName(lists, 'VIP Customers')?.id).toBe(2);
    expect(findListByName(lists, 'newsletter subscribers')?.id).toBe(1);
    expect(findListByName(lists, 'Recent Purchasers')).toBeUndefined();
  });
});

describe('selectionListName', () => {
  it('names the list with the date and time', () => {
    expect(selectionListName(new Date(2026, 2, 4, 9, 5, 7))).toBe('Selected contacts – Mar 4, 2026, 09:05:07');
  });
});

describe('isCsvFile (spec §5)', () => {
  it('accepts text/csv or a .csv name', () => {
    expect(isCsvFile({ name: 'people.csv', type: 'text/csv' })).toBe(true);
    expect(isCsvFile({ name: 'PEOPLE.CSV', type: '' })).toBe(true);
    expect(isCsvFile({ name: 'export', type: 'text/csv' })).toBe(true);
    expect(isCsvFile({ name: 'people.xlsx', type: 'application/vnd.ms-excel' })).toBe(false);
    expect(isCsvFile({ name: 'notes.txt', type: 'text/plain' })).toBe(false);
  });
});
