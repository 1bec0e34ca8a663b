import type { DnsRecord } from '@sendwell/contract/domains';

import { cn } from '@/lib/utils';
import { RECORD_PURPOSES, RECORD_TITLES, relativeHost } from '../domain-display';
import { CopyButton } from './copy-button';
import { RecordStatusBadge } from './status-badges';

/** One labelled, copyable field of a record (host or value). */
function RecordField({
  label,
  value,
  copyLabel,
  hint,
  field,
}: {
  label: string;
  value: string;
  copyLabel: string;
  hint?: string;
  field: string;
}) {
  return (
    <div className="space-y-1">
      <dt className="text-muted-foreground text-xs font-medium tracking-wide uppercase">{label}</dt>
      <dd className="flex items-start gap-2">
        <code className="bg-muted min-w-0 flex-1 rounded-md px-2 py-1.5 font-mono text-xs break-all" data-field={field}>
          {value}
        </code>
        <CopyButton value={value} label={copyLabel} />
      </dd>
      {hint && <dd className="text-muted-foreground text-xs">{hint}</dd>}
    </div>
  );
}

/**
 * One DNS record as the user must publish it: type, host and value (each copyable), its real
 * status from the last look-up, and what was found when it is wrong.
 */
export function DnsRecordItem({
  record,
  domain,
  className,
}: {
  record: DnsRecord;
  domain: string;
  className?: string;
}) {
  const title = RECORD_TITLES[record.kind];
  const kind = record.kind.toUpperCase().replace('-', ' ');
  const shortHost = relativeHost(record, domain);
  return (
    <section aria-label={title} className={cn('space-y-3 rounded-lg border p-4', className)} data-record={record.kind}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 className="font-semibold">{title}</h3>
          <p className="text-muted-foreground text-sm">{RECORD_PURPOSES[record.kind]}</p>
        </div>
        <RecordStatusBadge status={record.status} />
      </div>
      <dl className="space-y-3">
        <div className="space-y-1">
          <dt className="text-muted-foreground text-xs font-medium tracking-wide uppercase">Type</dt>
          <dd>
            <code className="font-mono text-xs">
              {record.type}
              {record.priority !== undefined ? ` (priority ${record.priority})` : ''}
            </code>
          </dd>
        </div>
        <RecordField
          label="Host"
          field="host"
          value={record.host}
          copyLabel={`Copy ${kind} host`}
          hint={shortHost !== record.host ? `Many DNS providers want just “${shortHost}” here.` : undefined}
        />
        <RecordField label="Value" field="value" value={record.value} copyLabel={`Copy ${kind} value`} />
      </dl>
      {record.status !== 'verified' && (
        <div className="space-y-1 text-sm" role="note">
          {record.note && <p className="text-muted-foreground">{record.note}</p>}
          {record.found && (
            <div>
              <p className="font-medium">Found instead:</p>
              <pre className="bg-muted rounded-md px-2 py-1.5 font-mono text-xs break-all whitespace-pre-wrap">
                {record.found}
              </pre>
            </div>
          )}
        </div>
      )}
    </section>
  );
}

/** The three records of a domain, in the order SPF, DKIM, DMARC. */
export function DnsRecordList({ records, domain }: { records: readonly DnsRecord[]; domain: string }) {
  return (
    <div className="space-y-3">
      {records.map((record) => (
        <DnsRecordItem key={record.kind} record={record} domain={domain} />
      ))}
    </div>
  );
}
