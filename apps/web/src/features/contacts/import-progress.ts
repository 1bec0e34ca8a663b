// Pure helpers of the CSV import: the preview's row estimate, the NDJSON progress stream and the bar's percentage.
import { createNdjsonReader } from '@/lib/ndjson-reader';
import { importProgressLineSchema, type ImportProgressLine } from '@sendwell/contract/contacts';

/** Files up to this size are read whole to count their lines; bigger ones are estimated from a sample. */
export const FULL_READ_MAX_BYTES = 20 * 1024 * 1024;

function countNewlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count += 1;
  return count;
}

/** Data rows in a whole CSV text: its lines (a last line without '\n' counts) minus the header. */
export function countDataRows(text: string): number {
  if (text.length === 0) return 0;
  const lines = countNewlines(text) + (text.endsWith('\n') ? 0 : 1);
  return Math.max(0, lines - 1);
}

/** Data rows of a big file estimated from the lines in its first `sampleBytes` bytes. */
export function estimateDataRows(fileSize: number, sample: string, sampleBytes: number): number {
  const lines = countNewlines(sample);
  if (lines === 0 || sampleBytes <= 0) return 0;
  return Math.max(0, Math.round((fileSize * lines) / sampleBytes) - 1);
}

/** The import's progress lines, read as they arrive. */
export function createImportProgressReader() {
  return createNdjsonReader<ImportProgressLine>(importProgressLineSchema);
}

/**
 * The import bar: the upload's bytes fill 0–50 %, the rows the server has processed fill 50–100 %
 * (against the rows counted when previewing). It stays below 100 until the result arrives.
 */
export function importPercent({
  uploadedBytes,
  totalBytes,
  rowsProcessed,
  estimatedRows,
  done,
}: {
  uploadedBytes: number;
  totalBytes: number;
  rowsProcessed: number;
  estimatedRows: number;
  done: boolean;
}): number {
  if (done) return 100;
  const uploaded = totalBytes > 0 ? Math.min(1, uploadedBytes / totalBytes) : 0;
  const processed = estimatedRows > 0 ? Math.min(1, rowsProcessed / estimatedRows) : 0;
  return Math.min(99, Math.floor(uploaded * 50 + processed * 50));
}
