import { FileSpreadsheet } from 'lucide-react';

import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatNumber } from '@/lib/format';
import type { CsvPreview } from '../csv-preview';

/** The chosen file's first rows, with their lower-cased headers, and about how many rows it has. */
export function CsvPreviewTable({ file, preview }: { file: File; preview: CsvPreview & { estimatedRows: number } }) {
  return (
    <section aria-labelledby="import-csv-preview-title" className="min-w-0 space-y-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id="import-csv-preview-title" className="flex items-center gap-2 text-sm font-medium">
          <FileSpreadsheet className="size-4" aria-hidden="true" />
          Preview
        </h3>
        <p className="text-muted-foreground text-xs">
          {file.name} · about {formatNumber(preview.estimatedRows)} {preview.estimatedRows === 1 ? 'row' : 'rows'}
        </p>
      </div>
      {preview.headers.length === 0 ? (
        <p className="text-muted-foreground text-sm">The file is empty.</p>
      ) : (
        // Its own scroll container (not the Table component's) so that keyboard users can scroll it too.
        <div
          role="region"
          aria-label="CSV preview, scrollable"
          tabIndex={0}
          className="focus-visible:ring-ring/50 overflow-x-auto rounded-md border outline-none focus-visible:ring-[3px]"
        >
          <table aria-label="First rows of the file" className="w-full caption-bottom text-sm">
            <TableHeader>
              <TableRow>
                {preview.headers.map((header, index) => (
                  <TableHead key={index}>{header}</TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {preview.rows.map((row, rowIndex) => (
                <TableRow key={rowIndex}>
                  {preview.headers.map((_, cellIndex) => (
                    <TableCell key={cellIndex} className="max-w-48 truncate">
                      {row[cellIndex] ?? ''}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </table>
        </div>
      )}
    </section>
  );
}
