import * as React from 'react';
import { KeyRound, Plus, Trash2 } from 'lucide-react';
import type { ApiKey } from '@sendwell/contract/api-keys';

import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate } from '@/lib/format';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useApiKeys, useRevokeApiKey } from '../api/use-api-keys';
import { ApiRateLimitForm } from './api-rate-limit-form';
import { CreateApiKeyDialog } from './create-api-key-dialog';

/** "Mar 4, 2026, 3:05 PM": when a key was last used. */
function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: (key: ApiKey) => void }) {
  const revoked = apiKey.revokedAt !== null;
  return (
    <li className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center" data-api-key={apiKey.name}>
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <KeyRound className="text-muted-foreground size-4 shrink-0" aria-hidden="true" />
          <span className={revoked ? 'text-muted-foreground font-medium line-through' : 'font-medium'}>
            {apiKey.name}
          </span>
          <code className="bg-muted rounded px-1.5 py-0.5 font-mono text-xs">{apiKey.prefix}…</code>
          <Badge variant="secondary">{apiKey.scope === 'full' ? 'Full access' : 'Sending only'}</Badge>
          {apiKey.domain && <Badge variant="outline">Only {apiKey.domain}</Badge>}
          {revoked && <Badge variant="destructive">Revoked</Badge>}
        </div>
        <p className="text-muted-foreground text-xs">
          Created {formatDate(apiKey.createdAt)} ·{' '}
          {revoked
            ? `revoked ${formatDate(apiKey.revokedAt)}`
            : apiKey.lastUsedAt
              ? `last used ${formatDateTime(apiKey.lastUsedAt)}`
              : 'never used'}
        </p>
      </div>
      {!revoked && (
        <Button
          size="sm"
          variant="outline"
          className="self-start sm:self-center"
          onClick={() => onRevoke(apiKey)}
          aria-label={`Revoke ${apiKey.name}`}
        >
          <Trash2 aria-hidden="true" />
          Revoke
        </Button>
      )}
    </li>
  );
}

/**
 * Settings → API keys: the account's keys (name, first characters, access, domain, last use),
 * creating one (its secret shown once), revoking one, and the requests per second each may make.
 */
export function ApiKeysCard({ verifiedDomains }: { verifiedDomains: string[] }) {
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = React.useState(false);
  const [revoking, setRevoking] = React.useState<ApiKey | null>(null);

  const confirmRevoke = async () => {
    if (!revoking) return;
    try {
      await revoke.mutateAsync(revoking.id);
      toast({ title: 'API Key Revoked', description: `${revoking.name} no longer works.` });
      setRevoking(null);
    } catch (error) {
      toastError(error, 'Failed to revoke the key. Please try again.');
    }
  };

  return (
    <Card>
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1.5">
          <CardTitle>API Keys</CardTitle>
          <CardDescription>
            Programs call the API with a key in the <code className="font-mono">Authorization: Bearer</code> header. A
            key never signs in: managing keys, billing and these settings need you signed in.
          </CardDescription>
        </div>
        <Button onClick={() => setCreating(true)} className="shrink-0">
          <Plus aria-hidden="true" />
          Create API Key
        </Button>
      </CardHeader>
      <CardContent className="space-y-6">
        {keys.isLoading ? (
          <div aria-busy="true" aria-label="Loading API keys" className="space-y-3">
            <Skeleton className="h-4 w-64" />
            <Skeleton className="h-4 w-48" />
          </div>
        ) : keys.isError || !keys.data ? (
          <p className="text-destructive text-sm" role="alert">
            Could not load your API keys. Please refresh the page.
          </p>
        ) : keys.data.apiKeys.length === 0 ? (
          <p className="text-muted-foreground rounded-lg border border-dashed p-4 text-sm">
            No API keys yet. Create one to connect your own code or another service.
          </p>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="Your API keys">
            {keys.data.apiKeys.map((apiKey) => (
              <KeyRow key={apiKey.id} apiKey={apiKey} onRevoke={setRevoking} />
            ))}
          </ul>
        )}
        <ApiRateLimitForm />
      </CardContent>

      <CreateApiKeyDialog open={creating} onOpenChange={setCreating} verifiedDomains={verifiedDomains} />
      <AlertDialog open={revoking !== null} onOpenChange={(open) => !open && setRevoking(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Revoke “{revoking?.name}”?</AlertDialogTitle>
            <AlertDialogDescription>
              Programs using this key are refused from now on. This cannot be undone.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              onClick={(event) => {
                event.preventDefault();
                void confirmRevoke();
              }}
              disabled={revoke.isPending}
            >
              Revoke Key
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}
