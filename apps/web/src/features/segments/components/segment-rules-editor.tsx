import { Plus } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { newRuleId } from '../segment-ids';
import { newRule, type EditableRule } from '../segment-rules';
import { RuleRow, type RuleErrors } from './rule-row';

/** The segment's rules: how they combine (ALL or ANY), one row per rule, and Add rule. */
export function SegmentRulesEditor({
  operator,
  rules,
  rulesMessage,
  ruleErrors,
  onOperatorChange,
  setRules,
}: {
  operator: 'AND' | 'OR';
  rules: EditableRule[];
  /** A message about the rules as a whole (e.g. none left). */
  rulesMessage: string | undefined;
  ruleErrors: (index: number, rule: EditableRule) => RuleErrors | undefined;
  onOperatorChange: (value: string) => void;
  setRules: (next: EditableRule[]) => void;
}) {
  return (
    <div role="group" aria-labelledby="segment-rules-label" className="min-w-0 space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="segment-rules-label" className="text-sm font-medium">
          Rules
        </h3>
        <ToggleGroup
          type="single"
          variant="outline"
          size="sm"
          aria-label="How rules combine"
          value={operator}
          onValueChange={onOperatorChange}
        >
          <ToggleGroupItem value="AND" className="data-[state=on]:bg-primary data-[state=on]:text-primary-foreground">
            Match ALL rules
          </ToggleGroupItem>
          <ToggleGroupItem value="OR" className="data-[state=on]:bg-primary data-[state=on]:text-primary-foreground">
            Match ANY rule
          </ToggleGroupItem>
        </ToggleGroup>
      </div>
      <ol className="space-y-2">
        {rules.map((rule, index) => (
          <RuleRow
            key={rule.id}
            rule={rule}
            index={index}
            joinWord={index > 0 ? operator : undefined}
            canRemove={rules.length > 1}
            errors={ruleErrors(index, rule)}
            onChange={(next) => setRules(rules.map((r) => (r.id === rule.id ? next : r)))}
            onRemove={() => {
              if (rules.length > 1) setRules(rules.filter((r) => r.id !== rule.id));
            }}
          />
        ))}
      </ol>
      {rulesMessage && <p className="text-destructive text-sm">{rulesMessage}</p>}
      <Button type="button" variant="outline" size="sm" onClick={() => setRules([...rules, newRule(newRuleId())])}>
        <Plus aria-hidden="true" />
        Add rule
      </Button>
    </div>
  );
}
