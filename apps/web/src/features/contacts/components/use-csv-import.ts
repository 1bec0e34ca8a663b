import * as React from 'react';
import { detectColumns, type ColumnMapping } from '@sendwell/contract/contact-import';
import { CSV_REQUIRED, LIST_NAME_REQUIRED, NOT_CSV, type ImportResult } from '@sendwell/contract/contacts';

import { getApiErrorFields, getApiErrorMessage, getApiErrorStatus } from '@/lib/api';
import { formatNumber } from '@/lib/format';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useImportCsv, type ImportTarget } from '../api/use-import-csv';
import { isCsvFile } from '../contact-rules';
import { readCsvPreview, skippedRowsCsv, type CsvPreview } from '../csv-preview';
import { importPercent } from '../import-progress';

/** Spec §8: the import failure toast. */
const IMPORT_FAILED_TITLE = 'Import Failed';
const IMPORT_FAILED_MESSAGE = 'Failed to import contacts. Please check your CSV format.';

/** The list choices besides the user's lists (whose values are their ids). */
export const NO_LIST = 'none';
export const NEW_LIST = 'new';

interface ImportProgressState {
  uploaded: number;
  total: number;
  rows: number;
}

/**
 * The Import CSV dialog's state: the chosen file and its preview, the target list (none, an
 * existing one, or a new one by name), the import's progress and its result, and the errors shown.
 */
export function useCsvImport(onOpenChange: (open: boolean) => void) {
  const importCsv = useImportCsv();
  const [file, setFile] = React.useState<File | null>(null);
  const [fileError, setFileError] = React.useState<string | null>(null);
  const [preview, setPreview] = React.useState<(CsvPreview & { estimatedRows: number }) | null>(null);
  const [choice, setChoice] = React.useState(NO_LIST);
  const [newListName, setNewListName] = React.useState('');
  const [nameError, setNameError] = React.useState<string | null>(null);
  const [progress, setProgress] = React.useState<ImportProgressState | null>(null);
  const [result, setResult] = React.useState<ImportResult | null>(null);
  /** One field (or 'ignore') per column of the chosen file: detected from its headers, changeable. */
  const [mapping, setMapping] = React.useState<ColumnMapping[]>([]);
  const [tag, setTag] = React.useState('');
  /** The skipped rows as CSV, for the result's download (null when none, or the file is too big). */
  const [skippedCsv, setSkippedCsv] = React.useState<string | null>(null);
  // A new key empties the file input (its value cannot be set from code).
  const [inputKey, setInputKey] = React.useState(0);
  const readToken = React.useRef(0);
  const importing = importCsv.isPending;

  const clearFile = () => {
    readToken.current += 1;
    setFile(null);
    setPreview(null);
    setMapping([]);
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
    setTag('');
    setSkippedCsv(null);
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
    setSkippedCsv(null);
    setProgress(null);
    setPreview(null);
    setMapping([]);
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
      if (token === readToken.current) {
        setPreview(read);
        setMapping(detectColumns(read.columns));
      }
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
    if (mapping.length > 0 && !mapping.includes('email')) valid = false; // the mapping says so on screen
    if (!valid || !file) return;

    setResult(null);
    setProgress({ uploaded: 0, total: file.size, rows: 0 });
    try {
      const imported = await importCsv.mutateAsync({
        file,
        target,
        options: { columns: mapping.length > 0 ? mapping : undefined, tag: tag.trim() || undefined },
        handlers: {
          onUpload: (uploaded, total) => setProgress((p) => ({ rows: p?.rows ?? 0, uploaded, total })),
          onRows: (rows) => setProgress((p) => ({ uploaded: p?.uploaded ?? 0, total: p?.total ?? file.size, rows })),
        },
      });
      setResult(imported);
      setSkippedCsv(await skippedRowsCsv(file, imported.errors).catch(() => null));
      setProgress(null);
      // Spec §4: the chosen file and preview are cleared once the import succeeded.
      clearFile();
      setChoice(NO_LIST);
      setNewListName('');
      setTag('');
      toast({
        title: 'Import complete',
        description: `Imported ${formatNumber(imported.imported)}, updated ${formatNumber(imported.updated)}, skipped ${formatNumber(imported.skipped)}.`,
      });
    } catch (error) {
      setProgress(null);
      const message = getApiErrorMessage(error);
      if (choice === NEW_LIST && getApiErrorStatus(error) === 409 && message) setNameError(message);
      const nameField = getApiErrorFields(error).newListName;
      if (choice === NEW_LIST && nameField) setNameError(nameField);
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

  return {
    importing,
    file,
    fileError,
    preview,
    choice,
    chooseList: (value: string) => {
      setChoice(value);
      setNameError(null);
    },
    newListName,
    editNewListName: (value: string) => {
      setNewListName(value);
      setNameError(null);
    },
    nameError,
    mapping,
    setColumn: (index: number, value: ColumnMapping) =>
      setMapping((current) => current.map((field, at) => (at === index ? value : field))),
    tag,
    setTag,
    skippedCsv,
    progress,
    /** The import's progress in percent (0 while none runs). */
    percent,
    result,
    inputKey,
    handleOpenChange,
    onFileChange,
    onImport,
  };
}
