import { TRIGGER_TYPES, type TriggerConfig, type TriggerType } from '@sendwell/contract/sequences';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useListChoices, useSegmentChoices } from '../../api/use-sequences';
import { TRIGGER_LABELS } from '../../sequence-labels';

/** The triggers the builder offers, named as the sequence's card names them. */
const TRIGGER_CHOICES = TRIGGER_TYPES.map((type) => ({ type, label: TRIGGER_LABELS[type] }));

/** Radix Select has no empty value: this one stands for "any list". */
const ANY_LIST = '__any__';

/** What enrols contacts: the trigger type and the one setting it needs. */
export function TriggerFields({
  triggerType,
  triggerConfig,
  onChange,
}: {
  triggerType: TriggerType;
  triggerConfig: TriggerConfig;
  onChange: (type: TriggerType, config: TriggerConfig) => void;
}) {
  const lists = useListChoices(triggerType === 'signup');
  const segments = useSegmentChoices(triggerType === 'segment_joined');
  return (
    <div className="space-y-3">
      <div className="space-y-1.5">
        <Label htmlFor="sequence-trigger">Trigger</Label>
        <Select value={triggerType} onValueChange={(type: TriggerType) => onChange(type, {})}>
          <SelectTrigger id="sequence-trigger" className="w-full">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {TRIGGER_CHOICES.map((choice) => (
              <SelectItem key={choice.type} value={choice.type}>
                {choice.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      {triggerType === 'signup' && (
        <div className="space-y-1.5">
          <Label htmlFor="sequence-trigger-list">List</Label>
          <Select
            value={triggerConfig.listId ? String(triggerConfig.listId) : ANY_LIST}
            onValueChange={(value) => onChange('signup', { listId: value === ANY_LIST ? null : Number(value) })}
          >
            <SelectTrigger id="sequence-trigger-list" className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ANY_LIST}>Any list</SelectItem>
              {(lists.data ?? []).map((list) => (
                <SelectItem key={list.id} value={String(list.id)}>
                  {list.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      )}
      {triggerType === 'segment_joined' && (
        <div className="space-y-1.5">
          <Label htmlFor="sequence-trigger-segment">Segment</Label>
          <Select
            value={triggerConfig.segmentId ? String(triggerConfig.segmentId) : ''}
            onValueChange={(value) => onChange('segment_joined', { segmentId: Number(value) })}
          >
            <SelectTrigger id="sequence-trigger-segment" className="w-full">
              <SelectValue placeholder={segments.isLoading ? 'Loading segments...' : 'Choose a segment'} />
            </SelectTrigger>
            <SelectContent>
              {(segments.data ?? []).map((segment) => (
                <SelectItem key={segment.id} value={String(segment.id)}>
                  {segment.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      )}
      {triggerType === 'tag_added' && (
        <div className="space-y-1.5">
          <Label htmlFor="sequence-trigger-tag">Tag</Label>
          <Input
            id="sequence-trigger-tag"
            value={triggerConfig.tag ?? ''}
            placeholder="e.g., customer"
            onChange={(e) => onChange('tag_added', { tag: e.target.value })}
          />
        </div>
      )}
      {triggerType === 'custom_event' && (
        <div className="space-y-1.5">
          <Label htmlFor="sequence-trigger-event">Event name</Label>
          <Input
            id="sequence-trigger-event"
            value={triggerConfig.eventName ?? ''}
            placeholder="e.g., trial_started"
            onChange={(e) => onChange('custom_event', { eventName: e.target.value })}
          />
        </div>
      )}
    </div>
  );
}
