import * as React from 'react';
import type { LeadsLoaded } from '@sendwell/contract/leads';

import { useRefreshLeadData } from '../api/use-leads';
import { uploadLeadCsv } from '../api/upload-lead-csv';
import { countCsvDataRows, leadImportPercent } from '../lead-csv';

/** Files up to this size are read whole to count their rows for the bar; bigger ones fill it by bytes only. */
const COUNT_ROWS_MAX_BYTES = 20 * 1024 * 1024;

type Progress = { uploaded: number; total: number; rows: number; fileRows: number };

/**
 * Streams a lead list to its csv source (the server reads, checks and de-duplicates every row) with
 * the bar's progress, and keeps the result (created, already known, rejected) for the screen.
 */
export function useLeadCsvUpload() {
  const refreshLeads = useRefreshLeadData();
  const [progress, setProgress] = React.useState<Progress | null>(null);
  const [result, setResult] = React.useState<LeadsLoaded | null>(null);

  const run = async (sourceId: number, file: File): Promise<LeadsLoaded> => {
    const fileRows = file.size <= COUNT_ROWS_MAX_BYTES ? countCsvDataRows(await file.text()) : 0;
    setResult(null);
    setProgress({ uploaded: 0, total: file.size, rows: 0, fileRows });
    try {
      const loaded = await uploadLeadCsv(sourceId, file, {
        onUpload: (uploaded, total) => setProgress((p) => (p ? { ...p, uploaded, total } : p)),
        onRows: (rows) => setProgress((p) => (p ? { ...p, rows } : p)),
      });
      setResult(loaded);
      return loaded;
    } finally {
      setProgress(null);
      await refreshLeads();
    }
  };

  const percent = progress
    ? leadImportPercent({
        uploadedBytes: progress.uploaded,
        totalBytes: progress.total,
        rowsRead: progress.rows,
        fileRows: progress.fileRows,
        done: false,
      })
    : 0;

  return { run, progress, percent, result, isPending: progress !== null };
}
