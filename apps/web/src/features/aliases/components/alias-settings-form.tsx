import * as React from 'react';
import { Save } from 'lucide-react';
import {
  AUTO_REPLY_MESSAGE_REQUIRED,
  forwardingTypes,
  updateAliasBodySchema,
  type EmailAlias,
  type ForwardingType,
} from '@sendwell/contract/aliases';

import { FieldError } from '@/components/field-error';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { getApiErrorFields } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { FORWARDING_TYPE_LABELS } from '../alias-display';
import { useUpdateAlias } from '../api/use-aliases';

type Draft = {
  destination: string;
  forwardingType: ForwardingType;
  description: string;
  autoReply: boolean;
  autoReplyMessage: string;
  isActive: boolean;
};
type Errors = Partial<Record<'destination' | 'autoReplyMessage' | 'description', string>>;

const draftOf = (alias: EmailAlias): Draft => ({
  destination: alias.destination ?? '',
  forwardingType: alias.forwardingType,
  description: alias.description ?? '',
  autoReply: alias.autoReply,
  autoReplyMessage: alias.autoReplyMessage ?? '',
  isActive: alias.isActive,
});

/**
 * An alias's settings (the Advanced panel's Overview, and the Basic panel's Configure dialog):
 * destination, forwardingType, description, on/off, and auto-reply with its message (shown only
 * when auto-reply is on, spec §5). Saved with PATCH /api/email-aliases/:id.
 */
export function AliasSettingsForm({
  alias,
  idPrefix,
  onSaved,
}: {
  alias: EmailAlias;
  idPrefix: string;
  onSaved?: () => void;
}) {
  const update = useUpdateAlias();
  const [draft, setDraft] = React.useState<Draft>(() => draftOf(alias));
  const [errors, setErrors] = React.useState<Errors>({});
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const id = (field: string) => `${idPrefix}-${field}`;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = updateAliasBodySchema.safeParse(draft);
    const next: Errors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (field === 'destination' || field === 'autoReplyMessage' || field === 'description')
          next[field] ??= issue.message;
      }
    }
    if (draft.autoReply && !draft.autoReplyMessage.trim()) next.autoReplyMessage ??= AUTO_REPLY_MESSAGE_REQUIRED;
    setErrors(next);
    if (!parsed.success || Object.keys(next).length > 0) return;
    update.mutate(
      { id: alias.id, body: parsed.data },
      {
        onSuccess: (saved) => {
          setDraft(draftOf(saved));
          toast({
            title: 'Alias Updated',
            description:
              saved.destination && saved.destinationConfirmed === false && saved.destination !== alias.destination
                ? `We emailed ${saved.destination} a link to confirm it; it gets nothing until then.`
                : `${saved.address} is saved.`,
          });
          onSaved?.();
        },
        onError: (error) => {
          setErrors(getApiErrorFields(error));
          toastError(error, 'Failed to update the alias. Please try again.', { serverMessage: 'client-error' });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1.5">
          <Label htmlFor={id('destination')}>Destination</Label>
          <Input
            id={id('destination')}
            type="email"
            value={draft.destination}
            placeholder="Optional: you@example.com"
            onChange={(event) => set('destination', event.target.value)}
            aria-invalid={errors.destination ? true : undefined}
            aria-describedby={errors.destination ? id('destination-error') : undefined}
          />
          <FieldError id={id('destination-error')} message={errors.destination} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={id('type')}>Forwarding type</Label>
          <Select
            value={draft.forwardingType}
            onValueChange={(value) => set('forwardingType', value as ForwardingType)}
          >
            <SelectTrigger id={id('type')} className="w-full" aria-describedby={id('type-hint')}>
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
          <p id={id('type-hint')} className="text-muted-foreground text-xs">
            {FORWARDING_TYPE_LABELS[draft.forwardingType].hint}
          </p>
        </div>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={id('description')}>Description</Label>
        <Textarea
          id={id('description')}
          value={draft.description}
          rows={2}
          placeholder="What this address is for"
          onChange={(event) => set('description', event.target.value)}
          aria-invalid={errors.description ? true : undefined}
        />
        <FieldError id={id('description-error')} message={errors.description} />
      </div>
      <div className="flex items-center justify-between gap-4 rounded-md border p-3">
        <div>
          <Label htmlFor={id('active')}>Receiving mail</Label>
          <p className="text-muted-foreground text-xs">When off, mail to this alias is refused.</p>
        </div>
        <Switch id={id('active')} checked={draft.isActive} onCheckedChange={(on) => set('isActive', on)} />
      </div>
      <div className="space-y-3 rounded-md border p-3">
        <div className="flex items-center justify-between gap-4">
          <div>
            <Label htmlFor={id('auto-reply')}>Auto-reply</Label>
            <p className="text-muted-foreground text-xs">
              Answers each sender once a week at most; never lists, bulk mail or other auto-replies.
            </p>
          </div>
          <Switch id={id('auto-reply')} checked={draft.autoReply} onCheckedChange={(on) => set('autoReply', on)} />
        </div>
        {draft.autoReply && (
          <div className="space-y-1.5">
            <Label htmlFor={id('auto-reply-message')}>Auto-reply message</Label>
            <Textarea
              id={id('auto-reply-message')}
              value={draft.autoReplyMessage}
              rows={4}
              placeholder="Thanks for your message. We will get back to you within one business day."
              onChange={(event) => set('autoReplyMessage', event.target.value)}
              aria-invalid={errors.autoReplyMessage ? true : undefined}
              aria-describedby={errors.autoReplyMessage ? id('auto-reply-message-error') : undefined}
            />
            <FieldError id={id('auto-reply-message-error')} message={errors.autoReplyMessage} />
          </div>
        )}
      </div>
      <div className="flex justify-end">
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? <Spinner className="size-4" label="Saving" /> : <Save aria-hidden="true" />}
          Save Settings
        </Button>
      </div>
    </form>
  );
}
