import type { Suppression, SuppressionReason, SuppressionsPage } from '@sendwell/contract/suppressions';
import { SUPPRESSIONS_PAGE_SIZE } from '@sendwell/contract/suppressions';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import * as repo from './suppressions.repo.ts';

/**
 * The suppression list every sending feature honours: addresses that unsubscribed, bounced hard or
 * complained are never mailed again by that account.
 */
export const isSuppressed = (db: DbOrTx, userId: string, email: string) => repo.isSuppressed(db, userId, email);

/** Which of the addresses (lower-cased) the account's suppression list holds: the sending policy's check of each claimed chunk. */
export const suppressedAmong = (db: DbOrTx, userId: string, emails: string[]) =>
  repo.suppressedAmong(db, userId, emails);

/**
 * Adds the address to the account's suppression list and ends its contact's sequence enrolments in
 * flight (exit reason unsubscribed, bounced or complained): one call for every feature that
 * suppresses, so none of them needs to know of sequences.
 */
export async function suppress(
  db: DbOrTx,
  userId: string,
  email: string,
  reason: SuppressionReason,
  cause?: repo.SuppressionCause,
): Promise<void> {
  await repo.addSuppression(db, userId, email, reason, cause);
  await repo.endEnrolmentsOf(db, userId, email, repo.EXIT_REASON_OF_SUPPRESSION[reason]);
}

/** Ends the sequence enrolments in flight of the account's contact with this address (see suppress). */
export const endSequenceEnrolmentsOf = (
  db: DbOrTx,
  userId: string,
  email: string,
  reason: 'bounce' | 'complaint' | 'unsubscribe',
) => repo.endEnrolmentsOf(db, userId, email, repo.EXIT_REASON_OF_SUPPRESSION[reason]);

type ListedRow = Awaited<ReturnType<typeof repo.listSuppressions>>['rows'][number];
const toSuppression = (row: ListedRow): Suppression => ({ ...row, createdAt: row.createdAt.toISOString() });

/** One page of the account's suppression list (search: part of the address). */
export async function listSuppressions(
  db: DbOrTx,
  userId: string,
  query: { search?: string; page: number },
): Promise<SuppressionsPage> {
  const { rows, total } = await repo.listSuppressions(db, userId, {
    search: query.search || undefined,
    limit: SUPPRESSIONS_PAGE_SIZE,
    offset: (query.page - 1) * SUPPRESSIONS_PAGE_SIZE,
  });
  return { suppressions: rows.map(toSuppression), total, page: query.page, pageSize: SUPPRESSIONS_PAGE_SIZE };
}

/** Lifts a suppression: the address may be mailed again. Another account's id is not found. */
export async function removeSuppression(db: DbOrTx, userId: string, id: number): Promise<void> {
  if (!(await repo.deleteSuppression(db, userId, id))) throw new AppError('not_found', 'Suppression not found');
}

const csvField = (value: string) => {
  // A leading = + - @ would run as a formula in a spreadsheet: quote it with a ' (OWASP CSV injection).
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/** The whole list as CSV, page by page (an account's list can be long). */
export async function* suppressionsCsv(db: DbOrTx, userId: string): AsyncGenerator<string> {
  yield 'email,reason,detail,campaign,suppressed_at\r\n';
  const pageSize = 1000;
  for (let offset = 0; ; offset += pageSize) {
    const { rows } = await repo.listSuppressions(db, userId, { limit: pageSize, offset });
    for (const row of rows)
      yield (
        [row.email, row.reason, row.detail ?? '', row.campaignName ?? '', row.createdAt.toISOString()]
          .map(csvField)
          .join(',') + '\r\n'
      );
    if (rows.length < pageSize) return;
  }
}
