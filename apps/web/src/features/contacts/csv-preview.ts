// The browser preview of a chosen CSV file (spec §5): the first 5 rows, headers lower-cased.
import Papa from 'papaparse';

import { countDataRows, estimateDataRows, FULL_READ_MAX_BYTES } from './import-progress';

/** Rows shown under the header (spec §9). */
const PREVIEW_ROWS = 5;
/** Bytes read from a big file for its preview and row estimate. */
const SAMPLE_BYTES = 256 * 1024;

export interface CsvPreview {
  /** Lower-cased, as the preview table shows them (spec §5). */
  headers: string[];
  /** As the file spells them, for the column mapping and the ignored-columns report. */
  columns: string[];
  rows: string[][];
}

/** Parses the start of a CSV text (delimiter detected, BOM dropped): lower-cased headers and up to 5 rows. */
export function parseCsvPreview(text: string): CsvPreview {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { preview: PREVIEW_ROWS + 1, skipEmptyLines: true });
  const [header = [], ...rows] = parsed.data;
  return {
    headers: header.map((cell) => cell.trim().toLowerCase()),
    columns: header.map((cell) => cell.trim()),
    rows,
  };
}

/**
 * Reads the preview and the number of data rows the progress bar counts on: files up to 20 MB are
 * read whole and their lines counted; bigger ones are estimated from their first 256 KB.
 */
export async function readCsvPreview(file: File): Promise<CsvPreview & { estimatedRows: number }> {
  if (file.size <= FULL_READ_MAX_BYTES) {
    const text = await file.text();
    return { ...parseCsvPreview(text), estimatedRows: countDataRows(text) };
  }
  const sample = await file.slice(0, SAMPLE_BYTES).text();
  return { ...parseCsvPreview(sample), estimatedRows: estimateDataRows(file.size, sample, SAMPLE_BYTES) };
}

/**
 * The rows an import skipped, as a CSV to fix and import again: the file's header and those rows
 * (found by the row numbers the server reported, header = row 1), with the reason in a last
 * column. Null for a file too big to read again whole in the browser.
 */
export async function skippedRowsCsv(
  file: File,
  errors: readonly { row: number; message: string }[],
): Promise<string | null> {
  if (errors.length === 0 || file.size > FULL_READ_MAX_BYTES) return null;
  const parsed = Papa.parse<string[]>((await file.text()).replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const [header = [], ...rest] = parsed.data;
  const rows = errors.flatMap(({ row, message }) => {
    const record = rest[row - 2];
    return record ? [[...record, message]] : [];
  });
  return Papa.unparse([[...header, 'Why it was skipped'], ...rows]);
}
