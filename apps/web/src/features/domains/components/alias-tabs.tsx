import { AtSign, GitFork, Globe, Plus } from 'lucide-react';
import type { Domain } from '@sendwell/contract/domains';

import { EmptyState } from '@/components/empty-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

/** Popular aliases suggested for a domain (spec §2 aliases panel's suggestion card). */
const POPULAR_ALIASES = ['hello', 'support', 'info', 'sales'] as const;

function NoDomainsYet({ onAdd }: { onAdd: () => void }) {
  return (
    <EmptyState
      icon={Globe}
      title="Add a domain first"
      action={
        <Button onClick={onAdd}>
          <Plus aria-hidden="true" />
          Add Domain
        </Button>
      }
    >
      Aliases live on your own domains, so add one to get started.
    </EmptyState>
  );
}

/** Basic Aliases tab until alias management lands: its empty state, built from the user's domains. */
export function BasicAliasesTab({
  domains,
  primary,
  onAdd,
}: {
  domains: readonly Domain[];
  primary: Domain | undefined;
  onAdd: () => void;
}) {
  if (!primary) return <NoDomainsYet onAdd={onAdd} />;
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <div className="lg:col-span-2">
        <EmptyState icon={AtSign} title="No aliases yet">
          Aliases such as hello@{primary.domain} forward mail to your own inbox. Creating aliases on your{' '}
          {domains.length === 1 ? 'domain' : `${domains.length} domains`} is coming soon.
        </EmptyState>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>Popular aliases</h2>
          </CardTitle>
          <CardDescription>Addresses people expect on {primary.domain}.</CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="space-y-2 text-sm">
            {POPULAR_ALIASES.map((alias) => (
              <li key={alias} className="bg-muted rounded-md px-3 py-2 font-mono break-all">
                {alias}@{primary.domain}
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </div>
  );
}

/** Advanced Aliases tab until alias management lands: its empty state, built from the user's domains. */
export function AdvancedAliasesTab({ domains, onAdd }: { domains: readonly Domain[]; onAdd: () => void }) {
  if (domains.length === 0) return <NoDomainsYet onAdd={onAdd} />;
  return (
    <EmptyState icon={GitFork} title="No aliases to configure">
      Forwarding rules, several destinations, auto-replies and forwarding statistics for aliases on{' '}
      {domains.map((d) => d.domain).join(', ')} are coming soon.
    </EmptyState>
  );
}
