import {
  RELATIVE_DATE,
  segmentFieldKinds,
  type SegmentConditions,
  type SegmentField,
  type SegmentRule,
} from '@sendwell/contract/segments';

/** The fields of a contact that rules can read, as plain values. */
export type EvaluatedContact = {
  email: string;
  firstName: string;
  lastName: string;
  company: string | null;
  jobTitle: string | null;
  location: string | null;
  engagementScore: number;
  totalEmailsOpened: number;
  totalEmailsClicked: number;
  createdAt: Date;
  lastActivityAt: Date | null;
  tags: string[];
};

const DAY_MS = 86_400_000;

function dateRule(at: Date | null, rule: SegmentRule, now: Date): boolean {
  if (at === null) return false;
  const value = rule.value.trim();
  const before = rule.operator === 'date_before';
  const relative = RELATIVE_DATE.exec(value);
  if (relative) {
    const bound = now.getTime() - Number(relative[1]) * DAY_MS;
    return before ? at.getTime() < bound : at.getTime() > bound;
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    // Whole UTC days: compare the contact's UTC calendar date with the given date.
    const day = at.toISOString().slice(0, 10);
    return before ? day < value : day > value;
  }
  const bound = Date.parse(value);
  return before ? at.getTime() < bound : at.getTime() > bound;
}

function ruleMatches(contact: EvaluatedContact, rule: SegmentRule, now: Date): boolean {
  const field = rule.field as SegmentField;
  switch (segmentFieldKinds[field]) {
    case 'text': {
      const v = ((contact[field] as string | null) ?? '').toLowerCase();
      const x = rule.value.toLowerCase();
      switch (rule.operator) {
        case 'equals':
          return v === x;
        case 'not_equals':
          return v !== x;
        case 'contains':
          return v.includes(x);
        case 'not_contains':
          return !v.includes(x);
        case 'starts_with':
          return v.startsWith(x);
        case 'ends_with':
          return v.endsWith(x);
        case 'is_empty':
          return v === '';
        case 'is_not_empty':
          return v !== '';
      }
      break;
    }
    case 'numeric': {
      const n = contact[field] as number;
      const x = Number(rule.value);
      switch (rule.operator) {
        case 'equals':
          return n === x;
        case 'not_equals':
          return n !== x;
        case 'greater_than':
          return n > x;
        case 'less_than':
          return n < x;
        case 'greater_equal':
          return n >= x;
        case 'less_equal':
          return n <= x;
      }
      break;
    }
    case 'date':
      return dateRule(contact[field] as Date | null, rule, now);
    case 'tags':
      switch (rule.operator) {
        case 'tag_contains':
          return contact.tags.some((tag) => tag.toLowerCase() === rule.value.toLowerCase());
        case 'is_empty':
          return contact.tags.length === 0;
        case 'is_not_empty':
          return contact.tags.length > 0;
      }
  }
  throw new Error(`no evaluator for ${rule.field} ${rule.operator}`);
}

/** A plain in-memory reading of segment rules, the reference the SQL compiler is checked against. */
export function matchesConditions(contact: EvaluatedContact, conditions: SegmentConditions, now: Date): boolean {
  const results = conditions.rules.map((rule) => ruleMatches(contact, rule, now));
  return conditions.operator === 'AND' ? results.every(Boolean) : results.some(Boolean);
}
