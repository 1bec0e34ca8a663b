import { ArrowRight, FlaskConical, Send, Settings2, Trash2 } from 'lucide-react';
import type { EmailAlias } from '@sendwell/contract/aliases';

import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { aliasPendingReason } from '../alias-display';
import { AliasStatusBadge } from './alias-badges';

/** One alias of the Basic panel: alias@domain → destination, its badge, and its actions. */
export function AliasRow({
  alias,
  testing,
  resending,
  onTest,
  onResend,
  onConfigure,
  onDelete,
}: {
  alias: EmailAlias;
  testing: boolean;
  resending: boolean;
  onTest: () => void;
  onResend: () => void;
  onConfigure: () => void;
  onDelete: () => void;
}) {
  const awaitingLink = alias.destination !== null && alias.destinationConfirmed === false;
  const pendingReason = aliasPendingReason(alias);
  return (
    <li className="flex flex-col gap-3 p-4 @3xl:flex-row @3xl:items-center" data-alias={alias.address}>
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-mono text-sm font-medium break-all">{alias.address}</span>
          <AliasStatusBadge alias={alias} />
        </div>
        <p className="text-muted-foreground flex min-w-0 items-center gap-1.5 text-sm">
          <ArrowRight className="size-3.5 shrink-0" aria-hidden="true" />
          <span className="sr-only">Forwards to</span>
          <span className="truncate">{alias.destination ?? 'No destination (see Advanced Aliases)'}</span>
        </p>
        {pendingReason && <p className="text-xs text-amber-800 dark:text-amber-300">{pendingReason}</p>}
        {awaitingLink && (
          <p className="text-xs text-amber-800 dark:text-amber-300">
            Waiting for {alias.destination} to follow the confirmation link.
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {awaitingLink && (
          <Button size="sm" variant="outline" onClick={onResend} disabled={resending}>
            {resending ? <Spinner className="size-4" label="Sending" /> : <Send aria-hidden="true" />}
            Resend confirmation
          </Button>
        )}
        <Button size="sm" variant="outline" onClick={onTest} disabled={testing} aria-label={`Test ${alias.address}`}>
          {testing ? <Spinner className="size-4" label="Testing" /> : <FlaskConical aria-hidden="true" />}
          Test
        </Button>
        <Button size="sm" variant="outline" onClick={onConfigure} aria-label={`Configure ${alias.address}`}>
          <Settings2 aria-hidden="true" />
          Configure
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={onDelete}
          aria-label={`Delete ${alias.address}`}
          title={`Delete ${alias.address}`}
        >
          <Trash2 aria-hidden="true" />
        </Button>
      </div>
    </li>
  );
}
