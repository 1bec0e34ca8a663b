import { IMPORT_FIELD_LABELS, IMPORT_FIELDS } from '@sendwell/contract/contact-import';
import type { ContactList } from '@sendwell/contract/contacts';

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
import { formatNumber } from '@/lib/format';
import { ColumnMapping } from './column-mapping';
import { CsvPreviewTable } from './csv-preview-table';
import { ImportSummary } from './import-summary';
import { NEW_LIST, NO_LIST, useCsvImport } from './use-csv-import';

/** The fields besides email that columns are matched to, for the help text (first-hour finding 5: it named 4). */
const MATCHED_FIELDS = IMPORT_FIELDS.filter((field) => field !== 'email')
  .map((field) => (field === 'fullName' ? 'a full name' : IMPORT_FIELD_LABELS[field].toLowerCase()))
  .join(', ');

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
  const csv = useCsvImport(onOpenChange);
  const { result } = csv;

  return (
    <Dialog open={open} onOpenChange={csv.handleOpenChange}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Import CSV</DialogTitle>
          <DialogDescription>
            An email column is required. Other columns are matched to {MATCHED_FIELDS}; check the match after choosing
            the file. Existing contacts are updated, never duplicated.
          </DialogDescription>
        </DialogHeader>

        <div className="min-w-0 space-y-4">
          <div className="space-y-2">
            <Label htmlFor="import-csv-file">CSV file</Label>
            <Input
              key={csv.inputKey}
              id="import-csv-file"
              type="file"
              accept=".csv,text/csv"
              disabled={csv.importing}
              onChange={csv.onFileChange}
              aria-invalid={csv.fileError ? true : undefined}
              aria-describedby={csv.fileError ? 'import-csv-file-error' : undefined}
            />
            <FieldError id="import-csv-file-error" message={csv.fileError ?? undefined} />
          </div>

          {csv.file && csv.preview && <CsvPreviewTable file={csv.file} preview={csv.preview} />}

          {csv.file && csv.preview && csv.mapping.length > 0 && (
            <ColumnMapping
              headers={csv.preview.columns}
              sample={csv.preview.rows[0]}
              mapping={csv.mapping}
              disabled={csv.importing}
              onChange={csv.setColumn}
            />
          )}

          <div className="grid gap-4 sm:grid-cols-2">
            <div className="space-y-2">
              <Label htmlFor="import-csv-list">Add contacts to</Label>
              <Select value={csv.choice} disabled={csv.importing} onValueChange={csv.chooseList}>
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
            {csv.choice === NEW_LIST && (
              <div className="space-y-2">
                <Label htmlFor="import-csv-new-list">New list name</Label>
                <Input
                  id="import-csv-new-list"
                  autoComplete="off"
                  maxLength={120}
                  value={csv.newListName}
                  disabled={csv.importing}
                  onChange={(event) => csv.editNewListName(event.target.value)}
                  aria-invalid={csv.nameError ? true : undefined}
                  aria-describedby={csv.nameError ? 'import-csv-new-list-error' : undefined}
                />
                <FieldError id="import-csv-new-list-error" message={csv.nameError ?? undefined} />
              </div>
            )}
          </div>

          <div className="space-y-2">
            <Label htmlFor="import-csv-tag">
              Tag everyone in this import <span className="text-muted-foreground font-normal">(optional)</span>
            </Label>
            <Input
              id="import-csv-tag"
              autoComplete="off"
              maxLength={50}
              placeholder="e.g. spring-fair-2026"
              value={csv.tag}
              disabled={csv.importing}
              onChange={(event) => csv.setTag(event.target.value)}
            />
          </div>

          {csv.progress && (
            <div className="space-y-2" role="status">
              <Progress value={csv.percent} aria-label="Import progress" />
              <p className="text-muted-foreground text-sm">
                {csv.progress.uploaded < csv.progress.total
                  ? `Uploading… ${csv.percent}%`
                  : `Processing rows… ${formatNumber(csv.progress.rows)}${
                      csv.preview?.estimatedRows ? ` of about ${formatNumber(csv.preview.estimatedRows)}` : ''
                    }`}
              </p>
            </div>
          )}

          {result && (
            <ImportSummary
              result={result}
              listName={lists.find((list) => list.id === result.listId)?.name}
              skippedCsv={csv.skippedCsv}
            />
          )}
        </div>

        <DialogFooter>
          <Button
            type="button"
            variant={result ? 'default' : 'outline'}
            disabled={csv.importing}
            onClick={() => csv.handleOpenChange(false)}
          >
            {result ? 'Done' : 'Cancel'}
          </Button>
          <Button
            type="button"
            variant={result ? 'outline' : 'default'}
            disabled={csv.importing}
            onClick={csv.onImport}
          >
            {csv.importing ? 'Importing...' : 'Import Contacts'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
