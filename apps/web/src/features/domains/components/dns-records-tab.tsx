import { Lightbulb, Plus, RefreshCw, Server } from 'lucide-react';
import type { Domain } from '@sendwell/contract/domains';

import { EmptyState } from '@/components/empty-state';
import { Button } from '@/components/ui/button';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useVerifyDomain } from '../api/use-domains';
import { formatTimeAgo, verifiedCount } from '../domain-display';
import { DnsRecordItem } from './dns-record-list';
import { DomainPicker } from '@/components/domain-picker';

/**
 * The DNS Records tab (spec §2): the SPF, DKIM and DMARC cards of the chosen domain (the primary
 * one by default) with each record's real status, and a Pro Tip; 'No domains to configure' without domains.
 */
export function DnsRecordsTab({
  domains,
  selected,
  onSelect,
  onAdd,
}: {
  domains: readonly Domain[];
  selected: Domain | undefined;
  onSelect: (id: number) => void;
  onAdd: () => void;
}) {
  const verify = useVerifyDomain();
  if (!selected) {
    return (
      <EmptyState
        icon={Server}
        title="No domains to configure"
        action={
          <Button onClick={onAdd}>
            <Plus aria-hidden="true" />
            Add Domain
          </Button>
        }
      >
        Add a domain to see the SPF, DKIM and DMARC records to publish.
      </EmptyState>
    );
  }
  const allVerified = verifiedCount(selected) === 3;
  const checkNow = async () => {
    try {
      const checked = await verify.mutateAsync(selected.id);
      toast({
        title: checked.isVerified ? `${checked.domain} is verified` : 'Not verified yet',
        description: `${verifiedCount(checked)} of 3 records verified.`,
      });
    } catch (failure) {
      toastError(failure, 'Failed to check the DNS records. Please try again.', { serverMessage: 'client-error' });
    }
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-lg font-semibold break-all">DNS records for {selected.domain}</h2>
          <p className="text-muted-foreground text-sm">Last checked {formatTimeAgo(selected.lastCheckedAt)}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <DomainPicker id="dns-domain-picker" domains={domains} value={selected} onChange={onSelect} />
          <Button variant="outline" onClick={() => void checkNow()} disabled={verify.isPending}>
            <RefreshCw className={verify.isPending ? 'animate-spin' : undefined} aria-hidden="true" />
            {verify.isPending ? 'Checking...' : 'Check now'}
          </Button>
        </div>
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        {selected.records.map((record) => (
          <DnsRecordItem key={record.kind} record={record} domain={selected.domain} className="bg-card" />
        ))}
      </div>
      <section aria-labelledby="return-path-heading" className="space-y-3">
        <div>
          <h3 id="return-path-heading" className="font-semibold">
            Return path for bounces (optional)
          </h3>
          <p className="text-muted-foreground text-sm">
            {selected.returnPathVerified
              ? `Bounces of mail from ${selected.domain} come back to bounces.${selected.domain}.`
              : `Publish these two records so bounces come back to bounces.${selected.domain}; until then they use the default return path.`}
          </p>
        </div>
        <div className="grid gap-4 lg:grid-cols-2">
          {selected.returnPathRecords.map((record) => (
            <DnsRecordItem key={record.kind} record={record} domain={selected.domain} className="bg-card" />
          ))}
        </div>
      </section>
      <div className="flex items-start gap-3 rounded-lg border p-4 text-sm" role="note">
        <Lightbulb className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden="true" />
        <p>
          <span className="font-semibold">Pro Tip: </span>
          {allVerified
            ? 'All records are configured. Keep them published: we re-check daily and tell you if one disappears.'
            : 'DNS changes can take 24-48 hours to propagate. We re-check every 15 minutes for the first 48 hours, then hourly, and tell you when the domain is verified.'}
        </p>
      </div>
    </div>
  );
}
