// Pure helpers for the segment rule editor and the segment cards: labels, summaries, completeness.
// No React and no '@/' imports, so the unit tests run them as they are.
import {
  isSegmentField,
  operatorsFor,
  RELATIVE_DATE,
  segmentFieldKinds,
  VALUELESS_OPERATORS,
  type SegmentField,
  type SegmentFieldKind,
} from '@sendwell/contract/segments';

/** A rule as the editor holds it: the contract's rule with a string value. */
export interface EditableRule {
  id: string;
  field: string;
  operator: string;
  value: string;
}

/** The 12 rule fields in the order the Field select offers them, with their labels. */
export const FIELD_LABELS: Record<SegmentField, string> = {
  email: 'Email',
  firstName: 'First name',
  lastName: 'Last name',
  company: 'Company',
  jobTitle: 'Job title',
  location: 'Location',
  engagementScore: 'Engagement score',
  totalEmailsOpened: 'Emails opened',
  totalEmailsClicked: 'Emails clicked',
  createdAt: 'Created',
  lastActivityAt: 'Last activity',
  tags: 'Tags',
};

export const SEGMENT_FIELDS = Object.keys(segmentFieldKinds) as SegmentField[];

/** The label of a field, or the raw name for a field this client does not know. */
function fieldLabel(field: string): string {
  return isSegmentField(field) ? FIELD_LABELS[field] : field;
}

/** The kind of a field (text, numeric, date, tags), or undefined for an unknown field. */
export function fieldKind(field: string): SegmentFieldKind | undefined {
  return isSegmentField(field) ? segmentFieldKinds[field] : undefined;
}

/** Operators a field allows (none for an unknown field). */
export function operatorsForField(field: string): readonly string[] {
  return isSegmentField(field) ? operatorsFor(field) : [];
}

/** How the Operator select names an operator; the words depend on the field's kind. */
const OPERATOR_LABELS: Record<SegmentFieldKind, Record<string, string>> = {
  numeric: {
    equals: 'equals (=)',
    not_equals: 'does not equal (≠)',
    greater_than: 'greater than (>)',
    less_than: 'less than (<)',
    greater_equal: 'at least (≥)',
    less_equal: 'at most (≤)',
  },
  text: {
    equals: 'is',
    not_equals: 'is not',
    contains: 'contains',
    not_contains: 'does not contain',
    starts_with: 'starts with',
    ends_with: 'ends with',
    is_empty: 'is empty',
    is_not_empty: 'is not empty',
  },
  date: { date_before: 'before', date_after: 'after' },
  tags: { tag_contains: 'has tag', is_empty: 'has no tags', is_not_empty: 'has any tag' },
};

/** The Operator select's label of an operator on a field. */
export function operatorLabel(field: string, operator: string): string {
  const kind = fieldKind(field);
  return (kind && OPERATOR_LABELS[kind][operator]) ?? operator.replaceAll('_', ' ');
}

/** Symbols used in the short summaries of numeric rules. */
const NUMERIC_SYMBOLS: Record<string, string> = {
  equals: '=',
  not_equals: '≠',
  greater_than: '>',
  less_than: '<',
  greater_equal: '≥',
  less_equal: '≤',
};

/** True when the operator needs no value (is_empty, is_not_empty). */
export function isValuelessOperator(operator: string): boolean {
  return VALUELESS_OPERATORS.includes(operator);
}

/** "30 days ago" → 30; anything else → null. */
export function relativeDays(value: string): number | null {
  const match = RELATIVE_DATE.exec(value.trim());
  return match ? Number(match[1]) : null;
}

/** 30 → "30 days ago", 1 → "1 day ago". */
export function daysAgoValue(days: number): string {
  return `${days} ${days === 1 ? 'day' : 'days'} ago`;
}

function dateRuleSummary(label: string, operator: string, value: string): string {
  const days = relativeDays(value);
  if (days !== null) {
    const span = days === 1 ? 'day' : `${days} days`;
    return operator === 'date_after' ? `${label} in the last ${span}` : `${label} more than ${daysAgoValue(days)}`;
  }
  return `${label} ${operator === 'date_after' ? 'after' : 'before'} ${value}`;
}

/** One rule in words: 'Engagement score ≥ 75', 'Location contains "usa"', 'Created in the last 30 days'. */
export function summarizeRule(rule: Pick<EditableRule, 'field' | 'operator' | 'value'>): string {
  const label = fieldLabel(rule.field);
  const kind = fieldKind(rule.field);
  const value = rule.value.trim();
  if (isValuelessOperator(rule.operator)) {
    const words = operatorLabel(rule.field, rule.operator);
    return kind === 'tags' ? words.charAt(0).toUpperCase() + words.slice(1) : `${label} ${words}`;
  }
  if (kind === 'numeric') return `${label} ${NUMERIC_SYMBOLS[rule.operator] ?? rule.operator} ${value}`;
  if (kind === 'date') return dateRuleSummary(label, rule.operator, value);
  if (kind === 'tags') return `Has tag "${value}"`;
  return `${label} ${operatorLabel(rule.field, rule.operator)} "${value}"`;
}

function joinWords(values: readonly string[], word: 'and' | 'or'): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} ${word} ${values[values.length - 1]}`;
}

/**
 * A rule set in words, rules joined by AND or OR: 'Engagement score ≥ 75 AND Emails opened ≥ 10'.
 * Text and tag rules that share a field and an operator are said once with their values listed
 * ('Location contains "usa", "canada" or "mexico"'); AND and OR do not depend on order, so this keeps the meaning.
 */
export function summarizeConditions(conditions: {
  operator: 'AND' | 'OR';
  rules: ReadonlyArray<Pick<EditableRule, 'field' | 'operator' | 'value'>>;
}): string {
  if (conditions.rules.length === 0) return 'No rules';
  const parts: Array<{ key: string | null; rules: Array<Pick<EditableRule, 'field' | 'operator' | 'value'>> }> = [];
  for (const rule of conditions.rules) {
    const kind = fieldKind(rule.field);
    const groupable = (kind === 'text' || kind === 'tags') && !isValuelessOperator(rule.operator);
    const key = groupable ? `${rule.field}\u0000${rule.operator}` : null;
    const group = key === null ? undefined : parts.find((part) => part.key === key);
    if (group) group.rules.push(rule);
    else parts.push({ key, rules: [rule] });
  }
  const word = conditions.operator === 'AND' ? 'and' : 'or';
  return parts
    .map(({ rules }) => {
      const [first, ...rest] = rules;
      if (!first) return '';
      if (rest.length === 0) return summarizeRule(first);
      // 'Location contains "usa"' → 'Location contains' + the quoted values.
      const head = summarizeRule({ ...first, value: '' }).replace(/ ""$/, '');
      return `${head} ${joinWords(
        rules.map((rule) => `"${rule.value.trim()}"`),
        word,
      )}`;
    })
    .join(` ${conditions.operator} `);
}

/** True when a rule has a known field, an operator that field allows and, unless valueless, a value. */
export function isRuleComplete(rule: Pick<EditableRule, 'field' | 'operator' | 'value'>): boolean {
  if (!operatorsForField(rule.field).includes(rule.operator)) return false;
  return isValuelessOperator(rule.operator) || rule.value.trim() !== '';
}

/** True when every rule is complete (and there is at least one). */
export function areRulesComplete(rules: ReadonlyArray<Pick<EditableRule, 'field' | 'operator' | 'value'>>): boolean {
  return rules.length > 0 && rules.every(isRuleComplete);
}

/** A rule whose field changed: the operator goes back to the field's first one and the value is cleared (spec §5). */
export function changeRuleField<R extends EditableRule>(rule: R, field: string): R {
  if (field === rule.field) return rule;
  return { ...rule, field, operator: operatorsForField(field)[0] ?? '', value: '' };
}

/** A rule whose operator changed: a valueless operator drops the value. */
export function changeRuleOperator<R extends EditableRule>(rule: R, operator: string): R {
  return { ...rule, operator, value: isValuelessOperator(operator) ? '' : rule.value };
}

/** A new, empty rule on a field (email by default) with the field's first operator. */
export function newRule(id: string, field: SegmentField = 'email'): EditableRule {
  return { id, field, operator: operatorsFor(field)[0] ?? '', value: '' };
}

/**
 * A contract or server message about a rule, with the raw field name replaced by its label:
 * "The rule on 'engagementScore' needs a value" → "The rule on 'Engagement score' needs a value".
 */
export function humanizeRuleMessage(message: string, field: string): string {
  if (!isSegmentField(field)) return message;
  return message.replaceAll(`'${field}'`, `'${FIELD_LABELS[field]}'`);
}

const relativeFormat = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
const RELATIVE_STEPS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** An ISO time relative to now: 'just now', '5 minutes ago', 'yesterday', '3 weeks ago'. */
export function formatRelativeTime(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return 'never';
  const time = new Date(iso).getTime();
  if (Number.isNaN(time)) return 'never';
  const seconds = Math.round((time - now.getTime()) / 1000);
  if (Math.abs(seconds) < 60) return 'just now';
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(seconds) >= size) return relativeFormat.format(Math.trunc(seconds / size), unit);
  }
  return 'just now';
}
