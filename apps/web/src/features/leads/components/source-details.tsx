import * as React from 'react';
import { formEmbedSnippet, type LeadSource } from '@sendwell/contract/leads';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { publicUrl } from '@/lib/public-url';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useLeadSourceCredits, useUpdateLeadSource } from '../api/use-leads';
import { CopyField } from './copy-field';
import { CsvListUpload } from './csv-list-upload';
import { SampleLeadsForm } from './sample-leads-form';
import { csvSettings, formSettings, hostedFormUrl, lawfulBasisLabels } from '../lead-display';

/** What a source needs or offers beyond its line: a form's address and snippet, a key, credits, a list's basis. */
export function SourceDetails({ source }: { source: LeadSource }) {
  return (
    <div className="space-y-3">
      <TypeDetails source={source} />
      <ActiveSwitch source={source} />
    </div>
  );
}

/** Pauses or resumes a source; the platform cards count only an active source as connected. */
function ActiveSwitch({ source }: { source: LeadSource }) {
  const update = useUpdateLeadSource();
  const id = `source-active-${source.id}`;
  return (
    <div className="flex items-center gap-2">
      <Switch
        id={id}
        checked={source.isActive}
        disabled={update.isPending}
        onCheckedChange={(isActive) =>
          update.mutate(
            { id: source.id, body: { isActive } },
            { onError: (error) => toastError(error, 'Failed to update lead source') },
          )
        }
      />
      <Label htmlFor={id} className="font-normal">
        Active
      </Label>
    </div>
  );
}

function TypeDetails({ source }: { source: LeadSource }) {
  const form = formSettings(source);
  const csv = csvSettings(source);
  if (form) {
    const url = hostedFormUrl(publicUrl(), form.slug);
    return (
      <div className="space-y-3">
        <CopyField id={`form-url-${source.id}`} label="Hosted form" value={url} />
        <CopyField
          id={`form-embed-${source.id}`}
          label="Embed snippet"
          value={formEmbedSnippet(url, form.consentText)}
          multiline
        />
        <p className="text-muted-foreground text-xs">
          Version {form.version} · {form.doubleOptIn ? 'Double opt-in: people confirm by email first' : 'Single opt-in'}
        </p>
      </div>
    );
  }
  if (csv) {
    return (
      <div className="space-y-3">
        <p className="text-muted-foreground text-sm">
          From: {csv.origin} · Lawful basis: {lawfulBasisLabels[csv.lawfulBasis]}
        </p>
        <CsvListUpload source={source} />
      </div>
    );
  }
  if (source.type === 'places' || source.type === 'enrichment') {
    return (
      <div className="space-y-2">
        {source.apiKeyHint && <p className="text-muted-foreground text-sm">Key ending in {source.apiKeyHint}</p>}
        {source.type === 'enrichment' && source.connected && <Credits sourceId={source.id} />}
        <ApiKeyForm source={source} />
      </div>
    );
  }
  if (source.type === 'webhook') {
    return (
      <p className="text-muted-foreground text-sm">
        Other tools post leads to {publicUrl()}/api/webhook/leads/{source.id}, signed with the secret shown once when
        this source was created (X-Sendwell-Timestamp and X-Sendwell-Signature headers).
      </p>
    );
  }
  if (source.type === 'sample') {
    return (
      <div className="space-y-3">
        <p className="text-muted-foreground text-sm">
          Demo directory: its leads carry a Sample data badge and are never added to a list or mailed.
        </p>
        <SampleLeadsForm source={source} />
      </div>
    );
  }
  return null;
}

/** An enrichment key's searches left (Hunter's account endpoint), read before spending any. */
function Credits({ sourceId }: { sourceId: number }) {
  const credits = useLeadSourceCredits(sourceId, true);
  if (credits.isLoading) return <p className="text-muted-foreground text-sm">Checking credits...</p>;
  if (credits.isError || !credits.data)
    return <p className="text-muted-foreground text-sm">Credits could not be read from Hunter.</p>;
  return (
    <p className="text-sm">
      Credits: {credits.data.available - credits.data.used} left of {credits.data.available}
    </p>
  );
}

/** Connects (or replaces) the source's own API key; the key itself is never shown again. */
function ApiKeyForm({ source }: { source: LeadSource }) {
  const update = useUpdateLeadSource();
  const [apiKey, setApiKey] = React.useState('');
  const id = `source-key-${source.id}`;
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!apiKey.trim()) return;
    update.mutate(
      { id: source.id, body: { apiKey: apiKey.trim() } },
      {
        onSuccess: () => {
          setApiKey('');
          toast({ title: 'Key saved', description: `${source.name} is connected.` });
        },
        onError: (error) => toastError(error, 'Failed to save the API key'),
      },
    );
  };
  return (
    <form className="flex flex-col gap-2 sm:flex-row sm:items-end" onSubmit={submit}>
      <div className="flex-1 space-y-1.5">
        <Label htmlFor={id}>{source.connected ? 'Replace API key' : 'API key'}</Label>
        <Input
          id={id}
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={(event) => setApiKey(event.target.value)}
          maxLength={500}
        />
      </div>
      <Button type="submit" variant="outline" disabled={!apiKey.trim() || update.isPending}>
        {source.connected ? 'Replace key' : 'Connect'}
      </Button>
    </form>
  );
}
