import * as React from 'react';
import { CircleCheck, FileSpreadsheet } from 'lucide-react';
import {
  CSV_REQUIRED,
  LIST_NAME_REQUIRED,
  NOT_CSV,
  type ContactList,
  type ImportResult,
} from '@sendwell/contract/contacts';

import { FieldError } from '@/components/field-error';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Progress } from '@/components/ui/progress';
import { Select, SelectContent, SelectItem, SelectSeparator, SelectTrigger, SelectValue } from '@/components/ui/select';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { getApiErrorMessage, getApiErrorStatus } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { formatNumber } from '@/lib/format';
import { toast } from '@/lib/use-toast';
import { useImportCsv, type ImportTarget } from '../api/use-import-csv';
import { isCsvFile } from '../contact-rules';
import { readCsvPreview, type CsvPreview } from '../csv-preview';
import { importPercent } from '../import-progress';

/** Spec §8: the import failure toast. */
export const IMPORT_FAILED_TITLE = 'Import Failed';
export const IMPORT_FAILED_MESSAGE = 'Failed to import contacts. Please check your CSV format.';

const NO_LIST = 'none';
const NEW_LIST = 'new';

interface ImportProgressState {
  uploaded: number;
  total: number;
  rows: number;
}

/**
 * Import CSV (spec §2, §4, §5): choose a file, see its first 5 rows with lower-cased headers,
 * choose a list or name a new one, import with a progress bar driven by the upload and the rows the
 * server reports, then see what was imported, updated and skipped (with the rows' errors).
 */
export function ImportCsvDialog({
  open,
  onOpenChange,
  lists,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  lists: readonly ContactList[];
}) {
  const importCsv = useImportCsv();
  const [file, setFile] = React.useState<File | null>(null);
  const [fileError, setFileError] = React.useState<string | null>(null);
  const [preview, setPreview] = React.useState<(CsvPreview & { estimatedRows: number }) | null>(null);
  const [choice, setChoice] = React.useState(NO_LIST);
  const [newListName, setNewListName] = React.useState('');
  const [nameError, setNameError] = React.useState<string | null>(null);
  const [progress, setProgress] = React.useState<ImportProgressState | null>(null);
  const [result, setResult] = React.useState<ImportResult | null>(null);
  // A new key empties the file input (its value cannot be set from code).
  const [inputKey, setInputKey] = React.useState(0);
  const readToken = React.useRef(0);
  const importing = importCsv.isPending;

  const clearFile = () => {
    readToken.current += 1;
    setFile(null);
    setPreview(null);
    setInputKey((key) => key + 1);
  };

  const reset = () => {
    clearFile();
    setFileError(null);
    setChoice(NO_LIST);
    setNewListName('');
    setNameError(null);
    setProgress(null);
    setResult(null);
  };

  const handleOpenChange = (next: boolean) => {
    // An import in progress keeps the dialog open: its rows are being written.
    if (!next && importing) return;
    if (!next) reset();
    onOpenChange(next);
  };

  const onFileChange = async (event: React.ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    setResult(null);
    setProgress(null);
    setPreview(null);
    const token = ++readToken.current;
    if (!chosen) {
      setFile(null);
      return;
    }
    if (!isCsvFile(chosen)) {
      setFile(null);
      setFileError(NOT_CSV);
      return;
    }
    setFile(chosen);
    setFileError(null);
    try {
      const read = await readCsvPreview(chosen);
      if (token === readToken.current) setPreview(read);
    } catch {
      if (token === readToken.current) setFileError('The file could not be read. Please choose it again.');
    }
  };

  const onImport = async () => {
    let target: ImportTarget = { kind: 'none' };
    let valid = true;
    if (!file) {
      setFileError(CSV_REQUIRED);
      valid = false;
    }
    if (choice === NEW_LIST) {
      const name = newListName.trim();
      if (!name) {
        setNameError(LIST_NAME_REQUIRED);
        valid = false;
      }
      target = { kind: 'new', name };
    } else if (choice !== NO_LIST) {
      target = { kind: 'existing', listId: Number(choice) };
    }
    if (!valid || !file) return;

    setResult(null);
    setProgress({ uploaded: 0, total: file.size, rows: 0 });
    try {
      const imported = await importCsv.mutateAsync({
        file,
        target,
        handlers: {
          onUpload: (uploaded, total) => setProgress((p) => ({ rows: p?.rows ?? 0, uploaded, total })),
          onRows: (rows) => setProgress((p) => ({ uploaded: p?.uploaded ?? 0, total: p?.total ?? file.size, rows })),
        },
      });
      setResult(imported);
      setProgress(null);
      // Spec §4: the chosen file and preview are cleared once the import succeeded.
      clearFile();
      setChoice(NO_LIST);
      setNewListName('');
      toast({
        title: 'Import complete',
        description: `Imported ${formatNumber(imported.imported)}, updated ${formatNumber(imported.updated)}, skipped ${formatNumber(imported.skipped)}.`,
      });
    } catch (error) {
      setProgress(null);
      const message = getApiErrorMessage(error);
      if (choice === NEW_LIST && getApiErrorStatus(error) === 409 && message) setNameError(message);
      toastError(error, IMPORT_FAILED_MESSAGE, { title: IMPORT_FAILED_TITLE });
    }
  };

  const percent = progress
    ? importPercent({
        uploadedBytes: progress.uploaded,
        totalBytes: progress.total,
        rowsProcessed: progress.rows,
        estimatedRows: preview?.estimatedRows ?? 0,
        done: false,
      })
    : 0;

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Import CSV</DialogTitle>
          <DialogDescription>
            Columns: email (required), firstName, lastName, company. Existing contacts are updated, never duplicated.
          </DialogDescription>
        </DialogHeader>

        <div className="min-w-0 space-y-4">
          <div className="space-y-2">
            <Label htmlFor="import-csv-file">CSV file</Label>
            <Input
              key={inputKey}
              id="import-csv-file"
              type="file"
              accept=".csv,text/csv"
              disabled={importing}
              onChange={onFileChange}
              aria-invalid={fileError ? true : undefined}
              aria-describedby={fileError ? 'import-csv-file-error' : undefined}
            />
            <FieldError id="import-csv-file-error" message={fileError ?? undefined} />
          </div>

          {file && preview && (
            <section aria-labelledby="import-csv-preview-title" className="min-w-0 space-y-2">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h3 id="import-csv-preview-title" className="flex items-center gap-2 text-sm font-medium">
                  <FileSpreadsheet className="size-4" aria-hidden="true" />
                  Preview
                </h3>
                <p className="text-muted-foreground text-xs">
                  {file.name} · about {formatNumber(preview.estimatedRows)}{' '}
                  {preview.estimatedRows === 1 ? 'row' : 'rows'}
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
          )}

          <div className="grid gap-4 sm:grid-cols-2">
            <div className="space-y-2">
              <Label htmlFor="import-csv-list">Add contacts to</Label>
              <Select
                value={choice}
                disabled={importing}
                onValueChange={(value) => {
                  setChoice(value);
                  setNameError(null);
                }}
              >
                <SelectTrigger id="import-csv-list" className="w-full">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={NO_LIST}>No list</SelectItem>
                  {lists.map((list) => (
                    <SelectItem key={list.id} value={String(list.id)}>
                      {list.name}
                    </SelectItem>
                  ))}
                  <SelectSeparator />
                  <SelectItem value={NEW_LIST}>Create new list</SelectItem>
                </SelectContent>
              </Select>
            </div>
            {choice === NEW_LIST && (
              <div className="space-y-2">
                <Label htmlFor="import-csv-new-list">New list name</Label>
                <Input
                  id="import-csv-new-list"
                  autoComplete="off"
                  value={newListName}
                  disabled={importing}
                  onChange={(event) => {
                    setNewListName(event.target.value);
                    setNameError(null);
                  }}
                  aria-invalid={nameError ? true : undefined}
                  aria-describedby={nameError ? 'import-csv-new-list-error' : undefined}
                />
                <FieldError id="import-csv-new-list-error" message={nameError ?? undefined} />
              </div>
            )}
          </div>

          {progress && (
            <div className="space-y-2" role="status">
              <Progress value={percent} aria-label="Import progress" />
              <p className="text-muted-foreground text-sm">
                {progress.uploaded < progress.total
                  ? `Uploading… ${percent}%`
                  : `Processing rows… ${formatNumber(progress.rows)}${
                      preview?.estimatedRows ? ` of about ${formatNumber(preview.estimatedRows)}` : ''
                    }`}
              </p>
            </div>
          )}

          {result && <ImportSummary result={result} listName={lists.find((list) => list.id === result.listId)?.name} />}
        </div>

        <DialogFooter>
          <Button
            type="button"
            variant={result ? 'default' : 'outline'}
            disabled={importing}
            onClick={() => handleOpenChange(false)}
          >
            {result ? 'Done' : 'Cancel'}
          </Button>
          <Button type="button" variant={result ? 'outline' : 'default'} disabled={importing} onClick={onImport}>
            {importing ? 'Importing...' : 'Import Contacts'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function ImportSummary({ result, listName }: { result: ImportResult; listName?: string }) {
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
