import type * as React from 'react';
import { PREHEADER_MAX } from '@sendwell/contract/campaigns';
import type { ContactList } from '@sendwell/contract/contacts';
import type { Segment } from '@sendwell/contract/segments';

import { FieldError } from '@/components/field-error';
import { Checkbox } from '@/components/ui/checkbox';
import { formatNumber } from '@/lib/format';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import type { CampaignDraft } from '../../editor/campaign-form';
import { CheckGroup } from './check-group';
import { SenderField } from './sender-field';
import type { PendingSelection } from './use-campaign-draft';
import type { useSenderChoices } from './use-sender-choices';

type SettingsFields = Pick<CampaignDraft, 'name' | 'subject' | 'preheader' | 'fromName' | 'fromEmail' | 'replyTo'>;

/** Campaign Settings (spec §2): name, subject, preview text, from name, sender address and reply-to. */
export function CampaignSettings({
  values,
  errors,
  senders,
  onChange,
}: {
  values: SettingsFields;
  errors: Record<string, string>;
  senders: ReturnType<typeof useSenderChoices>;
  onChange: (patch: Partial<SettingsFields>) => void;
}) {
  const field = (name: keyof SettingsFields) => ({
    id: `campaign-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `campaign-${name}-error` : undefined,
  });

  return (
    <section aria-labelledby="campaign-settings-heading" className="space-y-3">
      <h3 id="campaign-settings-heading" className="text-sm font-semibold">
        Campaign Settings
      </h3>
      <div className="space-y-1.5">
        <Label htmlFor="campaign-name">Campaign name</Label>
        <Input
          {...field('name')}
          value={values.name}
          placeholder="e.g. Spring Sale"
          maxLength={200}
          onChange={(e) => onChange({ name: e.target.value })}
        />
        <FieldError id="campaign-name-error" message={errors.name} />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="campaign-subject">Subject line</Label>
        <Input
          {...field('subject')}
          value={values.subject}
          placeholder="e.g. Fresh deals for spring"
          maxLength={300}
          onChange={(e) => onChange({ subject: e.target.value })}
        />
        <FieldError id="campaign-subject-error" message={errors.subject} />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="campaign-preheader">Preview text</Label>
        <Input
          {...field('preheader')}
          aria-describedby={errors.preheader ? 'campaign-preheader-error' : 'campaign-preheader-help'}
          value={values.preheader}
          placeholder="e.g. Up to 40% off everything in the garden"
          maxLength={PREHEADER_MAX}
          onChange={(e) => onChange({ preheader: e.target.value })}
        />
        <p id="campaign-preheader-help" className="text-muted-foreground text-xs">
          Shown after the subject in most inboxes. Keep it under 100 characters.
        </p>
        <FieldError id="campaign-preheader-error" message={errors.preheader} />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="campaign-fromName">
          From name <span className="text-muted-foreground font-normal">(optional)</span>
        </Label>
        <Input
          {...field('fromName')}
          value={values.fromName}
          maxLength={120}
          onChange={(e) => onChange({ fromName: e.target.value })}
        />
        <FieldError id="campaign-fromName-error" message={errors.fromName} />
      </div>
      <SenderField
        value={values.fromEmail}
        error={errors.fromEmail}
        senders={senders}
        onChange={(fromEmail) => onChange({ fromEmail })}
      />
      <div className="space-y-1.5">
        <Label htmlFor="campaign-replyTo">
          Reply-to <span className="text-muted-foreground font-normal">(optional)</span>
        </Label>
        <Input
          {...field('replyTo')}
          type="email"
          value={values.replyTo}
          placeholder="you@example.com"
          onChange={(e) => onChange({ replyTo: e.target.value })}
        />
        <FieldError id="campaign-replyTo-error" message={errors.replyTo} />
      </div>
    </section>
  );
}

/** Recipient Lists and Segments (spec §2): checkboxes with their member counts. */
export function RecipientPicker({
  lists,
  segments,
  listIds,
  segmentIds,
  selection,
  onSelection,
  error,
  onListIds,
  onSegmentIds,
}: {
  /** Contacts picked on the Contacts page (their list is made when the campaign is saved). */
  selection: PendingSelection | null;
  onSelection: (chosen: boolean) => void;
  lists: { data: ContactList[] | undefined; isLoading: boolean; isError: boolean; refetch: () => unknown };
  segments: { data: Segment[] | undefined; isLoading: boolean; isError: boolean; refetch: () => unknown };
  listIds: number[];
  segmentIds: number[];
  error: string | undefined;
  onListIds: (ids: number[]) => void;
  onSegmentIds: (ids: number[]) => void;
}) {
  return (
    <div className="space-y-5">
      {selection && (
        <section aria-labelledby="selection-heading" className="space-y-2">
          <h3 id="selection-heading" className="text-sm font-semibold">
            Selected on the Contacts page
          </h3>
          <div className="hover:bg-muted/60 flex items-center gap-2.5 rounded-md px-1.5 py-1">
            <Checkbox
              id="selection-contacts"
              checked={selection.chosen}
              onCheckedChange={(value) => onSelection(value === true)}
            />
            <Label htmlFor="selection-contacts" className="min-w-0 flex-1 cursor-pointer font-normal">
              <span className="truncate">Selected contacts</span>
              <span className="text-muted-foreground ml-auto shrink-0 text-xs tabular-nums">
                {formatNumber(selection.contactIds.length)} <span className="sr-only">contacts</span>
              </span>
            </Label>
          </div>
          <p className="text-muted-foreground text-xs">Saved as a list of their own when you save the campaign.</p>
        </section>
      )}
      <CheckGroup
        title="Recipient Lists"
        idPrefix="list"
        query={lists}
        items={(lists.data ?? []).map((list) => ({ id: list.id, name: list.name, count: list.subscriberCount }))}
        selected={listIds}
        onChange={onListIds}
        countNoun="subscribers"
        empty={<>No contact lists yet. Import contacts on the Contacts page to create one.</>}
      />
      <CheckGroup
        title="Segments"
        idPrefix="segment"
        query={segments}
        items={(segments.data ?? []).map((segment) => ({
          id: segment.id,
          name: segment.name,
          count: segment.contactCount,
        }))}
        selected={segmentIds}
        onChange={onSegmentIds}
        countNoun="contacts"
        empty={<>No segments yet. Build one on the Contact Segments page.</>}
      />
      <FieldError id="campaign-recipients-error" message={error} />
    </div>
  );
}
