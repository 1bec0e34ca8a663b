import * as React from 'react';
import { AtSign } from 'lucide-react';
import type { EmailAlias } from '@sendwell/contract/aliases';
import type { Domain } from '@sendwell/contract/domains';

import { DomainPicker } from '@/components/domain-picker';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useAliases } from '../api/use-aliases';
import { AliasRow } from './alias-row';
import { ConfigureAliasDialog } from './configure-alias-dialog';
import { ConfirmDeleteDialog } from './confirm-delete-dialog';
import { CreateAliasForm } from './create-alias-form';
import { NoDomainsYet } from './no-domains-yet';
import { PopularAliasesCard } from './popular-aliases-card';
import { TestResultDialog } from './test-result-dialog';
import { useAliasActions } from './use-alias-actions';
import { useAliasTest } from './use-alias-test';

function AliasListSkeleton() {
  return (
    <div className="space-y-3 p-4" aria-busy="true" aria-label="Loading aliases">
      <Skeleton className="h-5 w-64" />
      <Skeleton className="h-5 w-48" />
    </div>
  );
}

/**
 * The email aliases panel (Domain Settings → Basic Aliases, spec §2): the chosen domain's aliases
 * with their Pending/Active badges, Add Alias, Test, Configure, a delete confirmation, and the
 * popular-aliases suggestion card. The default domain is the primary one.
 */
export function EmailAliasesPanel({
  domains,
  primary,
  onAddDomain,
}: {
  domains: readonly Domain[];
  primary: Domain | undefined;
  onAddDomain: () => void;
}) {
  const [domainId, setDomainId] = React.useState<number | null>(null);
  const domain = domains.find((d) => d.id === domainId) ?? primary;
  const aliases = useAliases(domain?.id ?? null);
  const [draftAlias, setDraftAlias] = React.useState('');
  const [configuringId, setConfiguringId] = React.useState<number | null>(null);
  const actions = useAliasActions();
  const test = useAliasTest();

  if (!domain) return <NoDomainsYet onAdd={onAddDomain} />;
  const list: EmailAlias[] = aliases.data ?? [];
  const configuring = list.find((a) => a.id === configuringId) ?? null;

  return (
    <div className="space-y-4">
      <DomainPicker id="aliases-domain-picker" domains={domains} value={domain} onChange={setDomainId} />
      <div className="grid grid-cols-1 gap-4 2xl:grid-cols-3">
        <Card className="2xl:col-span-2">
          <CardHeader>
            <CardTitle>
              <h2>Email aliases</h2>
            </CardTitle>
            <CardDescription>
              Addresses on {domain.domain} that forward to your own inbox. Each destination confirms by a link we email
              to it; until then the alias is Pending and forwards nothing.
            </CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            <CreateAliasForm domain={domain} alias={draftAlias} onAliasChange={setDraftAlias} />
            <div className="@container rounded-lg border">
              {aliases.isLoading ? (
                <AliasListSkeleton />
              ) : aliases.isError ? (
                <p className="text-destructive p-4 text-sm" role="alert">
                  Could not load the aliases. Please refresh the page.
                </p>
              ) : list.length === 0 ? (
                <div className="flex flex-col items-center gap-2 px-4 py-10 text-center">
                  <span className="bg-muted flex size-10 items-center justify-center rounded-full">
                    <AtSign className="size-5" aria-hidden="true" />
                  </span>
                  <h3 className="font-semibold">No aliases yet</h3>
                  <p className="text-muted-foreground max-w-sm text-sm">
                    Add one above, or pick a popular alias, such as hello@{domain.domain}.
                  </p>
                </div>
              ) : (
                <ul className="divide-y" aria-label={`Aliases on ${domain.domain}`}>
                  {list.map((alias) => (
                    <AliasRow
                      key={alias.id}
                      alias={alias}
                      testing={test.testingId === alias.id}
                      resending={actions.resendingId === alias.id}
                      onTest={() => test.runAliasTest(alias)}
                      onResend={() => actions.resendConfirmation(alias)}
                      onConfigure={() => setConfiguringId(alias.id)}
                      onDelete={() => actions.askDelete(alias)}
                    />
                  ))}
                </ul>
              )}
            </div>
          </CardContent>
        </Card>
        <div>
          <PopularAliasesCard
            domain={domain.domain}
            aliases={list}
            onPick={(alias) => {
              setDraftAlias(alias);
              document.getElementById('new-alias-destination')?.focus();
            }}
          />
        </div>
      </div>

      <ConfigureAliasDialog alias={configuring} onClose={() => setConfiguringId(null)} />
      <ConfirmDeleteDialog
        title={actions.deleting ? `Delete ${actions.deleting.address}?` : null}
        description="Mail to this address will be refused from now on. Its rules, destinations and activity are deleted with it."
        pending={actions.deletePending}
        onConfirm={actions.confirmDelete}
        onCancel={actions.cancelDelete}
      />
      <TestResultDialog shown={test.shown} onClose={test.close} />
    </div>
  );
}
