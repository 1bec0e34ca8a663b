import type { CreateSegmentBody } from '@sendwell/contract/segments';

/** A ready-made segment the Templates tab offers; choosing one opens the create dialog prefilled. */
export interface SegmentTemplate {
  id: 'high-engagement' | 'recent' | 'inactive' | 'vip' | 'north-america' | 'tech-professionals';
  /** Card title and the prefilled segment name. */
  name: string;
  /** Card text and the prefilled segment description. */
  description: string;
  segment: CreateSegmentBody;
}

function template(
  id: SegmentTemplate['id'],
  name: string,
  description: string,
  operator: 'AND' | 'OR',
  rules: Array<[field: string, operator: string, value: string]>,
): SegmentTemplate {
  return {
    id,
    name,
    description,
    segment: {
      name,
      description,
      isActive: true,
      // Every template describes a rolling group (recent, engaged, inactive…), so it keeps itself current.
      isAutoUpdate: true,
      conditions: {
        operator,
        rules: rules.map(([field, op, value], index) => ({ id: `${id}-${index + 1}`, field, operator: op, value })),
      },
    },
  };
}

/** The six templates (spec §2, §3 'Segment templates'). */
export const SEGMENT_TEMPLATES: readonly SegmentTemplate[] = [
  template(
    'high-engagement',
    'High Engagement Subscribers',
    'Engagement score of 75 or more and at least 10 opens',
    'AND',
    [
      ['engagementScore', 'greater_equal', '75'],
      ['totalEmailsOpened', 'greater_equal', '10'],
    ],
  ),
  template('recent', 'Recent Subscribers (last 30 days)', 'Contacts added in the last 30 days', 'AND', [
    ['createdAt', 'date_after', '30 days ago'],
  ]),
  template('inactive', 'Inactive Subscribers', 'Engagement score of 25 or less and at most 2 opens', 'AND', [
    ['engagementScore', 'less_equal', '25'],
    ['totalEmailsOpened', 'less_equal', '2'],
  ]),
  template('vip', 'VIP Customers', 'Engagement ≥ 80 with a C-level job title', 'AND', [
    ['engagementScore', 'greater_equal', '80'],
    ['jobTitle', 'contains', 'chief'],
  ]),
  template('north-america', 'North America Contacts', 'Contacts located in the USA, Canada or Mexico', 'OR', [
    ['location', 'contains', 'usa'],
    ['location', 'contains', 'united states'],
    ['location', 'contains', 'canada'],
    ['location', 'contains', 'mexico'],
  ]),
  template(
    'tech-professionals',
    'Tech Professionals',
    'Engineers, developers, CTOs and people at tech companies',
    'OR',
    [
      ['jobTitle', 'contains', 'engineer'],
      ['jobTitle', 'contains', 'developer'],
      ['company', 'contains', 'tech'],
      ['jobTitle', 'contains', 'chief technology'],
    ],
  ),
];
