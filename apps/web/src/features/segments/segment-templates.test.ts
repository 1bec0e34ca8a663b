import { describe, expect, it } from 'vitest';
import { createSegmentBodySchema, segmentConditionsSchema } from '@sendwell/contract/segments';

import { SEGMENT_TEMPLATES } from './segment-templates';
import { summarizeConditions } from './segment-rules';

describe('SEGMENT_TEMPLATES', () => {
  it('offers the six templates of the spec, in order', () => {
    expect(SEGMENT_TEMPLATES.map((t) => t.name)).toEqual([
      'High Engagement Subscribers',
      'Recent Subscribers (last 30 days)',
      'Inactive Subscribers',
      'VIP Customers',
      'North America Contacts',
      'Tech Professionals',
    ]);
  });

  it.each(SEGMENT_TEMPLATES.map((t) => [t.name, t] as const))('%s passes the contract', (_name, template) => {
    expect(segmentConditionsSchema.safeParse(template.segment.conditions).success).toBe(true);
    expect(createSegmentBodySchema.safeParse(template.segment).success).toBe(true);
  });

  it('gives every rule a unique id', () => {
    const ids = SEGMENT_TEMPLATES.flatMap((t) => t.segment.conditions.rules.map((r) => r.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('encodes the thresholds of spec §3', () => {
    const byId = Object.fromEntries(SEGMENT_TEMPLATES.map((t) => [t.id, t.segment.conditions]));
    const summary = (id: string) => {
      const conditions = byId[id];
      if (!conditions) throw new Error(id);
      return summarizeConditions({
        operator: conditions.operator,
        rules: conditions.rules.map((r) => ({ ...r, value: String(r.value ?? '') })),
      });
    };
    expect(summary('high-engagement')).toBe('Engagement score ≥ 75 AND Emails opened ≥ 10');
    expect(summary('recent')).toBe('Created in the last 30 days');
    expect(summary('inactive')).toBe('Engagement score ≤ 25 AND Emails opened ≤ 2');
    expect(summary('vip')).toBe('Engagement score ≥ 80 AND Job title contains "chief"');
    expect(summary('north-america')).toBe('Location contains "usa", "united states", "canada" or "mexico"');
    expect(summary('tech-professionals')).toBe(
      'Job title contains "engineer", "developer" or "chief technology" OR Company contains "tech"',
    );
  });
});
