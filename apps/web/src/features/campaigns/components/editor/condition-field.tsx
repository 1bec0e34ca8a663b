import {
  CONDITION_OPERATOR_LABELS,
  CONDITION_OPERATORS,
  MERGE_TAG_LABELS,
  MERGE_TAGS,
  type BlockCondition,
  type ConditionOperator,
  type MergeTag,
} from '@sendwell/contract/campaigns';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

type Audience = 'everyone' | 'in' | 'notIn' | 'field';
const AUDIENCE_LABELS: Record<Audience, string> = {
  everyone: 'Everyone',
  in: 'Contacts in a segment',
  notIn: 'Contacts not in a segment',
  field: 'Contacts whose field matches',
};

function audienceOf(condition: BlockCondition | undefined): Audience {
  if (!condition) return 'everyone';
  return condition.kind === 'field' ? 'field' : condition.match;
}

/**
 * Show to (conditional content, issue 30 part 6): everyone, a segment's members or everyone but
 * them, or contacts whose field matches a rule. The preview's "Preview as" shows a contact's result.
 */
export function ConditionField({
  id,
  condition,
  segments,
  onChange,
}: {
  id: string;
  condition: BlockCondition | undefined;
  segments: { id: number; name: string }[];
  onChange: (condition: BlockCondition | undefined) => void;
}) {
  const audience = audienceOf(condition);
  const firstSegment = segments[0]?.id;
  const choose = (next: Audience) => {
    if (next === 'everyone') onChange(undefined);
    else if (next === 'field') onChange({ kind: 'field', field: 'location', op: 'equals', value: '' });
    else {
      const segmentId = condition?.kind === 'segment' ? condition.segmentId : firstSegment;
      if (segmentId !== undefined) onChange({ kind: 'segment', segmentId, match: next });
    }
  };
  return (
    <div className="space-y-2" data-testid="condition-field">
      <Label htmlFor={`${id}-audience`} className="text-xs">
        Show to
      </Label>
      <Select value={audience} onValueChange={(value) => choose(value as Audience)}>
        <SelectTrigger id={`${id}-audience`} size="sm" className="w-full">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {(Object.keys(AUDIENCE_LABELS) as Audience[]).map((value) => (
            <SelectItem key={value} value={value} disabled={(value === 'in' || value === 'notIn') && !firstSegment}>
              {AUDIENCE_LABELS[value]}
              {(value === 'in' || value === 'notIn') && !firstSegment ? ' (no segments yet)' : ''}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      {condition?.kind === 'segment' && (
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-segment`} className="text-xs">
            Segment
          </Label>
          <Select
            value={String(condition.segmentId)}
            onValueChange={(value) => onChange({ ...condition, segmentId: Number(value) })}
          >
            <SelectTrigger id={`${id}-segment`} size="sm" className="w-full">
              <SelectValue placeholder="A segment that no longer exists" />
            </SelectTrigger>
            <SelectContent>
              {segments.map((segment) => (
                <SelectItem key={segment.id} value={String(segment.id)}>
                  {segment.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      )}
      {condition?.kind === 'field' && (
        <div className="grid grid-cols-2 gap-2">
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-field`} className="text-xs">
              Field
            </Label>
            <Select
              value={condition.field}
              onValueChange={(value) => onChange({ ...condition, field: value as MergeTag })}
            >
              <SelectTrigger id={`${id}-field`} size="sm" className="w-full">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {MERGE_TAGS.map((field) => (
                  <SelectItem key={field} value={field}>
                    {MERGE_TAG_LABELS[field]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-op`} className="text-xs">
              Rule
            </Label>
            <Select
              value={condition.op}
              onValueChange={(value) => onChange({ ...condition, op: value as ConditionOperator })}
            >
              <SelectTrigger id={`${id}-op`} size="sm" className="w-full">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {CONDITION_OPERATORS.map((op) => (
                  <SelectItem key={op} value={op}>
                    {CONDITION_OPERATOR_LABELS[op]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          {condition.op !== 'isSet' && condition.op !== 'isEmpty' && (
            <div className="col-span-2 space-y-1.5">
              <Label htmlFor={`${id}-value`} className="text-xs">
                Value <span className="text-muted-foreground font-normal">(any case)</span>
              </Label>
              <Input
                id={`${id}-value`}
                className="h-8"
                maxLength={200}
                value={condition.value}
                onChange={(event) => onChange({ ...condition, value: event.target.value })}
              />
            </div>
          )}
        </div>
      )}
      {condition && (
        <p className="text-muted-foreground text-xs">
          Only these contacts get this block. Choose a contact under Preview as to check.
        </p>
      )}
    </div>
  );
}
