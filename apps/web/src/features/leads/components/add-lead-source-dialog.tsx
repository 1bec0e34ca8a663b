import * as React from 'react';
import {
  DEFAULT_CONSENT_TEXT,
  LEAD_SOURCE_CREATE_FAILED,
  LEAD_SOURCE_CREATED,
  createLeadSourceBodySchema,
  type LeadsLoaded,
  leadSourceTypes,
  type LeadSourceType,
} from '@sendwell/contract/leads';

import { FieldError } from '@/components/field-error';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { getApiErrorFields, isUnauthorizedError } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { Progress } from '@/components/ui/progress';
import { useCreateLeadSource } from '../api/use-leads';
import { leadSourceTypeHints, leadSourceTypeLabels } from '../lead-display';
import { leadsLoadedText } from '../lead-csv';
import { LeadsLoadedSummary } from './leads-loaded-summary';
import { WebhookShownOnce } from './webhook-shown-once';
import { SourceTypeFields, type Draft } from './source-type-fields';
import { useLeadCsvUpload } from './use-lead-csv-upload';

const emptyDraft: Draft = {
  type: 'form',
  name: '',
  consentText: DEFAULT_CONSENT_TEXT,
  doubleOptIn: true,
  provider: 'google',
  apiKey: '',
  origin: '',
  lawfulBasis: '',
  file: null,
};

/** The name a places source opened from a platform card starts with. */
const PROVIDER_SOURCE_NAMES: Record<Draft['provider'], string> = { google: 'Google Places', yelp: 'Yelp' };

/** The body POST /api/lead-sources takes for the draft's type (only that type's fields). */
function bodyOf(draft: Draft): unknown {
  const { type, name } = draft;
  switch (type) {
    case 'form':
      return { type, name, consentText: draft.consentText, doubleOptIn: draft.doubleOptIn };
    case 'places':
      return { type, name, provider: draft.provider, apiKey: draft.apiKey.trim() || undefined };
    case 'enrichment':
      return { type, name, apiKey: draft.apiKey.trim() || undefined };
    case 'csv':
      return { type, name, origin: draft.origin, lawfulBasis: draft.lawfulBasis || undefined };
    case 'webhook':
    case 'sample':
      return { type, name };
  }
}

/** A search provider the dialog opens on (a platform card's Not connected link): a places source, key field focused. */
export type PlacesProvider = Draft['provider'];

/** Spec §2's 'Add Lead Source' dialog, with a real form per source type. */
export function AddLeadSourceDialog({
  open,
  onOpenChange,
  provider,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  provider?: PlacesProvider;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Add Lead Source</DialogTitle>
          <DialogDescription>Configure a new lead generation source</DialogDescription>
        </DialogHeader>
        {open && <AddLeadSourceSteps onDone={() => onOpenChange(false)} provider={provider} />}
      </DialogContent>
    </Dialog>
  );
}

/** What the dialog shows after the source is created: a webhook's address and secret, or a list's import result. */
type Created = { kind: 'webhook'; webhook: { url: string; secret: string } } | { kind: 'csv'; result: LeadsLoaded };

/** The form, then a webhook source's address and secret (shown this once) or what its lead list did. */
function AddLeadSourceSteps({ onDone, provider }: { onDone: () => void; provider: PlacesProvider | undefined }) {
  const [created, setCreated] = React.useState<Created | null>(null);
  if (created) {
    return (
      <div className="min-w-0 space-y-4">
        {created.kind === 'webhook' ? (
          <WebhookShownOnce webhook={created.webhook} />
        ) : (
          <LeadsLoadedSummary result={created.result} title="Lead list imported" />
        )}
        <DialogFooter>
          <Button type="button" onClick={onDone}>
            Done
          </Button>
        </DialogFooter>
      </div>
    );
  }
  return <AddLeadSourceForm onDone={onDone} onCreated={setCreated} provider={provider} />;
}

function AddLeadSourceForm({
  onDone,
  onCreated,
  provider,
}: {
  onDone: () => void;
  onCreated: (created: Created) => void;
  provider: PlacesProvider | undefined;
}) {
  const create = useCreateLeadSource();
  const upload = useLeadCsvUpload();
  const [draft, setDraft] = React.useState<Draft>(() =>
    provider ? { ...emptyDraft, type: 'places', provider, name: PROVIDER_SOURCE_NAMES[provider] } : emptyDraft,
  );
  // Opened for a provider: the one field left to fill is its key.
  React.useEffect(() => {
    if (provider) document.getElementById('source-api-key')?.focus();
  }, [provider]);
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const pending = create.isPending || upload.isPending;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = createLeadSourceBodySchema.safeParse(bodyOf(draft));
    if (!parsed.success) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0] ?? 'type')] ??= issue.message;
      setErrors(fieldErrors);
      return;
    }
    setErrors({});
    let source;
    try {
      source = await create.mutateAsync(parsed.data);
    } catch (error) {
      const fields = getApiErrorFields(error);
      if (Object.keys(fields).length > 0 && !isUnauthorizedError(error)) setErrors(fields);
      else toastError(error, LEAD_SOURCE_CREATE_FAILED, { serverMessage: 'client-error' });
      return;
    }
    toast({ title: 'Success', description: LEAD_SOURCE_CREATED });
    if (source.webhook) {
      onCreated({ kind: 'webhook', webhook: source.webhook });
      return;
    }
    if (source.type === 'csv' && draft.file) {
      try {
        const result = await upload.run(source.id, draft.file);
        toast({ title: 'Lead list imported', description: leadsLoadedText(result) });
        onCreated({ kind: 'csv', result });
      } catch (error) {
        // The source exists; its list can be uploaded again from the source's line.
        toastError(error, 'Failed to import the lead list', { serverMessage: 'client-error' });
        onDone();
      }
      return;
    }
    onDone();
  };

  const described = (field: string) => (errors[field] ? `source-${field}-error` : undefined);

  return (
    <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
      <div className="space-y-1.5">
        <Label htmlFor="source-type">Type</Label>
        <Select value={draft.type} onValueChange={(value) => set('type', value as LeadSourceType)}>
          <SelectTrigger id="source-type" className="w-full" aria-describedby="source-type-hint">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {leadSourceTypes.map((type) => (
              <SelectItem key={type} value={type}>
                {leadSourceTypeLabels[type]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <p id="source-type-hint" className="text-muted-foreground text-xs">
          {leadSourceTypeHints[draft.type]}
        </p>
      </div>

      <div className="space-y-1.5">
        <Label htmlFor="source-name">Name</Label>
        <Input
          id="source-name"
          value={draft.name}
          onChange={(event) => set('name', event.target.value)}
          maxLength={100}
          aria-invalid={Boolean(errors.name)}
          aria-describedby={described('name')}
        />
        <FieldError id="source-name-error" message={errors.name} />
      </div>

      <SourceTypeFields draft={draft} set={set} errors={errors} />

      {upload.progress && (
        <div className="space-y-2" role="status">
          <Progress value={upload.percent} aria-label="Lead list import progress" />
          <p className="text-muted-foreground text-sm">
            {upload.progress.uploaded < upload.progress.total
              ? `Uploading… ${upload.percent}%`
              : `Checking rows… ${upload.progress.rows}${upload.progress.fileRows ? ` of ${upload.progress.fileRows}` : ''}`}
          </p>
        </div>
      )}

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? 'Adding...' : 'Add Source'}
        </Button>
      </DialogFooter>
    </form>
  );
}
