import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImportResult } from '@sendwell/contract/contacts';

import { ApiError } from '@/lib/api';
import { urlWithQuery } from '@/lib/api-paged';
import { createNdjsonReader } from '../import-progress';
import { invalidateContactData } from './use-contacts';

/** Where the imported contacts go: an existing list, a new list by name, or no list. */
export type ImportTarget = { kind: 'none' } | { kind: 'existing'; listId: number } | { kind: 'new'; name: string };

export interface ImportProgressHandlers {
  /** Bytes of the file sent so far. */
  onUpload?: (loaded: number, total: number) => void;
  /** Data rows the server has processed so far. */
  onRows?: (rows: number) => void;
}

function importUrl(target: ImportTarget): string {
  if (target.kind === 'existing') return urlWithQuery('/api/contacts/import-csv', { listId: target.listId });
  if (target.kind === 'new')
    return urlWithQuery('/api/contacts/import-csv', { createNewList: 'true', newListName: target.name });
  return '/api/contacts/import-csv';
}

/**
 * POST /api/contacts/import-csv with the file streamed as a text/csv body. XMLHttpRequest (not
 * fetch) because it reports upload progress; the answer is NDJSON (progress lines, then the result
 * or an error line), read as it arrives. Failures reject with the app's transport error
 * `ApiError` ("{status}: {body}"), so the 401 rule and server messages work as for any other call.
 */
export function uploadCsvImport(
  file: File,
  target: ImportTarget,
  handlers: ImportProgressHandlers = {},
): Promise<ImportResult> {
  return new Promise<ImportResult>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const reader = createNdjsonReader();
    let settled = false;
    const finish = (outcome: { result: ImportResult } | { error: Error }) => {
      if (settled) return;
      settled = true;
      if ('result' in outcome) resolve(outcome.result);
      else reject(outcome.error);
    };
    const handleLines = (lines: ReturnType<typeof reader.push>) => {
      for (const line of lines) {
        if (line.type === 'progress') handlers.onRows?.(line.rows);
        else if (line.type === 'result') finish({ result: line.result });
        else finish({ error: new ApiError(line.status, JSON.stringify({ message: line.message })) });
      }
    };
    const isNdjson = () => (xhr.getResponseHeader('Content-Type') ?? '').includes('application/x-ndjson');

    xhr.open('POST', importUrl(target));
    xhr.withCredentials = true;
    xhr.setRequestHeader('Content-Type', 'text/csv');
    xhr.setRequestHeader('Accept', 'application/x-ndjson');
    xhr.upload.onprogress = (event) => {
      handlers.onUpload?.(event.loaded, event.lengthComputable ? event.total : file.size);
    };
    xhr.onprogress = () => {
      if (xhr.status >= 200 && xhr.status < 300 && isNdjson()) handleLines(reader.push(xhr.responseText));
    };
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) {
        finish({ error: new ApiError(xhr.status, xhr.responseText || xhr.statusText) });
        return;
      }
      handlers.onUpload?.(file.size, file.size);
      handleLines(reader.end(xhr.responseText));
      finish({ error: new ApiError(500, JSON.stringify({ message: 'The import ended without a result' })) });
    };
    xhr.onerror = () => finish({ error: new Error('Network error: the import could not reach the server') });
    xhr.onabort = () => finish({ error: new Error('The import was cancelled') });
    xhr.send(file);
  });
}

/** The import as a mutation (so a 401 takes the app's Unauthorized path); refreshes contacts and lists on success. */
export function useImportCsv() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, target, handlers }: { file: File; target: ImportTarget; handlers?: ImportProgressHandlers }) =>
      uploadCsvImport(file, target, handlers),
    onSuccess: () => invalidateContactData(queryClient),
  });
}
