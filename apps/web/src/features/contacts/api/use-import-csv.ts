import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ColumnMapping } from '@sendwell/contract/contact-import';
import { importProgressLineSchema, type ImportResult } from '@sendwell/contract/contacts';

import { urlWithQuery } from '@/lib/api-paged';
import { uploadCsvStreaming, type CsvUploadHandlers } from '@/lib/csv-upload';
import { invalidateContactData } from './use-contacts';

/** Where the imported contacts go: an existing list, a new list by name, or no list. */
export type ImportTarget = { kind: 'none' } | { kind: 'existing'; listId: number } | { kind: 'new'; name: string };

export type ImportProgressHandlers = CsvUploadHandlers;

/** How the file's columns are read, and a tag for everyone in it. */
export interface ImportOptions {
  /** One field (or 'ignore') per column; the server detects them when left out. */
  columns?: readonly ColumnMapping[];
  tag?: string;
}

function importUrl(target: ImportTarget, options: ImportOptions = {}): string {
  const extra = { columns: options.columns?.join(','), tag: options.tag };
  if (target.kind === 'existing') return urlWithQuery('/api/contacts/import-csv', { listId: target.listId, ...extra });
  if (target.kind === 'new')
    return urlWithQuery('/api/contacts/import-csv', { createNewList: 'true', newListName: target.name, ...extra });
  return urlWithQuery('/api/contacts/import-csv', extra);
}

/** POST /api/contacts/import-csv with the file streamed, its NDJSON progress read as it arrives. */
function uploadCsvImport(
  file: File,
  target: ImportTarget,
  handlers: ImportProgressHandlers = {},
  options: ImportOptions = {},
): Promise<ImportResult> {
  return uploadCsvStreaming(importUrl(target, options), file, importProgressLineSchema, handlers);
}

/** The import as a mutation (so a 401 takes the app's Unauthorized path); refreshes contacts and lists on success. */
export function useImportCsv() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      file,
      target,
      handlers,
      options,
    }: {
      file: File;
      target: ImportTarget;
      handlers?: ImportProgressHandlers;
      options?: ImportOptions;
    }) => uploadCsvImport(file, target, handlers, options),
    onSuccess: () => invalidateContactData(queryClient),
  });
}
