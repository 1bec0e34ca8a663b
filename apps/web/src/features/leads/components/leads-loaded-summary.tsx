import type { LeadsLoaded } from '@sendwell/contract/leads';

/** Rejected rows listed under the counts (the server answers at most 100). */
const ERRORS_SHOWN = 5;

/** What loading a lead list did: leads created, already known, rows rejected (with the first reasons). */
export function LeadsLoadedSummary({ result, title }: { result: LeadsLoaded; title: string }) {
  const counts = [
    { label: 'Created', value: result.created },
    { label: 'Already known', value: result.duplicates },
    { label: 'Rejected', value: result.skipped },
  ];
  return (
    <section className="bg-muted/40 space-y-3 rounded-lg border p-3" aria-label={title} data-testid="leads-loaded">
      <h3 className="text-sm font-medium">{title}</h3>
      <dl className="grid grid-cols-3 gap-2 text-center">
        {counts.map((count) => (
          <div key={count.label}>
            <dt className="text-muted-foreground text-xs">{count.label}</dt>
            <dd className="text-lg font-semibold">{count.value}</dd>
          </div>
        ))}
      </dl>
      {result.errors.length > 0 && (
        <ul className="text-muted-foreground space-y-0.5 text-xs" aria-label="Rejected rows">
          {result.errors.slice(0, ERRORS_SHOWN).map((error) => (
            <li key={error.row}>
              Row {error.row}: {error.message}
            </li>
          ))}
          {result.skipped > ERRORS_SHOWN && <li>…and {result.skipped - ERRORS_SHOWN} more</li>}
        </ul>
      )}
    </section>
  );
}
