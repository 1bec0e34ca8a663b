import { z } from 'zod';
import { EARLIEST_DATE, INT32_MAX, INT32_MIN, isWithinDateRange, LATEST_DATE } from './common.ts';
import { contactListResponseSchema, contactsQuerySchema } from './contacts.ts';

/** Segment rule fields by kind (spec part 2 §5). */
export const segmentFieldKinds = {
  email: 'text',
  firstName: 'text',
  lastName: 'text',
  company: 'text',
  jobTitle: 'text',
  location: 'text',
  engagementScore: 'numeric',
  totalEmailsOpened: 'numeric',
  totalEmailsClicked: 'numeric',
  createdAt: 'date',
  lastActivityAt: 'date',
  tags: 'tags',
} as const;
export type SegmentField = keyof typeof segmentFieldKinds;
export type SegmentFieldKind = (typeof segmentFieldKinds)[SegmentField];

export const segmentOperatorsByKind = {
  numeric: ['equals', 'not_equals', 'greater_than', 'less_than', 'greater_equal', 'less_equal'],
  date: ['date_before', 'date_after'],
  tags: ['tag_contains', 'is_empty', 'is_not_empty'],
  text: ['equals', 'not_equals', 'contains', 'not_contains', 'starts_with', 'ends_with', 'is_empty', 'is_not_empty'],
} as const satisfies Record<SegmentFieldKind, readonly string[]>;
export type SegmentOperator = (typeof segmentOperatorsByKind)[SegmentFieldKind][number];

export const VALUELESS_OPERATORS: readonly string[] = ['is_empty', 'is_not_empty'];

/** Relative date values: "30 days ago" (also "1 day ago"). */
export const RELATIVE_DATE = /^(\d{1,5}) days? ago$/i;

export function isSegmentField(field: string): field is SegmentField {
  return Object.hasOwn(segmentFieldKinds, field);
}

export function operatorsFor(field: SegmentField): readonly string[] {
  return segmentOperatorsByKind[segmentFieldKinds[field]];
}

export function isValidDateValue(value: string): boolean {
  return (
    RELATIVE_DATE.test(value.trim()) ||
    (/^\d{4}-\d{2}-\d{2}/.test(value.trim()) && !Number.isNaN(Date.parse(value.trim())))
  );
}

/** A date value (isValidDateValue) whose instant lies from EARLIEST_DATE to LATEST_DATE; "N days ago" always does. */
export function isDateValueInRange(value: string): boolean {
  const trimmed = value.trim();
  if (RELATIVE_DATE.test(trimmed)) return true;
  // A bare date is a UTC day, as the segment's query reads it.
  return isWithinDateRange(Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(trimmed) ? `${trimmed}T00:00:00Z` : trimmed));
}

const ruleSchema = z
  .object({
    id: z.string().max(100).default(''),
    field: z.string({ error: 'Each rule needs a field' }).min(1, 'Each rule needs a field'),
    operator: z.string({ error: 'Each rule needs an operator' }).min(1, 'Each rule needs an operator'),
    value: z
      .union([z.string(), z.number()])
      .nullish()
      .transform((v) => (v === null || v === undefined ? '' : String(v).trim())),
  })
  .superRefine((rule, ctx) => {
    if (!isSegmentField(rule.field)) {
      ctx.addIssue({ code: 'custom', path: ['field'], message: `Unknown field '${rule.field}'` });
      return;
    }
    const kind = segmentFieldKinds[rule.field];
    if (!operatorsFor(rule.field).includes(rule.operator)) {
      ctx.addIssue({
        code: 'custom',
        path: ['operator'],
        message: `Operator '${rule.operator}' does not apply to the ${kind} field '${rule.field}'`,
      });
      return;
    }
    if (VALUELESS_OPERATORS.includes(rule.operator)) return;
    if (rule.value === '') {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `The rule on '${rule.field}' needs a value` });
    } else if (kind === 'numeric' && !/^-?\d+(\.\d+)?$/.test(rule.value)) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `The value for '${rule.field}' must be a number` });
    } else if (kind === 'numeric' && !(Number(rule.value) >= INT32_MIN && Number(rule.value) <= INT32_MAX)) {
      // The numeric fields are int4 columns: Postgres refuses a comparison with a number they cannot hold.
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: `The value for '${rule.field}' must be between ${INT32_MIN} and ${INT32_MAX}`,
      });
    } else if (kind === 'date' && !isValidDateValue(rule.value)) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: `The value for '${rule.field}' must be a date (YYYY-MM-DD) or "N days ago"`,
      });
    } else if (kind === 'date' && !isDateValueInRange(rule.value)) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: `The value for '${rule.field}' must be a date from ${EARLIEST_DATE} to ${LATEST_DATE} (YYYY-MM-DD) or "N days ago"`,
      });
    } else if (rule.value.length > 200) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'A rule value must be at most 200 characters' });
    }
  });
export type SegmentRule = z.output<typeof ruleSchema>;

export const segmentConditionsSchema = z.object({
  operator: z.enum(['AND', 'OR'], { error: "The rule operator must be 'AND' or 'OR'" }),
  rules: z.array(ruleSchema).min(1, 'Add at least one rule').max(50, 'At most 50 rules'),
});
export type SegmentConditions = z.output<typeof segmentConditionsSchema>;

const segmentFields = {
  name: z
    .string({ error: 'Segment name is required' })
    .trim()
    .min(1, 'Segment name is required')
    .max(120, 'Segment name must be at most 120 characters'),
  description: z
    .string()
    .trim()
    .max(1000, 'Description must be at most 1000 characters')
    .nullish()
    .transform((v) => v || null),
  isActive: z.boolean().default(true),
  isAutoUpdate: z.boolean().default(false),
  conditions: segmentConditionsSchema,
};

/** POST /api/contact-segments */
export const createSegmentBodySchema = z.object(segmentFields);
export type CreateSegmentBody = z.input<typeof createSegmentBodySchema>;
/** PATCH /api/contact-segments/:id */
export const updateSegmentBodySchema = z
  .object({
    name: segmentFields.name,
    description: segmentFields.description,
    isActive: z.boolean(),
    isAutoUpdate: z.boolean(),
    conditions: segmentConditionsSchema,
  })
  .partial();
export type UpdateSegmentBody = z.input<typeof updateSegmentBodySchema>;

export const segmentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  isActive: z.boolean(),
  isAutoUpdate: z.boolean(),
  conditions: z.object({
    operator: z.enum(['AND', 'OR']),
    rules: z.array(z.object({ id: z.string(), field: z.string(), operator: z.string(), value: z.string() })),
  }),
  contactCount: z.number().int(),
  lastUpdatedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Segment = z.infer<typeof segmentSchema>;
export const segmentListSchema = z.array(segmentSchema);

/** POST /api/contact-segments/preview: the live count (and first contacts) of rules being edited. */
export const segmentPreviewBodySchema = z.object({
  conditions: segmentConditionsSchema,
  pageSize: z.number().int().min(1).max(50).default(10),
});

export const segmentPreviewResponseSchema = z.object({ count: z.number().int(), contacts: contactListResponseSchema });
export type SegmentPreview = z.infer<typeof segmentPreviewResponseSchema>;

/** GET /api/contact-segments/:id/contacts?page&pageSize (total in X-Total-Count). */
export const segmentContactsQuerySchema = contactsQuerySchema.pick({ page: true, pageSize: true });
