import { describe, expect, it } from 'vitest';
import { operatorsFor, segmentConditionsSchema } from '@sendwell/contract/segments';

import {
  areRulesComplete,
  changeRuleField,
  changeRuleOperator,
  daysAgoValue,
  formatRelativeTime,
  humanizeRuleMessage,
  isRuleComplete,
  newRule,
  operatorLabel,
  relativeDays,
  SEGMENT_FIELDS,
  summarizeConditions,
  summarizeRule,
} from './segment-rules';

const rule = (field: string, operator: string, value = '') => ({ id: 'r1', field, operator, value });

describe('summarizeRule / summarizeConditions', () => {
  it('writes numeric rules with symbols', () => {
    expect(
      summarizeConditions({
        operator: 'AND',
        rules: [rule('engagementScore', 'greater_equal', '75'), rule('totalEmailsOpened', 'greater_equal', '10')],
      }),
    ).toBe('Engagement score ≥ 75 AND Emails opened ≥ 10');
    expect(summarizeRule(rule('totalEmailsClicked', 'not_equals', '0'))).toBe('Emails clicked ≠ 0');
  });

  it('quotes text values and joins OR rules', () => {
    expect(
      summarizeConditions({
        operator: 'OR',
        rules: [rule('location', 'contains', 'usa'), rule('company', 'equals', 'Acme')],
      }),
    ).toBe('Location contains "usa" OR Company is "Acme"');
    expect(summarizeRule(rule('email', 'ends_with', '@acme.com'))).toBe('Email ends with "@acme.com"');
  });

  it('writes valueless rules without a value', () => {
    expect(summarizeRule(rule('jobTitle', 'is_not_empty'))).toBe('Job title is not empty');
    expect(summarizeRule(rule('tags', 'is_empty'))).toBe('Has no tags');
    expect(summarizeRule(rule('tags', 'tag_contains', 'vip'))).toBe('Has tag "vip"');
  });

  it('writes relative and absolute dates', () => {
    expect(summarizeRule(rule('createdAt', 'date_after', '30 days ago'))).toBe('Created in the last 30 days');
    expect(summarizeRule(rule('createdAt', 'date_after', '1 day ago'))).toBe('Created in the last day');
    expect(summarizeRule(rule('lastActivityAt', 'date_before', '90 days ago'))).toBe(
      'Last activity more than 90 days ago',
    );
    expect(summarizeRule(rule('createdAt', 'date_before', '2026-03-01'))).toBe('Created before 2026-03-01');
  });

  it('lists the values of text and tag rules that share a field and an operator', () => {
    expect(
      summarizeConditions({
        operator: 'OR',
        rules: [
          rule('jobTitle', 'contains', 'engineer'),
          rule('company', 'contains', 'tech'),
          rule('jobTitle', 'contains', 'cto'),
        ],
      }),
    ).toBe('Job title contains "engineer" or "cto" OR Company contains "tech"');
    expect(
      summarizeConditions({
        operator: 'AND',
        rules: [rule('tags', 'tag_contains', 'vip'), rule('tags', 'tag_contains', 'gold')],
      }),
    ).toBe('Has tag "vip" and "gold"');
    expect(
      summarizeConditions({
        operator: 'AND',
        rules: [rule('engagementScore', 'greater_equal', '10'), rule('engagementScore', 'greater_equal', '20')],
      }),
    ).toBe('Engagement score ≥ 10 AND Engagement score ≥ 20');
  });

  it('says so when there are no rules', () => {
    expect(summarizeConditions({ operator: 'AND', rules: [] })).toBe('No rules');
  });
});

describe('changeRuleField', () => {
  it('resets the operator to the new field’s first one and clears the value', () => {
    const before = rule('location', 'contains', 'usa');
    expect(changeRuleField(before, 'engagementScore')).toEqual({
      id: 'r1',
      field: 'engagementScore',
      operator: 'equals',
      value: '',
    });
    expect(changeRuleField(before, 'createdAt')).toEqual({
      id: 'r1',
      field: 'createdAt',
      operator: 'date_before',
      value: '',
    });
    expect(changeRuleField(before, 'tags')).toEqual({ id: 'r1', field: 'tags', operator: 'tag_contains', value: '' });
  });

  it('resets even between fields of the same kind', () => {
    expect(changeRuleField(rule('location', 'ends_with', 'usa'), 'company')).toEqual(rule('company', 'equals', ''));
  });

  it('leaves the rule alone when the field is unchanged', () => {
    const same = rule('company', 'contains', 'tech');
    expect(changeRuleField(same, 'company')).toBe(same);
  });

  it('always lands on an operator the contract allows', () => {
    for (const field of SEGMENT_FIELDS) {
      const changed = changeRuleField(rule('__none__', 'x', 'y'), field);
      expect(operatorsFor(field)).toContain(changed.operator);
    }
  });
});

describe('changeRuleOperator', () => {
  it('drops the value for is_empty / is_not_empty and keeps it otherwise', () => {
    expect(changeRuleOperator(rule('company', 'contains', 'tech'), 'is_empty').value).toBe('');
    expect(changeRuleOperator(rule('company', 'contains', 'tech'), 'starts_with').value).toBe('tech');
  });
});

describe('isRuleComplete / areRulesComplete', () => {
  it('needs a value unless the operator is valueless', () => {
    expect(isRuleComplete(rule('company', 'contains', ''))).toBe(false);
    expect(isRuleComplete(rule('company', 'contains', '   '))).toBe(false);
    expect(isRuleComplete(rule('company', 'contains', 'tech'))).toBe(true);
    expect(isRuleComplete(rule('company', 'is_empty'))).toBe(true);
    expect(isRuleComplete(rule('tags', 'is_not_empty'))).toBe(true);
  });

  it('needs a known field and an operator that field allows', () => {
    expect(isRuleComplete(rule('', '', 'x'))).toBe(false);
    expect(isRuleComplete(rule('nickname', 'equals', 'x'))).toBe(false);
    expect(isRuleComplete(rule('engagementScore', 'contains', '5'))).toBe(false);
  });

  it('agrees with the contract on a complete rule set', () => {
    const rules = [rule('engagementScore', 'greater_equal', '75'), { ...rule('tags', 'is_empty'), id: 'r2' }];
    expect(areRulesComplete(rules)).toBe(true);
    expect(segmentConditionsSchema.safeParse({ operator: 'AND', rules }).success).toBe(true);
  });

  it('is false for an empty list or any incomplete rule', () => {
    expect(areRulesComplete([])).toBe(false);
    expect(areRulesComplete([rule('company', 'contains', 'a'), rule('email', 'equals', '')])).toBe(false);
  });
});

describe('helpers', () => {
  it('creates a new rule with the first valid operator', () => {
    expect(newRule('id-1')).toEqual({ id: 'id-1', field: 'email', operator: 'equals', value: '' });
    expect(newRule('id-2', 'createdAt').operator).toBe('date_before');
  });

  it('reads and writes "N days ago"', () => {
    expect(relativeDays('30 days ago')).toBe(30);
    expect(relativeDays('1 day ago')).toBe(1);
    expect(relativeDays('2026-03-01')).toBeNull();
    expect(daysAgoValue(1)).toBe('1 day ago');
    expect(daysAgoValue(7)).toBe('7 days ago');
  });

  it('labels operators by the field’s kind', () => {
    expect(operatorLabel('engagementScore', 'greater_equal')).toBe('at least (≥)');
    expect(operatorLabel('company', 'equals')).toBe('is');
    expect(operatorLabel('tags', 'is_empty')).toBe('has no tags');
  });

  it('puts field labels into contract messages', () => {
    expect(humanizeRuleMessage("The rule on 'engagementScore' needs a value", 'engagementScore')).toBe(
      "The rule on 'Engagement score' needs a value",
    );
  });

  it('formats times relative to now', () => {
    const now = new Date('2026-03-10T12:00:00Z');
    expect(formatRelativeTime('2026-03-10T11:59:30Z', now)).toBe('just now');
    expect(formatRelativeTime('2026-03-10T11:55:00Z', now)).toBe('5 minutes ago');
    expect(formatRelativeTime('2026-03-10T09:00:00Z', now)).toBe('3 hours ago');
    expect(formatRelativeTime('2026-03-09T12:00:00Z', now)).toBe('yesterday');
    expect(formatRelativeTime(null, now)).toBe('never');
  });
});
