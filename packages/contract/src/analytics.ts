import { z } from 'zod';
import { rowIdSchema } from './common.ts';

/** Trends compare the last 30 days with the 30 days before them. */
export const TREND_WINDOW_DAYS = 30;
/** Spec §9: an open rate above 25% is 'Above industry avg'. */
export const OPEN_RATE_INDUSTRY_AVERAGE = 25;

/** A count or an amount now (or over the last 30 days) against the 30 days before. */
const relativeTrendSchema = z.object({
  current: z.number(),
  /** null when there is nothing to compare with (no data from the previous 30 days). */
  previous: z.number().nullable(),
  /** (current - previous) / previous in percent, one decimal; null when previous is null or 0. */
  changePercent: z.number().nullable(),
});

/** A rate (percent) of the campaigns sent in the last 30 days against those sent in the 30 days before. */
const rateTrendSchema = z.object({
  /** null when no campaign was sent in the last 30 days. */
  current: z.number().nullable(),
  /** null when no campaign was sent in the 30 days before. */
  previous: z.number().nullable(),
  /** current - previous in percentage points, one decimal; null when either is null. */
  changePoints: z.number().nullable(),
});

export const statsTrendsSchema = z.object({
  /**
   * Active contacts now against those active 30 days ago. The past figure is rebuilt from stored
   * rows: contacts created by then that are active now or were deactivated later by an unsubscribe
   * or complaint. Contacts deleted since, and ones switched off by hand, are not known and not counted.
   */
  subscribers: relativeTrendSchema,
  openRate: rateTrendSchema,
  clickRate: rateTrendSchema,
  /** Recorded purchases, in dollars, of the last 30 days against the 30 days before. */
  revenue: relativeTrendSchema,
  /** avgOpenRate against the industry average of spec §9; null before any campaign was sent. */
  openRateVsIndustry: z.object({ industryAverage: z.number(), differencePoints: z.number() }).nullable(),
});
export type StatsTrends = z.infer<typeof statsTrendsSchema>;

/** GET /api/analytics/stats: rates are percentages (0-100), revenue in dollars. */
export const statsResponseSchema = z.object({
  totalSubscribers: z.number().int(),
  /** Human and implied opens (a click is an open) over sent; machine opens are not in it. */
  avgOpenRate: z.number(),
  /** Recipients whose only opens were a machine's (Apple Mail Privacy Protection, pre-fetchers), over sent. */
  avgMachineOpenRate: z.number(),
  /** Human clicks over sent; bot clicks (link scanners) are not in it. */
  avgClickRate: z.number(),
  totalRevenue: z.number(),
  trends: statsTrendsSchema,
});
export type StatsResponse = z.infer<typeof statsResponseSchema>;

/** The largest single purchase accepted, in dollars: far above real orders, far below integer overflow. */
export const PURCHASE_AMOUNT_MAX = 1_000_000;

/** A purchase amount in dollars: more than 0, at most 2 decimals, at most $1,000,000. */
export const purchaseAmountSchema = z
  .number({ error: 'Amount must be a number' })
  .positive('Amount must be more than 0')
  .max(PURCHASE_AMOUNT_MAX, 'Amount must be at most $1,000,000')
  // Compared in cents with a tolerance, since 19.99 * 100 is 1998.9999999999998 in floating point.
  .refine(
    (dollars) => Math.abs(dollars * 100 - Math.round(dollars * 100)) < 1e-6,
    'Amount can have at most 2 decimals',
  );

/** POST /api/analytics/purchases: a purchase by one of the user's contacts, optionally credited to a campaign. */
export const recordPurchaseBodySchema = z.object({
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .pipe(z.email('Invalid email format'))
    .transform((email) => email.toLowerCase()),
  amount: purchaseAmountSchema,
  campaignId: rowIdSchema('Campaign must be a campaign id').optional(),
});
export type RecordPurchaseBody = z.input<typeof recordPurchaseBodySchema>;
/** The body as parsed (email lower-cased). */
export type RecordPurchase = z.output<typeof recordPurchaseBodySchema>;

/**
 * The record-a-purchase form: the same rules over what the inputs hold (text), giving the body.
 * An empty campaign means none.
 */
export const recordPurchaseFormSchema = z.object({
  email: recordPurchaseBodySchema.shape.email,
  amount: z
    .string()
    .trim()
    .min(1, 'Amount is required')
    .transform((text) => (/^-?\d*\.?\d*$/.test(text) ? Number(text) : Number.NaN))
    .pipe(purchaseAmountSchema),
  campaignId: z
    .string()
    .transform((value) => (value === '' ? undefined : Number(value)))
    .pipe(recordPurchaseBodySchema.shape.campaignId),
});
export type RecordPurchaseFormValues = z.input<typeof recordPurchaseFormSchema>;

export const PURCHASE_NOT_A_CONTACT = 'No contact with this email. Add them to your contacts first.';
export const PURCHASE_CAMPAIGN_NOT_FOUND = 'Campaign not found';
export const PURCHASE_CAMPAIGN_NOT_SENT =
  'This campaign has not sent any email yet, so no purchase can be credited to it.';

/** A recorded purchase (201 of POST /api/analytics/purchases, items of GET). Amount in dollars. */
export const purchaseSchema = z.object({
  id: z.number().int(),
  /** The contact's email now; null when the contact has since been deleted. */
  email: z.string().nullable(),
  contactId: z.number().int().nullable(),
  campaignId: z.number().int().nullable(),
  campaignName: z.string().nullable(),
  amount: z.number(),
  createdAt: z.string(),
});
export type Purchase = z.infer<typeof purchaseSchema>;
export const purchaseListSchema = z.array(purchaseSchema);

export const PURCHASES_PAGE_SIZE_DEFAULT = 20;
export const PURCHASES_PAGE_SIZE_MAX = 100;

/** GET /api/analytics/purchases?page&pageSize: newest first; the total is in X-Total-Count. */
export const purchasesQuerySchema = z.object({
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1, 'page must be 1 or more').default(1),
  pageSize: z.coerce
    .number({ error: 'pageSize must be a number' })
    .int()
    .min(1, 'pageSize must be 1 or more')
    .max(PURCHASES_PAGE_SIZE_MAX, `pageSize must be at most ${PURCHASES_PAGE_SIZE_MAX}`)
    .default(PURCHASES_PAGE_SIZE_DEFAULT),
});
export type PurchasesQuery = z.input<typeof purchasesQuerySchema>;
