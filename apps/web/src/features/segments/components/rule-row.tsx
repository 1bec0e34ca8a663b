import { useState, type ReactNode } from 'react';
import { Trash2 } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import {
  changeRuleField,
  changeRuleOperator,
  daysAgoValue,
  FIELD_LABELS,
  fieldKind,
  isValuelessOperator,
  operatorLabel,
  operatorsForField,
  relativeDays,
  SEGMENT_FIELDS,
  type EditableRule,
} from '../segment-rules';

export interface RuleErrors {
  field?: string;
  operator?: string;
  value?: string;
}

type DateMode = 'relative' | 'date';

function initialDateMode(value: string): DateMode {
  return /^\d{4}-\d{2}-\d{2}/.test(value.trim()) ? 'date' : 'relative';
}

/** The id of a rule's value input, so a failed save can move focus to the first rule needing a value. */
export function ruleValueInputId(ruleId: string): string {
  return `segment-rule-${ruleId}-value`;
}

/**
 * One rule of the editor: Field, Operator (only those the field allows), Value (by the field's kind)
 * and a remove button. On phones field and operator share the first line and the value takes the second.
 */
export function RuleRow({
  rule,
  index,
  joinWord,
  canRemove,
  errors,
  onChange,
  onRemove,
}: {
  rule: EditableRule;
  index: number;
  /** 'AND' or 'OR' above every rule but the first. */
  joinWord?: 'AND' | 'OR';
  canRemove: boolean;
  errors?: RuleErrors;
  onChange: (rule: EditableRule) => void;
  onRemove: () => void;
}) {
  const number = index + 1;
  const kind = fieldKind(rule.field);
  const [dateMode, setDateMode] = useState<DateMode>(() => initialDateMode(rule.value));
  const valueId = ruleValueInputId(rule.id);
  const errorId = `segment-rule-${rule.id}-error`;
  const message = errors?.field ?? errors?.operator ?? errors?.value;
  const valueInvalid = errors?.value ? true : undefined;
  const describedBy = message ? errorId : undefined;

  let valueControl: ReactNode;
  if (isValuelessOperator(rule.operator)) {
    valueControl = <p className="text-muted-foreground flex h-9 items-center text-sm">No value needed</p>;
  } else if (kind === 'date') {
    valueControl = (
      <div className="flex min-w-0 gap-2">
        <Select
          value={dateMode}
          onValueChange={(mode: DateMode) => {
            setDateMode(mode);
            onChange({ ...rule, value: '' });
          }}
        >
          <SelectTrigger aria-label={`Date type for rule ${number}`} className="w-28 shrink-0">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="relative">Days ago</SelectItem>
            <SelectItem value="date">On date</SelectItem>
          </SelectContent>
        </Select>
        {dateMode === 'date' ? (
          <Input
            id={valueId}
            type="date"
            aria-label={`Date for rule ${number}`}
            aria-invalid={valueInvalid}
            aria-describedby={describedBy}
            value={rule.value}
            onChange={(event) => onChange({ ...rule, value: event.target.value })}
          />
        ) : (
          <Input
            id={valueId}
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            placeholder="30"
            aria-label={`Days ago for rule ${number}`}
            aria-invalid={valueInvalid}
            aria-describedby={describedBy}
            value={relativeDays(rule.value) ?? ''}
            onChange={(event) => {
              const text = event.target.value.trim();
              const days = Number(text);
              onChange({
                ...rule,
                value: text !== '' && Number.isInteger(days) && days >= 0 ? daysAgoValue(days) : '',
              });
            }}
          />
        )}
      </div>
    );
  } else {
    valueControl = (
      <Input
        id={valueId}
        type={kind === 'numeric' ? 'number' : 'text'}
        inputMode={kind === 'numeric' ? 'decimal' : undefined}
        step={kind === 'numeric' ? 'any' : undefined}
        placeholder={kind === 'numeric' ? '0' : kind === 'tags' ? 'A tag, e.g. vip' : 'Value'}
        aria-label={`Value for rule ${number}`}
        aria-invalid={valueInvalid}
        aria-describedby={describedBy}
        value={rule.value}
        onChange={(event) => onChange({ ...rule, value: event.target.value })}
      />
    );
  }

  return (
    <li aria-label={`Rule ${number}`}>
      {joinWord && <p className="text-muted-foreground mb-2 pl-3 text-xs font-semibold tracking-wide">{joinWord}</p>}
      <div className="bg-muted/40 rounded-lg border p-3">
        <div className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] gap-2 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_minmax(0,1.4fr)_auto]">
          <Select value={rule.field} onValueChange={(field) => onChange(changeRuleField(rule, field))}>
            <SelectTrigger
              aria-label={`Field for rule ${number}`}
              aria-invalid={errors?.field ? true : undefined}
              className="w-full min-w-0"
            >
              <SelectValue placeholder="Field" />
            </SelectTrigger>
            <SelectContent>
              {SEGMENT_FIELDS.map((field) => (
                <SelectItem key={field} value={field}>
                  {FIELD_LABELS[field]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <Select value={rule.operator} onValueChange={(operator) => onChange(changeRuleOperator(rule, operator))}>
            <SelectTrigger
              aria-label={`Operator for rule ${number}`}
              aria-invalid={errors?.operator ? true : undefined}
              className="w-full min-w-0"
            >
              <SelectValue placeholder="Operator" />
            </SelectTrigger>
            <SelectContent>
              {operatorsForField(rule.field).map((operator) => (
                <SelectItem key={operator} value={operator}>
                  {operatorLabel(rule.field, operator)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <div className="col-span-3 row-start-2 min-w-0 sm:col-span-1 sm:col-start-3 sm:row-start-1">
            {valueControl}
          </div>
          <Button
            type="button"
            variant="ghost"
            size="icon"
            className="col-start-3 row-start-1 sm:col-start-4"
            aria-label={`Remove rule ${number}`}
            title={canRemove ? `Remove rule ${number}` : 'At least one rule must remain'}
            disabled={!canRemove}
            onClick={onRemove}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
        {message && (
          <p id={errorId} className="text-destructive mt-2 text-sm">
            {message}
          </p>
        )}
      </div>
    </li>
  );
}
