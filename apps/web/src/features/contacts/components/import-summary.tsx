import { CircleCheck } from 'lucide-react';
import type { ImportResult } from '@sendwell/contract/contacts';

import { formatNumber } from '@/lib/format';

/** What an import did: imported, updated and skipped counts, the list the contacts went to, and the skipped rows' errors. */
export function ImportSummary({ result, listName }: { result: ImportResult; listName?: string }) {
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
          {unreported > 0 && (
            <p className="text-muted-foreground text-xs">…and {formatNumber(unreported)} more rows were skipped.</p>
          )}
        </div>
      )}
    </section>
  );
}
