import { CircleCheck, Download } from 'lucide-react';
import type { ImportResult } from '@sendwell/contract/contacts';

import { Button } from '@/components/ui/button';
import { formatNumber } from '@/lib/format';

/** Saves text as a file through a temporary link (the browser's own download). */
function downloadText(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * What an import did: imported, updated and skipped counts, the list the contacts went to, the
 * columns left out, the skipped rows' reasons and those rows as a CSV to fix and import again.
 */
export function ImportSummary({
  result,
  listName,
  skippedCsv,
}: {
  result: ImportResult;
  listName?: string;
  /** The skipped rows as CSV (null when there are none, or the file was too big to read again). */
  skippedCsv: string | null;
}) {
  const unreported = result.skipped - result.errors.length;
  return (
    <section aria-labelledby="import-csv-result-title" className="bg-muted/40 space-y-3 rounded-lg border p-4">
      <h3 id="import-csv-result-title" className="flex items-center gap-2 font-medium">
        <CircleCheck className="size-4 text-emerald-700 dark:text-emerald-400" aria-hidden="true" />
        Import results
      </h3>
      {listName && <p className="text-muted-foreground text-sm">Contacts were added to the list “{listName}”.</p>}
      <dl className="grid grid-cols-3 gap-2 text-center">
        {(
          [
            ['Imported', result.imported],
            ['Updated', result.updated],
            ['Skipped', result.skipped],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="bg-background rounded-md border p-2">
            <dt className="text-muted-foreground text-xs">{label}</dt>
            <dd className="text-lg font-semibold tabular-nums">{formatNumber(value)}</dd>
          </div>
        ))}
      </dl>
      {result.ignoredColumns.length > 0 && (
        <p className="text-sm" data-testid="ignored-columns">
          <span className="font-medium">Not imported:</span> the{' '}
          {result.ignoredColumns.length === 1 ? 'column' : `${result.ignoredColumns.length} columns`}{' '}
          {result.ignoredColumns.map((name) => `“${name}”`).join(', ')}.
        </p>
      )}
      {result.errors.length > 0 && (
        <div className="space-y-1">
          <h4 className="text-sm font-medium" id="import-csv-errors-title">
            Rows that were skipped
          </h4>
          <ul
            aria-labelledby="import-csv-errors-title"
            tabIndex={0}
            className="bg-background focus-visible:ring-ring/50 max-h-40 space-y-1 overflow-y-auto rounded-md border p-2 text-sm outline-none focus-visible:ring-[3px]"
          >
            {result.errors.map((error, index) => (
              <li key={`${error.row}-${index}`}>
                Row {error.row}: {error.message}
              </li>
            ))}
          </ul>
          {skippedCsv && (
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => downloadText(skippedCsv, 'skipped-rows.csv')}
            >
              <Download aria-hidden="true" />
              Download skipped rows (CSV)
            </Button>
          )}
          {unreported > 0 && (
            <p className="text-muted-foreground text-xs">…and {formatNumber(unreported)} more rows were skipped.</p>
          )}
        </div>
      )}
    </section>
  );
}
