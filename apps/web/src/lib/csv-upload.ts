import type { z } from 'zod';

import { ApiError } from '@/lib/api';
import { createNdjsonReader } from '@/lib/ndjson-reader';

/** The NDJSON lines a streaming CSV import answers with: progress, then its result or an error. */
export type CsvUploadLine =
  | { type: 'progress'; rows: number }
  | { type: 'result'; result: unknown }
  | { type: 'error'; status: number; message: string };

export interface CsvUploadHandlers {
  /** Bytes of the file sent so far. */
  onUpload?: (loaded: number, total: number) => void;
  /** Data rows the server has read so far. */
  onRows?: (rows: number) => void;
}

/**
 * POSTs the file to `url` streamed as a text/csv body. XMLHttpRequest (not fetch) because it reports
 * upload progress; the answer is NDJSON (progress lines of `lineSchema`, then the result or an error
 * line), read as it arrives. Failures reject with the app's transport error `ApiError`
 * ("{status}: {body}"), so the 401 rule and server messages work as for any other call.
 */
export function uploadCsvStreaming<Line extends CsvUploadLine>(
  url: string,
  file: File,
  lineSchema: z.ZodType<Line>,
  handlers: CsvUploadHandlers = {},
): Promise<Extract<Line, { type: 'result' }>['result']> {
  type Result = Extract<Line, { type: 'result' }>['result'];
  return new Promise<Result>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const reader = createNdjsonReader(lineSchema);
    let settled = false;
    const finish = (outcome: { result: Result } | { error: Error }) => {
      if (settled) return;
      settled = true;
      if ('result' in outcome) resolve(outcome.result);
      else reject(outcome.error);
    };
    const handleLines = (lines: Line[]) => {
      for (const line of lines) {
        if (line.type === 'progress') handlers.onRows?.(line.rows);
        else if (line.type === 'result') finish({ result: line.result as Result });
        else finish({ error: new ApiError(line.status, JSON.stringify({ message: line.message })) });
      }
    };
    const isNdjson = () => (xhr.getResponseHeader('Content-Type') ?? '').includes('application/x-ndjson');

    xhr.open('POST', url);
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
