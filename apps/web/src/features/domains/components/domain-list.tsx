import { Globe, Plus, Settings2, Server } from 'lucide-react';
import type { Domain } from '@sendwell/contract/domains';

import { EmptyState } from '@/components/empty-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate } from '@/lib/format';
import { DOMAIN_SKELETON_ROWS } from '../domain-display';
import { DomainStatusBadge } from './status-badges';

/** The Domains tab (spec §2): skeleton of 2 rows, the empty state, or each domain with Configure and DNS. */
export function DomainList({
  domains,
  isLoading,
  isError,
  onAdd,
  onConfigure,
  onShowDns,
}: {
  domains: readonly Domain[] | undefined;
  isLoading: boolean;
  isError: boolean;
  onAdd: () => void;
  onConfigure: (domain: Domain) => void;
  onShowDns: (domain: Domain) => void;
}) {
  if (isLoading) {
    return (
      <Card aria-busy="true" aria-label="Loading domains">
        <CardContent className="divide-y">
          {Array.from({ length: DOMAIN_SKELETON_ROWS }, (_, i) => (
            <div key={i} className="flex items-center gap-4 py-4" data-testid="domain-skeleton-row">
              <Skeleton className="size-10 rounded-lg" />
              <div className="flex-1 space-y-2">
                <Skeleton className="h-4 w-48" />
                <Skeleton className="h-3 w-32" />
              </div>
              <Skeleton className="h-8 w-40" />
            </div>
          ))}
        </CardContent>
      </Card>
    );
  }
  if (isError) {
    return (
      <p className="text-destructive text-sm" role="alert">
        Could not load your domains. Please refresh the page.
      </p>
    );
  }
  if (!domains || domains.length === 0) {
    return (
      <EmptyState
        icon={Globe}
        title="No domains configured"
        action={
          <Button onClick={onAdd}>
            <Plus aria-hidden="true" />
            Add Your First Domain
          </Button>
        }
      >
        Add a domain you own to send from your own address, with SPF, DKIM and DMARC set up for you to publish.
      </EmptyState>
    );
  }
  return (
    <Card>
      <CardContent>
        <ul className="divide-y" aria-label="Your domains">
          {domains.map((domain) => (
            <li
              key={domain.id}
              className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center"
              data-domain={domain.domain}
            >
              <div className="flex min-w-0 flex-1 items-center gap-3">
                <span className="bg-muted flex size-10 shrink-0 items-center justify-center rounded-lg">
                  <Globe className="size-5" aria-hidden="true" />
                </span>
                <div className="min-w-0 space-y-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <p className="truncate font-medium">{domain.domain}</p>
                    <DomainStatusBadge isVerified={domain.isVerified} />
                    {domain.isPrimary && <Badge variant="outline">Primary</Badge>}
                  </div>
                  <p className="text-muted-foreground text-sm">Added {formatDate(domain.createdAt)}</p>
                </div>
              </div>
              <div className="flex shrink-0 gap-2">
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => onConfigure(domain)}
                  aria-label={`Configure ${domain.domain}`}
                >
                  <Settings2 aria-hidden="true" />
                  Configure
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => onShowDns(domain)}
                  aria-label={`DNS records of ${domain.domain}`}
                >
                  <Server aria-hidden="true" />
                  DNS
                </Button>
              </div>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
