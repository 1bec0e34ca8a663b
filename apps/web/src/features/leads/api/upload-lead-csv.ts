import { leadImportProgressLineSchema, type LeadsLoaded } from '@sendwell/contract/leads';

import { uploadCsvStreaming, type CsvUploadHandlers } from '@/lib/csv-upload';

export type LeadCsvProgressHandlers = CsvUploadHandlers;

/** POST /api/lead-sources/:id/import-csv with the file streamed, its NDJSON progress read as it arrives. */
export function uploadLeadCsv(
  sourceId: number,
  file: File,
  handlers: LeadCsvProgressHandlers = {},
): Promise<LeadsLoaded> {
  return uploadCsvStreaming(`/api/lead-sources/${sourceId}/import-csv`, file, leadImportProgressLineSchema, handlers);
}
