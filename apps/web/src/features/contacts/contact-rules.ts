// Pure rules of the Contacts screen (no React, no '@/' imports) so that unit tests can load them alone.
import type { Contact, ContactList } from '@sendwell/contract/contacts';

/** A contact's status label (spec §4): Unsubscribed when isActive is false, otherwise Active. */
export function contactStatusLabel(contact: Pick<Contact, 'isActive'>): 'Active' | 'Unsubscribed' {
  return contact.isActive ? 'Active' : 'Unsubscribed';
}

/** "Ada Lovelace", or the email when both names are blank. */
export function contactDisplayName(contact: Pick<Contact, 'firstName' | 'lastName' | 'email'>): string {
  return `${contact.firstName} ${contact.lastName}`.trim() || contact.email;
}

/** Page sizes offered under the contacts table; the server's default is 50. */
export const PAGE_SIZES = [25, 50, 100] as const;

/** How many pages a listing has (at least one, so "page 1 of 1" holds for an empty list). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/**
 * "Showing 1–50 of 120" under the table; "Showing 0 of 0" when empty. When the server stopped
 * counting (`exact` false) the total is a lower bound: "of 10,000+", and the page shows its own rows.
 */
export function paginationText(
  page: number,
  pageSize: number,
  total: number,
  exact = true,
  rowsOnPage?: number,
): string {
  if (total <= 0 && (rowsOnPage ?? 0) === 0) return 'Showing 0 of 0';
  const first = (page - 1) * pageSize + 1;
  if (!exact) {
    const last = first + Math.max(0, (rowsOnPage ?? pageSize) - 1);
    return `Showing ${first.toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}+`;
  }
  const last = Math.min(page * pageSize, total);
  return `Showing ${Math.min(first, total).toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`;
}

/** Whether a Next page exists: by the total when it is exact, else while pages come back full. */
export function hasNextPage(
  page: number,
  pageSize: number,
  total: number,
  exact: boolean,
  rowsOnPage: number,
): boolean {
  return exact ? page < pageCount(total, pageSize) : rowsOnPage >= pageSize;
}

/** The list of that name, compared without case and surrounding spaces. */
export function findListByName(lists: readonly ContactList[], name: string): ContactList | undefined {
  const wanted = name.trim().toLowerCase();
  return lists.find((list) => list.name.trim().toLowerCase() === wanted);
}

/** Name of the list that 'Send Campaign' creates for the selected contacts. */
export function selectionListName(at: Date): string {
  const stamp = at.toLocaleString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return `Selected contacts – ${stamp}`;
}

/** Spec §5: a CSV file has type text/csv or a name ending in .csv. */
export function isCsvFile(file: { name: string; type: string }): boolean {
  return file.type === 'text/csv' || file.name.toLowerCase().endsWith('.csv');
}

/** "1 contact", "3 contacts". */
export function pluralContacts(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'contact' : 'contacts'}`;
}
