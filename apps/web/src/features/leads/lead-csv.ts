// A lead list goes to the server whole (POST /api/lead-sources/:id/import-csv, streamed as text/csv),
// which reads, checks and de-duplicates it; these pure helpers read its NDJSON progress answer and
// turn the numbers into the bar and the result lines.
import { createNdjsonReader } from '@/lib/ndjson-reader';
import { leadImportProgressLineSchema, type LeadImportProgressLine, type LeadsLoaded } from '@sendwell/contract/leads';

/** The import's progress lines, read as they arrive. */
export function createLeadImportReader() {
  return createNdjsonReader<LeadImportProgressLine>(leadImportProgressLineSchema);
}

/** Data rows in a CSV text, counted by its lines (a last line without '\n' counts) minus the header. */
export function countCsvDataRows(text: string): number {
  if (text.length === 0) return 0;
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines += 1;
  if (!text.endsWith('\n')) lines += 1;
  return Math.max(0, lines - 1);
}

/**
 * The import bar: the upload's bytes fill 0–50 %, the rows the server has read fill 50–100 %
 * (against the rows counted in the file). It stays below 100 until the result arrives.
 */
export function leadImportPercent(progress: {
  uploadedBytes: number;
  totalBytes: number;
  rowsRead: number;
  fileRows: number;
  done: boolean;
}): number {
  if (progress.done) return 100;
  const uploaded = progress.totalBytes > 0 ? Math.min(1, progress.uploadedBytes / progress.totalBytes) : 0;
  const read = progress.fileRows > 0 ? Math.min(1, progress.rowsRead / progress.fileRows) : 0;
  return Math.min(99, Math.floor(uploaded * 50 + read * 50));
}

const leads = (count: number) => `${count} ${count === 1 ? 'lead' : 'leads'}`;

/** One line for a toast: what loading leads did ('3 leads added, 1 already known, 2 rejected.'). */
export function leadsLoadedText(result: Pick<LeadsLoaded, 'created' | 'duplicates' | 'skipped'>): string {
  const parts = [`${leads(result.created)} added`];
  if (result.duplicates > 0) parts.push(`${result.duplicates} already known`);
  if (result.skipped > 0) parts.push(`${result.skipped} rejected`);
  return `${parts.join(', ')}.`;
}
