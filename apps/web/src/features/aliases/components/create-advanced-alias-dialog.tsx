import * as React from 'react';
import { Plus } from 'lucide-react';
import {
  ALIAS_CREATE_FAILED,
  createAliasBodySchema,
  forwardingTypes,
  type EmailAlias,
  type ForwardingType,
} from '@sendwell/contract/aliases';
import type { Domain } from '@sendwell/contract/domains';

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
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { getApiErrorFields, getApiErrorStatus } from '@/lib/api';
import { apiErrorText, toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { FORWARDING_TYPE_LABELS } from '../alias-display';
import { aliasFormErrors, type AliasFormErrors } from '../alias-form-errors';
import { useCreateAlias } from '../api/use-aliases';

const EMPTY = {
  alias: '',
  destination: '',
  forwardingType: 'simple' as ForwardingType,
  description: '',
  autoReply: false,
  autoReplyMessage: '',
};
type Errors = AliasFormErrors;

/** The advanced form (spec §5): alias, optional destination, forwardingType, description and auto-reply. */
export function CreateAdvancedAliasDialog({
  domain,
  open,
  onOpenChange,
  onCreated,
}: {
  domain: Domain;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (alias: EmailAlias) => void;
}) {
  const create = useCreateAlias(domain.id);
  const [draft, setDraft] = React.useState(EMPTY);
  const [errors, setErrors] = React.useState<Errors>({});
  const set = <K extends keyof typeof EMPTY>(key: K, value: (typeof EMPTY)[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  const close = (next: boolean) => {
    if (!next) {
      setDraft(EMPTY);
      setErrors({});
    }
    onOpenChange(next);
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const body = { ...draft, autoReplyMessage: draft.autoReply ? draft.autoReplyMessage : null };
    const parsed = createAliasBodySchema.safeParse(body);
    if (!parsed.success) {
      setErrors(aliasFormErrors(body));
      return;
    }
    setErrors({});
    create.mutate(body, {
      onSuccess: (created) => {
        toast({
          title: 'Alias Created',
          description:
            created.destination && !created.isVerified
              ? `${created.address} is Pending: we emailed ${created.destination} a link to confirm it.`
              : `${created.address} is ready: add its rules and destinations.`,
        });
        close(false);
        onCreated(created);
      },
      onError: (error) => {
        const status = getApiErrorStatus(error);
        if (status !== null && status >= 400 && status < 500) {
          const fields = getApiErrorFields(error);
          setErrors({ ...fields, alias: fields.alias ?? apiErrorText(error, ALIAS_CREATE_FAILED) });
        }
        toastError(error, ALIAS_CREATE_FAILED, { serverMessage: 'never' });
      },
    });
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>New alias on {domain.domain}</DialogTitle>
          <DialogDescription>
            Add rules and several destinations after creating it. Use * for a catch-all that takes mail no other alias
            matches.
          </DialogDescription>
        </DialogHeader>
        <form id="advanced-alias-form" onSubmit={submit} noValidate className="space-y-4">
          <div className="space-y-1.5">
            <Label htmlFor="adv-alias">Alias</Label>
            <div className="flex items-center gap-1.5">
              <Input
                id="adv-alias"
                value={draft.alias}
                placeholder="sales"
                autoComplete="off"
                onChange={(event) => set('alias', event.target.value)}
                aria-invalid={errors.alias ? true : undefined}
                aria-describedby={errors.alias ? 'adv-alias-error' : undefined}
              />
              <span className="text-muted-foreground max-w-40 shrink-0 truncate text-sm">@{domain.domain}</span>
            </div>
            <FieldError id="adv-alias-error" message={errors.alias} />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="adv-destination">Destination (optional)</Label>
            <Input
              id="adv-destination"
              type="email"
              value={draft.destination}
              placeholder="you@example.com"
              onChange={(event) => set('destination', event.target.value)}
              aria-invalid={errors.destination ? true : undefined}
              aria-describedby={errors.destination ? 'adv-destination-error' : undefined}
            />
            <FieldError id="adv-destination-error" message={errors.destination} />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="adv-type">Forwarding type</Label>
            <Select
              value={draft.forwardingType}
              onValueChange={(value) => set('forwardingType', value as ForwardingType)}
            >
              <SelectTrigger id="adv-type" className="w-full" aria-describedby="adv-type-hint">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {forwardingTypes.map((type) => (
                  <SelectItem key={type} value={type}>
                    {FORWARDING_TYPE_LABELS[type].label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <p id="adv-type-hint" className="text-muted-foreground text-xs">
              {FORWARDING_TYPE_LABELS[draft.forwardingType].hint}
            </p>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="adv-description">Description</Label>
            <Textarea
              id="adv-description"
              rows={2}
              value={draft.description}
              onChange={(event) => set('description', event.target.value)}
            />
            <FieldError id="adv-description-error" message={errors.description} />
          </div>
          <div className="flex items-center justify-between gap-4 rounded-md border p-3">
            <Label htmlFor="adv-auto-reply">Auto-reply</Label>
            <Switch id="adv-auto-reply" checked={draft.autoReply} onCheckedChange={(on) => set('autoReply', on)} />
          </div>
          {draft.autoReply && (
            <div className="space-y-1.5">
              <Label htmlFor="adv-auto-reply-message">Auto-reply message</Label>
              <Textarea
                id="adv-auto-reply-message"
                rows={3}
                value={draft.autoReplyMessage}
                onChange={(event) => set('autoReplyMessage', event.target.value)}
                aria-invalid={errors.autoReplyMessage ? true : undefined}
                aria-describedby={errors.autoReplyMessage ? 'adv-auto-reply-message-error' : undefined}
              />
              <FieldError id="adv-auto-reply-message-error" message={errors.autoReplyMessage} />
            </div>
          )}
        </form>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => close(false)}>
            Cancel
          </Button>
          <Button type="submit" form="advanced-alias-form" disabled={create.isPending}>
            {create.isPending ? <Spinner className="size-4" label="Creating" /> : <Plus aria-hidden="true" />}
            Create Alias
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
