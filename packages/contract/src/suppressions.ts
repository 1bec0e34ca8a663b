import { z } from 'zod';

/**
 * Why an address is suppressed: it bounced (hard, or too many soft bounces), complained, unsubscribed,
 * or never engaged (the sunset policy, contract/sunset.ts).
 */
export const SUPPRESSION_REASONS = ['bounce', 'complaint', 'unsubscribe', 'unengaged'] as const;
export const suppressionReasonSchema = z.enum(SUPPRESSION_REASONS);
export type SuppressionReason = z.infer<typeof suppressionReasonSchema>;

export const SUPPRESSIONS_PAGE_SIZE = 50;

/** Query of GET /api/suppressions; the total is in the answer. */
export const suppressionsQuerySchema = z.object({
  search: z.string().trim().max(200, 'Search must be at most 200 characters').optional(),
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page must be 1 or more')
    .max(1_000_000, 'page must be at most 1000000')
    .default(1),
});
export type SuppressionsQuery = z.input<typeof suppressionsQuerySchema>;

export const suppressionSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  /** unsubscribe, complaint, or bounce; a string so that a reason stored by an older release still shows. */
  reason: z.string(),
  /** A bounce's classified reason and the receiver's answer ("user-unknown: 5.1.1 …"), or the soft-bounce count. */
  detail: z.string().nullable(),
  campaignId: z.number().int().nullable(),
  campaignName: z.string().nullable(),
  createdAt: z.string(),
});
export type Suppression = z.infer<typeof suppressionSchema>;

export const suppressionsPageSchema = z.object({
  suppressions: z.array(suppressionSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type SuppressionsPage = z.infer<typeof suppressionsPageSchema>;
