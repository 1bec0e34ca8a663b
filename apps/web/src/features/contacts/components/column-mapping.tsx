import {
  IGNORE_COLUMN,
  IMPORT_FIELD_LABELS,
  IMPORT_FIELDS,
  type ColumnMapping as Mapping,
} from '@sendwell/contract/contact-import';

import { Select, SelectContent, SelectItem, SelectSeparator, SelectTrigger, SelectValue } from '@/components/ui/select';

/**
 * "Match columns": each column of the file with its first value and the contact field it fills,
 * detected from the headers (Mailchimp, Brevo, HubSpot, Google Contacts…) and changeable, or
 * Ignore. Exactly what the server imports (first-hour finding 5: ignored columns went unmentioned).
 */
export function ColumnMapping({
  headers,
  sample,
  mapping,
  disabled,
  onChange,
}: {
  headers: readonly string[];
  /** The first data row, to show what each column holds. */
  sample: readonly string[] | undefined;
  mapping: readonly Mapping[];
  disabled: boolean;
  onChange: (index: number, value: Mapping) => void;
}) {
  const hasEmail = mapping.includes('email');
  return (
    <section aria-labelledby="import-columns-heading" className="space-y-2">
      <h3 id="import-columns-heading" className="text-sm font-medium">
        Match columns
      </h3>
      <p className="text-muted-foreground text-xs">
        Each column fills a contact field or is ignored. We matched them from the headers; change any that are wrong.
      </p>
      <ul className="divide-y rounded-md border" aria-label="Column mapping">
        {headers.map((header, index) => {
          const id = `import-column-${index}`;
          return (
            <li key={`${header}-${index}`} className="flex flex-wrap items-center gap-2 px-3 py-2 sm:flex-nowrap">
              <div className="min-w-0 flex-1">
                <label htmlFor={id} className="block truncate text-sm font-medium">
                  {header || `Column ${index + 1}`}
                </label>
                {sample?.[index] && (
                  <p className="text-muted-foreground truncate text-xs" title={sample[index]}>
                    e.g. {sample[index]}
                  </p>
                )}
              </div>
              <Select
                value={mapping[index] ?? IGNORE_COLUMN}
                disabled={disabled}
                onValueChange={(value) => onChange(index, value as Mapping)}
              >
                <SelectTrigger
                  id={id}
                  className="w-full sm:w-56"
                  aria-label={`Field for column ${header || index + 1}`}
                >
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {IMPORT_FIELDS.map((field) => (
                    <SelectItem key={field} value={field}>
                      {IMPORT_FIELD_LABELS[field]}
                    </SelectItem>
                  ))}
                  <SelectSeparator />
                  <SelectItem value={IGNORE_COLUMN}>Ignore this column</SelectItem>
                </SelectContent>
              </Select>
            </li>
          );
        })}
      </ul>
      {!hasEmail && (
        <p className="text-destructive text-sm" role="alert">
          Choose the column that holds the email addresses.
        </p>
      )}
    </section>
  );
}
