import { Mail, RefreshCw } from 'lucide-react';
import type { Domain } from '@sendwell/contract/domains';

import { DomainPicker } from '@/components/domain-picker';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';
import { useInboundMx } from '../api/use-inbound-mx';
import { CopyButton } from './copy-button';
import { RecordStatusBadge } from './status-badges';

function Field({
  label,
  value,
  copyLabel,
  className,
}: {
  label: string;
  value: string;
  copyLabel?: string;
  className?: string;
}) {
  return (
    <div className={cn('space-y-1', className)}>
      <dt className="text-muted-foreground text-xs font-medium tracking-wide uppercase">{label}</dt>
      <dd className="flex items-start gap-2">
        <code className="bg-muted min-w-0 flex-1 rounded-md px-2 py-1.5 font-mono text-xs break-all" data-field={label}>
          {value}
        </code>
        {copyLabel && <CopyButton value={value} label={copyLabel} />}
      </dd>
    </div>
  );
}

/**
 * The MX record that sends a domain's mail straight to Sendwell's inbound SMTP server, with its
 * live DNS status (looked up on each visit and by Check again). Without an inbound SMTP server on
 * this installation, mail comes in through the webhook only, and the card says so.
 */
export function InboundMxCard({
  domains,
  domain,
  onSelect,
}: {
  domains: readonly Domain[];
  domain: Domain;
  onSelect: (id: number) => void;
}) {
  const mx = useInboundMx(domain.id);
  const data = mx.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="flex items-center gap-2">
            <Mail className="size-4" aria-hidden="true" />
            Receive mail directly (MX record)
          </h2>
        </CardTitle>
        <CardDescription>
          Point {domain.domain}&apos;s MX record at Sendwell and mail to your aliases arrives here without another
          service. Mail to addresses that are not active aliases is refused.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <DomainPicker id="inbound-mx-domain-picker" domains={domains} value={domain} onChange={onSelect} />
        {mx.isLoading ? (
          <div className="space-y-2" aria-busy="true" aria-label="Looking up the MX record">
            <Skeleton className="h-8 w-full" />
            <Skeleton className="h-8 w-2/3" />
          </div>
        ) : mx.isError || !data ? (
          <p className="text-destructive text-sm" role="alert">
            Could not look up the MX record. Please try again.
          </p>
        ) : !data.smtpEnabled ? (
          <p className="bg-muted rounded-md p-3 text-sm" role="note">
            This Sendwell installation runs no inbound mail server, so mail reaches your aliases through the webhook
            above. Whoever runs it can start one by setting <code className="font-mono">INBOUND_SMTP_PORT</code>.
          </p>
        ) : (
          <section aria-label="MX record" className="space-y-3 rounded-lg border p-4" data-record="mx">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 className="font-semibold">MX record</h3>
              <RecordStatusBadge status={data.record.status} />
            </div>
            <dl className="grid gap-3 sm:grid-cols-[6rem_6rem_minmax(0,1fr)]">
              <Field label="Type" value={data.record.type} />
              <Field label="Priority" value={String(data.record.priority)} />
              <Field label="Host" value={data.record.host} copyLabel="Copy MX host" />
              <Field label="Value" value={data.record.value} copyLabel="Copy MX value" className="sm:col-span-3" />
            </dl>
            {data.record.status !== 'verified' && (data.record.note || data.record.found) && (
              <div className="space-y-1 text-sm" role="note">
                {data.record.note && <p className="text-muted-foreground">{data.record.note}</p>}
                {data.record.found && (
                  <p>
                    Found now:{' '}
                    <code className="font-mono text-xs break-all whitespace-pre-wrap">{data.record.found}</code>
                  </p>
                )}
              </div>
            )}
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="text-muted-foreground text-xs">
                Checked {new Date(data.checkedAt).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })}
              </p>
              <Button size="sm" variant="outline" onClick={() => void mx.refetch()} disabled={mx.isFetching}>
                {mx.isFetching ? <Spinner className="size-4" label="Checking" /> : <RefreshCw aria-hidden="true" />}
                Check again
              </Button>
            </div>
          </section>
        )}
      </CardContent>
    </Card>
  );
}
