import type { Db } from '../../db/client.ts';
import * as repo from './contacts.repo.ts';

const EXPORT_COLUMNS = [
  'email',
  'firstName',
  'lastName',
  'company',
  'jobTitle',
  'phone',
  'location',
  'tags',
  'status',
  'engagementScore',
  'createdAt',
] as const;

/**
 * One CSV cell. Cells that a spreadsheet would run as a formula (starting with = + - @, or a tab
 * or carriage return) get a leading apostrophe; quotes, commas and newlines are quoted.
 */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function csvLine(row: repo.ContactRow): string {
  const values = [
    row.email,
    row.firstName,
    row.lastName,
    row.company ?? '',
    row.jobTitle ?? '',
    row.phone ?? '',
    row.location ?? '',
    row.tags.join(', '),
    row.isActive ? 'active' : 'unsubscribed',
    String(row.engagementScore),
    row.createdAt.toISOString(),
  ];
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** Streams the user's contacts (all, or one list's) as CSV in id order, a page at a time. */
export async function* exportContactsCsv(db: Db, userId: string, listId: number | undefined): AsyncGenerator<string> {
  yield `${EXPORT_COLUMNS.join(',')}\r\n`;
  let afterId = 0;
  for (;;) {
    const rows = await repo.contactsAfter(db, userId, listId, afterId, 5000);
    if (rows.length === 0) return;
    yield rows.map(csvLine).join('');
    afterId = rows.at(-1)?.id ?? afterId;
  }
}
