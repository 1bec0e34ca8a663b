import {
  columnIndexes,
  detectColumns,
  IMPORT_FIELD_LABELS,
  splitTags,
  type ColumnMapping,
  type ImportField,
} from '@sendwell/contract/contact-import';
import {
  contactEmailSchema,
  LIST_NAME_REQUIRED,
  MAX_TAG_LENGTH,
  NOT_CSV,
  TAG_TOO_LONG,
  type ImportResult,
} from '@sendwell/contract/contacts';
import { runsOnPool, type Db, type DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { isConnectionError } from '../../lib/db-errors.ts';
import type { Config } from '../../config.ts';
import { planLimitsOf, planOf, warnUsageOnce, subscriberCountOf } from '../billing/index.ts';
import { notifyUser } from '../notifications/index.ts';
import * as repo from './contacts.repo.ts';
import { LIST_EXISTS } from './contacts.service.ts';
import { csvRecords } from './csv-records.ts';

export const MAX_IMPORT_BYTES = 100 * 1024 * 1024;
/**
 * Rows per transaction. A million-row import on Postgres took 23.3-23.6 s in 10,000-row batches
 * against 24.7-27.3 s in 2,000-row ones (alternating runs); progress still moves every 10,000 rows.
 */
export const IMPORT_BATCH_SIZE = 10_000;
/** Batches written at once on Postgres: one per core of the 2-core servers it was measured on. */
const POSTGRES_CONCURRENT_BATCHES = 2;
const MAX_REPORTED_ERRORS = 100;

type Field = ImportField;

type LimitedField = 'firstName' | 'lastName' | 'company' | 'jobTitle' | 'phone' | 'location' | 'notes';
const LIMITS: Record<LimitedField, number> = {
  firstName: 100,
  lastName: 100,
  company: 200,
  jobTitle: 200,
  phone: 50,
  location: 200,
  notes: 5000,
};
/** Listed once: this is checked for every row of files with a million of them. */
const LIMIT_ENTRIES = Object.entries(LIMITS) as [LimitedField, number][];

/**
 * The columns to read: the user's mapping when given (one entry per header, with one email column),
 * else the one detected from the headers; and the headers left out.
 */
function resolveColumns(
  headers: string[],
  mapping: readonly ColumnMapping[] | undefined,
): { columns: Partial<Record<Field, number>>; ignored: string[] } {
  if (mapping && mapping.length !== headers.length) {
    throw new AppError(
      'bad_request',
      `The column mapping names ${mapping.length} columns but the file has ${headers.length}. Choose the file again.`,
    );
  }
  const chosen = mapping ?? detectColumns(headers);
  const ignored = headers.filter((header, index) => chosen[index] === 'ignore' && header.trim() !== '');
  return { columns: columnIndexes(chosen), ignored };
}

/** Picks the delimiter that occurs most often outside quotes in the header line: comma, semicolon or tab. */
function sniffDelimiter(firstLine: string): string {
  const counts = new Map<string, number>([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let quoted = false;
  for (const ch of firstLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && counts.has(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best = ',';
  for (const [delimiter, n] of counts) if (n > (counts.get(best) ?? 0)) best = delimiter;
  return best;
}

type Candidate = repo.ImportRow;

/** The file's bytes: a request stream, a multipart file stream, or the JSON body's text. */
export type CsvSource = AsyncIterable<Buffer | string> | Iterable<Buffer | string>;

export type ImportTarget = {
  listId?: number;
  newListName?: string;
  /** Given by the route: new contacts stop at the plan's subscriber limit (benches and tools import unlimited). */
  billing?: Pick<Config, 'billingEnabled'>;
  /** One field (or 'ignore') per column; detected from the headers when left out. */
  columns?: readonly ColumnMapping[];
  /** A tag given to every contact of the import. */
  tag?: string;
};

/** Reads the source with a byte limit, refusing binary data, and yields the header line first for sniffing. */
async function* limitedChunks(source: CsvSource, onBytes?: (bytes: number) => void): AsyncGenerator<Buffer> {
  let total = 0;
  let first = true;
  for await (const chunk of source) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += buffer.length;
    if (total > MAX_IMPORT_BYTES) throw new AppError('too_large', 'The CSV file is larger than 100 MB');
    if (first && buffer.subarray(0, 8192).includes(0)) throw new AppError('bad_request', NOT_CSV);
    first = false;
    onBytes?.(total);
    yield buffer;
  }
}

/** One data row of a CSV file: its number in the file (the header is row 1) and its contact, or why it is refused. */
export type CsvCandidateRow = { rowNumber: number; candidate: repo.ImportRow | string };

/**
 * Streams a CSV file's rows as contact candidates, a chunk's rows at a time, without holding the
 * file in memory: sniffs the delimiter, reads the header (the user's column mapping when given, else
 * detected), reports the headers left out through `onHeader`, and checks each row (a bad row is a
 * message, not a failure). The contacts import and the lead list upload (modules/leads) both read
 * files through it. A file that cannot be read throws an AppError naming the row.
 */
export async function* csvCandidateRows(
  source: CsvSource,
  options: { columns?: readonly ColumnMapping[]; tag?: string; onHeader?: (ignored: string[]) => void } = {},
): AsyncGenerator<CsvCandidateRow[]> {
  const chunks = limitedChunks(source);
  const head = await chunks.next();
  if (head.done) throw new AppError('bad_request', 'The CSV file is empty');
  const firstText = head.value.toString('utf8').replace(/^\uFEFF/, '');
  const delimiter = sniffDelimiter(firstText.split(/\r?\n/, 1)[0] ?? '');
  // A read error in the source (size, binary data, a quote never closed) surfaces through the records.
  const records = csvRecords(
    (async function* () {
      yield head.value;
      yield* chunks;
    })(),
    { delimiter, maxRecordChars: 1_000_000 },
  );
  let columns: Partial<Record<Field, number>> | undefined;
  let rowNumber = 0;
  try {
    for await (const recordsOfChunk of records) {
      const rows: CsvCandidateRow[] = [];
      for (const record of recordsOfChunk) {
        rowNumber += 1;
        if (!columns) {
          const resolved = resolveColumns(record, options.columns);
          columns = resolved.columns;
          options.onHeader?.(resolved.ignored);
          if (columns.email === undefined && options.columns) {
            throw new AppError('bad_request', 'Choose the column that holds the email addresses.');
          }
          if (columns.email === undefined) {
            const found =
              record
                .filter(Boolean)
                .map((h) => `"${h}"`)
                .join(', ') || 'none';
            throw new AppError('bad_request', `The file has no email column. Columns found: ${found}`);
          }
          continue;
        }
        rows.push({ rowNumber, candidate: toCandidate(record, columns, options.tag) });
      }
      if (rows.length > 0) yield rows;
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (!(error instanceof AppError) && typeof code === 'string' && code.startsWith('CSV_')) {
      throw new AppError(
        'bad_request',
        `The CSV could not be read near row ${rowNumber + 1}: ${(error as Error).message}`,
      );
    }
    throw error;
  }
  if (!columns) throw new AppError('bad_request', 'The CSV file is empty');
}

/**
 * Imports contacts from a CSV stream without holding the file in memory. Rows are checked one by
 * one (bad rows are reported, not fatal); each batch of rows is one transaction that upserts by
 * email (existing contacts only get their empty fields filled) and adds them to the target list.
 */
export async function importContactsCsv(
  db: Db,
  userId: string,
  source: CsvSource,
  target: ImportTarget,
  onProgress?: (rowsProcessed: number) => void,
): Promise<ImportResult> {
  if (target.listId !== undefined && !(await repo.findList(db, userId, target.listId))) {
    throw new AppError('not_found', 'Contact list not found');
  }
  if (target.newListName !== undefined && target.newListName.trim() === '') {
    throw new AppError('bad_request', LIST_NAME_REQUIRED, { newListName: LIST_NAME_REQUIRED });
  }
  if (target.newListName && (await repo.findListByName(db, userId, target.newListName))) {
    throw new AppError('conflict', LIST_EXISTS, { newListName: LIST_EXISTS });
  }

  const result: ImportResult = {
    imported: 0,
    updated: 0,
    skipped: 0,
    errors: [],
    listId: target.listId ?? null,
    ignoredColumns: [],
  };
  let batch = new Map<string, Candidate>();
  /** The file row each email of the batch was first seen on, to report rows past the subscriber limit. */
  let batchRows = new Map<string, number>();
  let processed = 0;
  const reportError = (row: number, message: string) => {
    result.skipped += 1;
    if (result.errors.length < MAX_REPORTED_ERRORS) result.errors.push({ row, message });
  };

  /**
   * The rows of a batch the plan's subscriber limit lets in: existing contacts always (they are
   * updated), new ones while there is room; the rest are reported by their row. The account row is
   * locked for the batch's transaction, so concurrent batches and creates count one at a time.
   */
  const withinSubscriberLimit = async (
    tx: DbOrTx,
    rows: Candidate[],
    billing: Pick<Config, 'billingEnabled'>,
    rowNumbers: Map<string, number>,
  ): Promise<Candidate[]> => {
    const plan = await repo.lockAccountPlan(tx, userId);
    const limit = plan === undefined ? null : planLimitsOf(billing, { plan }).subscribers;
    if (limit === null || plan === undefined) return rows;
    const before = await subscriberCountOf(tx, userId);
    let room = limit - before;
    const existing = await repo.existingEmails(
      tx,
      userId,
      rows.map((row) => row.email),
    );
    const kept: Candidate[] = [];
    for (const row of rows) {
      if (existing.has(row.email)) kept.push(row);
      else if (room > 0) {
        kept.push(row);
        room -= 1;
      } else {
        reportError(
          rowNumbers.get(row.email) ?? 0,
          `Not imported: your ${planOf({ plan }).name} plan allows ${limit.toLocaleString('en-US')} subscribers`,
        );
      }
    }
    await warnUsageOnce(tx, userId, {
      kind: 'subscribers',
      before,
      after: before + kept.length - existing.size,
      limit,
      planName: planOf({ plan }).name,
    });
    return kept;
  };

  const writeBatch = async (rows: Candidate[], rowNumbers: Map<string, number>) => {
    // A new list is created by the first batch's transaction, and its id is published only once that
    // commits: the next batches wait for it (see flush), since a list not yet committed is invisible to
    // their transactions and their memberships would be refused.
    let createdListId: number | null = null;
    await db.transaction(async (tx) => {
      if (result.listId === null && target.newListName)
        createdListId = await createImportList(tx, userId, target.newListName);
      if (rows.length === 0) return;
      if (target.billing) rows = await withinSubscriberLimit(tx, rows, target.billing, rowNumbers);
      if (rows.length === 0) return;
      const inserted = await repo.upsertImportBatch(tx, userId, createdListId ?? result.listId, rows);
      result.imported += inserted;
      result.updated += rows.length - inserted;
    });
    if (createdListId !== null) result.listId = createdListId;
  };
  // Batches are written while the next ones are parsed. On Postgres several are written at once, each
  // in its own transaction on its own connection, so the server's cores share the index work.
  const maxInFlight = runsOnPool(db) ? POSTGRES_CONCURRENT_BATCHES : 1;
  const inFlight: { emails: Map<string, Candidate>; settled: Promise<void> }[] = [];
  let failure: { error: unknown } | undefined;
  // Progress is reported in file order, whichever batch commits first.
  let reported: Promise<void> = Promise.resolve();
  // Rows of the file (from the first) whose batches have all committed: what progress reported.
  let savedThrough = 0;
  const waitForOldest = async () => {
    await inFlight.shift()?.settled;
    if (failure) throw failure.error;
  };
  const flush = async () => {
    const rows = batch;
    const rowNumbers = batchRows;
    const rowsProcessed = processed;
    batch = new Map();
    batchRows = new Map();
    while (inFlight.length >= maxInFlight) await waitForOldest();
    // The first batch creates the new list the later ones add to. A batch that repeats an email of a
    // batch still being written waits for it, so two transactions of one import never lock one contact.
    while (
      inFlight.length > 0 &&
      ((result.listId === null && target.newListName) || inFlight.some((other) => sharesEmail(rows, other.emails)))
    ) {
      await waitForOldest();
    }
    const written = writeBatch([...rows.values()], rowNumbers);
    const settled = written.then(
      () => undefined,
      (error: unknown) => {
        failure ??= { error };
      },
    );
    inFlight.push({ emails: rows, settled });
    reported = reported.then(async () => {
      await written;
      savedThrough = rowsProcessed;
      onProgress?.(rowsProcessed);
    });
    // A failed write surfaces through `failure`; keep the chain from reporting an unhandled rejection.
    reported.catch(() => undefined);
  };
  const finishWrites = async () => {
    await Promise.all(inFlight.map((write) => write.settled));
    inFlight.length = 0;
    if (failure) throw failure.error;
    await reported;
  };

  try {
    const rows = csvCandidateRows(source, {
      columns: target.columns,
      tag: target.tag,
      onHeader: (ignored) => (result.ignoredColumns = ignored),
    });
    for await (const rowsOfChunk of rows) {
      for (const { rowNumber, candidate } of rowsOfChunk) {
        processed += 1;
        if (typeof candidate === 'string') {
          reportError(rowNumber, candidate);
        } else {
          const earlier = batch.get(candidate.email);
          if (earlier) {
            fillEmpty(earlier, candidate);
            result.updated += 1;
          } else {
            batch.set(candidate.email, candidate);
            if (target.billing) batchRows.set(candidate.email, rowNumber);
          }
        }
        if (batch.size >= IMPORT_BATCH_SIZE) await flush();
      }
    }
    await flush();
    await finishWrites();
    await notifyUser(db, userId, importFinishedNotice(result));
  } catch (error) {
    // No batch may still be committing once the caller hears of the failure.
    await Promise.all(inFlight.map((write) => write.settled));
    if (error instanceof AppError) throw error;
    if (isConnectionError(error)) {
      await reported.catch(() => undefined);
      throw new AppError('unavailable', importInterrupted(savedThrough));
    }
    throw error;
  }
  return result;
}

const plural = (count: number, one: string, many: string) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

/**
 * The bell's notice of a finished import (the person may have left the dialog): what was added and
 * updated and, when rows were skipped, how many and the first reason, linked to the contacts.
 */
function importFinishedNotice(result: ImportResult) {
  const counts = `${plural(result.imported, 'contact', 'contacts')} added, ${result.updated.toLocaleString('en-US')} updated`;
  const first = result.errors[0];
  return {
    title: result.skipped > 0 ? `Import finished: ${plural(result.skipped, 'row', 'rows')} skipped` : 'Import finished',
    body:
      result.skipped > 0 && first
        ? `${counts}. ${plural(result.skipped, 'row was', 'rows were')} skipped, the first (row ${first.row}): ${first.message}.`
        : `${counts}.`,
    link: '/contacts',
  };
}

/**
 * The answer to an import cut off by a lost database connection. Each batch is one transaction, so
 * a batch is saved whole or not at all; the rows progress reported are saved, later ones may be.
 */
function importInterrupted(savedRows: number): string {
  const again = 'Import the file again to finish: contacts already saved are updated, not duplicated.';
  return savedRows > 0
    ? `The database connection was lost during the import. The first ${savedRows} rows were saved; later rows may not have been. ${again}`
    : `The database connection was lost during the import; its rows may not have been saved. ${again}`;
}

/** Whether two batches share an email (looked up from the smaller one). */
function sharesEmail(a: Map<string, Candidate>, b: Map<string, Candidate>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const email of small.keys()) if (large.has(email)) return true;
  return false;
}

function cell(record: string[], index: number | undefined): string {
  return index === undefined ? '' : (record[index] ?? '').trim();
}

/** A valid candidate row, or the message saying why the row is refused. */
function toCandidate(
  record: string[],
  columns: Partial<Record<Field, number>>,
  tagForAll?: string,
): Candidate | string {
  const rawEmail = cell(record, columns.email);
  if (!rawEmail) return 'No email address in this row';
  const email = contactEmailSchema.safeParse(rawEmail);
  if (!email.success) return `“${rawEmail.slice(0, 100)}” is not a valid email address`;
  let firstName = cell(record, columns.firstName);
  let lastName = cell(record, columns.lastName);
  if (!firstName && !lastName && columns.fullName !== undefined) {
    const [first = '', ...rest] = cell(record, columns.fullName).split(/\s+/);
    firstName = first;
    lastName = rest.join(' ');
  }
  const values: Record<LimitedField, string> = {
    firstName,
    lastName,
    company: cell(record, columns.company),
    jobTitle: cell(record, columns.jobTitle),
    phone: cell(record, columns.phone),
    location: cell(record, columns.location),
    notes: cell(record, columns.notes),
  };
  for (const [field, limit] of LIMIT_ENTRIES) {
    if (values[field].length > limit) return `${IMPORT_FIELD_LABELS[field]} is longer than ${limit} characters`;
  }
  const tagText = cell(record, columns.tags);
  const split = tagText ? splitTags(tagText) : [];
  const tags = (tagForAll && !split.includes(tagForAll) ? [...split, tagForAll] : split).slice(0, 50);
  // The form's rule; it also keeps every tag within what contacts.tags_lower (a tsvector's text) can hold.
  if (tags.some((tag) => tag.length > MAX_TAG_LENGTH)) return TAG_TOO_LONG;
  return {
    email: email.data,
    firstName: values.firstName,
    lastName: values.lastName,
    company: values.company || null,
    jobTitle: values.jobTitle || null,
    phone: values.phone || null,
    location: values.location || null,
    notes: values.notes || null,
    tags,
  };
}

/** A repeated email inside one file fills the earlier row's empty fields. */
function fillEmpty(target: Candidate, later: Candidate): void {
  target.firstName ||= later.firstName;
  target.lastName ||= later.lastName;
  target.company ??= later.company;
  target.jobTitle ??= later.jobTitle;
  target.phone ??= later.phone;
  target.location ??= later.location;
  target.notes ??= later.notes;
  if (target.tags.length === 0) target.tags = later.tags;
}

async function createImportList(tx: DbOrTx, userId: string, name: string): Promise<number> {
  const row = await repo.insertList(tx, userId, name, null);
  if (!row) throw new AppError('conflict', LIST_EXISTS, { newListName: LIST_EXISTS });
  return row.id;
}
