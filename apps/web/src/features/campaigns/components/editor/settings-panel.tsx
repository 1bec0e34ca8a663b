import type * as React from 'react';
import type { ContactList } from '@sendwell/contract/contacts';
import type { Segment } from '@sendwell/contract/segments';

import { FieldError } from '@/components/field-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import type { CampaignDraft } from '../../editor/campaign-form';
import { CheckGroup } from './check-group';
import { SenderField } from './sender-field';
import type { useSenderChoices } from './use-sender-choices';

type SettingsFields = Pick<CampaignDraft, 'name' | 'subject' | 'fromName' | 'fromEmail' | 'replyTo'>;

/** Campaign Settings (spec §2): name, subject, from name, sender address and reply-to. */
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
          placeholder="Spring Sale"
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
          placeholder="Fresh deals for spring"
          maxLength={300}
          onChange={(e) => onChange({ subject: e.target.value })}
        />
        <FieldError id="campaign-subject-error" message={errors.subject} />
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
  error,
  onListIds,
  onSegmentIds,
}: {
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
