import * as React from 'react';
import { GitFork, Plus } from 'lucide-react';
import type { Domain } from '@sendwell/contract/domains';

import { DomainPicker } from '@/components/domain-picker';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';
import { useAliases } from '../api/use-aliases';
import { AliasStatusBadge } from './alias-badges';
import { AliasDetail } from './alias-detail';
import { ConfirmDeleteDialog } from './confirm-delete-dialog';
import { CreateAdvancedAliasDialog } from './create-advanced-alias-dialog';
import { NoDomainsYet } from './no-domains-yet';
import { useAliasActions } from './use-alias-actions';

/**
 * The advanced aliases panel (Domain Settings → Advanced Aliases, spec §2): the chosen domain's
 * aliases on the left; on the right, tabs Overview, Forwarding Rules, Destinations and Analytics
 * for the selected alias, a Test button and its activity log.
 */
export function AdvancedAliasesPanel({
  domains,
  primary,
  accountEmail,
  onAddDomain,
}: {
  domains: readonly Domain[];
  primary: Domain | undefined;
  /** The signed-in user's address: the default sender of a test message. */
  accountEmail: string;
  onAddDomain: () => void;
}) {
  const [domainId, setDomainId] = React.useState<number | null>(null);
  const domain = domains.find((d) => d.id === domainId) ?? primary;
  const aliases = useAliases(domain?.id ?? null);
  const [selectedId, setSelectedId] = React.useState<number | null>(null);
  const [creating, setCreating] = React.useState(false);
  const actions = useAliasActions({ onDeleted: () => setSelectedId(null) });

  if (!domain) return <NoDomainsYet onAdd={onAddDomain} />;
  const list = aliases.data ?? [];
  const selected = list.find((a) => a.id === selectedId) ?? list[0];

  return (
    <div className="space-y-4">
      <DomainPicker
        id="advanced-aliases-domain-picker"
        domains={domains}
        value={domain}
        onChange={(id) => {
          setDomainId(id);
          setSelectedId(null);
        }}
      />
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[15rem_minmax(0,1fr)]">
        <Card className="self-start">
          <CardHeader>
            <CardTitle>
              <h2>Aliases</h2>
            </CardTitle>
            <CardDescription className="break-all">on {domain.domain}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-3">
            <Button className="w-full" onClick={() => setCreating(true)}>
              <Plus aria-hidden="true" />
              New Alias
            </Button>
            {aliases.isLoading ? (
              <div className="space-y-2" aria-busy="true" aria-label="Loading aliases">
                <Skeleton className="h-10 w-full" />
                <Skeleton className="h-10 w-full" />
              </div>
            ) : aliases.isError ? (
              <p className="text-destructive text-sm" role="alert">
                Could not load the aliases.
              </p>
            ) : (
              <ul className="space-y-1" aria-label="Aliases">
                {list.map((alias) => (
                  <li key={alias.id}>
                    <button
                      type="button"
                      onClick={() => setSelectedId(alias.id)}
                      aria-current={alias.id === selected?.id ? 'true' : undefined}
                      className={cn(
                        'hover:bg-muted focus-visible:ring-ring/50 flex w-full items-center justify-between gap-2 rounded-md px-3 py-2 text-left text-sm outline-none focus-visible:ring-[3px]',
                        alias.id === selected?.id && 'bg-muted font-medium',
                      )}
                    >
                      <span className="min-w-0 truncate font-mono">
                        {alias.alias === '*' ? '* (catch-all)' : alias.alias}
                      </span>
                      <AliasStatusBadge alias={alias} />
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
        {selected ? (
          <AliasDetail
            key={selected.id}
            alias={selected}
            accountEmail={accountEmail}
            onDelete={() => actions.askDelete(selected)}
          />
        ) : (
          !aliases.isLoading && (
            <Card>
              <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
                <span className="bg-muted flex size-12 items-center justify-center rounded-full">
                  <GitFork className="size-6" aria-hidden="true" />
                </span>
                <h2 className="text-lg font-semibold">No aliases to configure</h2>
                <p className="text-muted-foreground max-w-md text-sm">
                  Create an alias to give it forwarding rules, several destinations, an auto-reply and statistics.
                </p>
              </CardContent>
            </Card>
          )
        )}
      </div>
      <CreateAdvancedAliasDialog
        domain={domain}
        open={creating}
        onOpenChange={setCreating}
        onCreated={(alias) => setSelectedId(alias.id)}
      />
      <ConfirmDeleteDialog
        title={actions.deleting ? `Delete ${actions.deleting.address}?` : null}
        description="Mail to this address will be refused from now on. Its rules, destinations and activity are deleted with it."
        pending={actions.deletePending}
        onConfirm={actions.confirmDelete}
        onCancel={actions.cancelDelete}
      />
    </div>
  );
}
