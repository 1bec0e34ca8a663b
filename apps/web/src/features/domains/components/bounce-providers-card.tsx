import { useState } from 'react';
import { Webhook } from 'lucide-react';
import {
  BOUNCE_PROVIDER_SECRET_RULES,
  type BounceProvider,
  type BounceProviderStatus,
} from '@sendwell/contract/bounces';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useBounceProviders, useDeleteBounceProvider, useSaveBounceProvider } from '../api/use-bounce-providers';
import { CopyButton } from './copy-button';

const PROVIDER_NAMES: Record<BounceProvider, string> = {
  ses: 'Amazon SES (SNS)',
  sendgrid: 'SendGrid',
  mailgun: 'Mailgun',
  postmark: 'Postmark',
};

function ProviderRow({ status }: { status: BounceProviderStatus }) {
  const save = useSaveBounceProvider();
  const remove = useDeleteBounceProvider();
  const [secret, setSecret] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const rule = BOUNCE_PROVIDER_SECRET_RULES[status.provider];
  const name = PROVIDER_NAMES[status.provider];
  const inputId = `bounce-provider-${status.provider}`;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!rule.pattern.test(secret.trim())) {
      setProblem(rule.message);
      return;
    }
    setProblem(null);
    try {
      await save.mutateAsync({ provider: status.provider, secret: secret.trim() });
      setSecret('');
      toast({ title: `${name} bounce webhook saved` });
    } catch (failure) {
      toastError(failure, `Could not save the ${name} setting. Please try again.`, { serverMessage: 'client-error' });
    }
  };
  const forget = async () => {
    try {
      await remove.mutateAsync(status.provider);
      toast({ title: `${name} bounce webhook removed` });
    } catch (failure) {
      toastError(failure, `Could not remove the ${name} setting. Please try again.`);
    }
  };

  return (
    <li className="space-y-2 rounded-lg border p-3" data-provider={status.provider}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-medium">{name}</h3>
        {status.configured ? (
          <Badge variant="secondary">Set up · ends in {status.hint}</Badge>
        ) : (
          <Badge variant="outline">Not set up</Badge>
        )}
      </div>
      <div className="flex items-center gap-2">
        <code className="bg-muted min-w-0 flex-1 rounded-md px-2 py-1.5 font-mono text-xs break-all">
          {status.webhookUrl}
        </code>
        <CopyButton value={status.webhookUrl} label={`Copy ${name} webhook URL`} className="size-8 shrink-0" />
      </div>
      <form
        className="flex flex-col gap-2 sm:flex-row sm:items-end"
        onSubmit={(event) => void submit(event)}
        noValidate
      >
        <div className="min-w-0 flex-1 space-y-1">
          <Label htmlFor={inputId}>{rule.label}</Label>
          <Input
            id={inputId}
            value={secret}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={problem !== null}
            aria-describedby={problem ? `${inputId}-error` : undefined}
            onChange={(event) => setSecret(event.target.value)}
          />
        </div>
        <div className="flex gap-2">
          <Button type="submit" size="sm" disabled={save.isPending || secret.trim() === ''}>
            {save.isPending ? 'Saving...' : status.configured ? 'Replace' : 'Save'}
          </Button>
          {status.configured && (
            <Button type="button" size="sm" variant="outline" disabled={remove.isPending} onClick={() => void forget()}>
              Remove
            </Button>
          )}
        </div>
      </form>
      {problem && (
        <p id={`${inputId}-error`} className="text-destructive text-sm" role="alert">
          {problem}
        </p>
      )}
    </li>
  );
}

/**
 * The sending providers' bounce and complaint webhooks (GET/PUT/DELETE /api/bounce-providers): the URL
 * to give each provider, and the key or secret its posts are checked with (saved sealed, never shown).
 */
export function BounceProvidersCard() {
  const providers = useBounceProviders();
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="flex items-center gap-2">
            <Webhook className="size-4" aria-hidden="true" />
            Provider bounce webhooks
          </h2>
        </CardTitle>
        <CardDescription>
          Sending through Amazon SES, SendGrid, Mailgun or Postmark? Point its bounce and complaint events at your URL
          below and save the key it signs them with; unsigned or altered posts are refused.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {providers.data ? (
          <ul className="space-y-3">
            {providers.data.providers.map((status) => (
              <ProviderRow key={status.provider} status={status} />
            ))}
          </ul>
        ) : (
          <Skeleton className="h-40 w-full" />
        )}
      </CardContent>
    </Card>
  );
}
