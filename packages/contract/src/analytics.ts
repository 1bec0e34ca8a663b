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

// ── /analytics: GET /api/analytics/overview ───────────────────────────────────────────────────────

/** The longest range the overview answers, in days (a year, leap day included). */
export const OVERVIEW_MAX_RANGE_DAYS = 366;
/** The range picker's presets, in days ending today. */
export const OVERVIEW_PRESET_DAYS = [7, 30, 90] as const;
/** A campaign ranks among the top ones only with at least this many messages sent (rates of a handful mean nothing). */
export const TOP_CAMPAIGN_MIN_SENT = 20;
/** How many campaigns and links the overview ranks. */
export const OVERVIEW_TOP_COUNT = 5;
/**
 * A sending domain's reputation from its hard-bounce and complaint rates (percent). Mailbox
 * providers start filtering near a 0.3% complaint rate (Gmail's and Yahoo's sender rules) and
 * treat bounce rates over a few percent as a list that was not kept clean.
 */
export const REPUTATION_THRESHOLDS = {
  good: { bounceRate: 2, complaintRate: 0.1 },
  fair: { bounceRate: 5, complaintRate: 0.3 },
} as const;

export const OVERVIEW_DATE_INVALID = 'Use a date like 2026-01-31';
export const OVERVIEW_RANGE_REVERSED = 'The start date must be on or before the end date';
export const OVERVIEW_RANGE_TOO_LONG = `The range can be at most ${OVERVIEW_MAX_RANGE_DAYS} days`;

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDateSchema = z
  .string({ error: OVERVIEW_DATE_INVALID })
  .regex(/^\d{4}-\d{2}-\d{2}$/, OVERVIEW_DATE_INVALID)
  // A real calendar day: 2026-02-30 does not round-trip.
  .refine((text) => {
    const date = new Date(`${text}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
  }, OVERVIEW_DATE_INVALID);

/** Days from `from` to `to`, both included (UTC calendar days). */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** GET /api/analytics/overview?from&to: UTC calendar days, both included, at most 366 of them. */
export const overviewQuerySchema = z
  .object({ from: isoDateSchema, to: isoDateSchema })
  .superRefine(({ from, to }, ctx) => {
    if (from > to) ctx.addIssue({ code: 'custom', path: ['from'], message: OVERVIEW_RANGE_REVERSED });
    else if (daysInRange(from, to) > OVERVIEW_MAX_RANGE_DAYS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: OVERVIEW_RANGE_TOO_LONG });
  });
export type OverviewQuery = z.infer<typeof overviewQuerySchema>;

const count = z.number().int();
/** A percentage (0–100, one decimal); null when there is nothing to divide by. */
const rate = z.number().nullable();

/** Campaign and sequence mail, counted as messages by the day they were sent (what has become of them since). */
export const overviewMailFiguresSchema = z.object({
  sent: count,
  /** Sent minus hard bounces. */
  delivered: count,
  /** Opened by a reader: a human open or a click (a click implies an open). */
  opened: count,
  /** Opened only by a machine (Apple Mail Privacy Protection, pre-fetchers): not in `opened`. */
  machineOpened: count,
  /** Clicked by a reader; messages clicked only by link scanners are left out. */
  clicked: count,
  bounced: count,
  complaints: count,
  unsubscribes: count,
});
export type OverviewMailFigures = z.infer<typeof overviewMailFiguresSchema>;

export const overviewDaySchema = overviewMailFiguresSchema.extend({ day: z.string() });
export type OverviewDay = z.infer<typeof overviewDaySchema>;

export const reputationSchema = z.enum(['good', 'fair', 'poor']);
export type Reputation = z.infer<typeof reputationSchema>;

export const overviewDomainSchema = z.object({
  domain: z.string(),
  sent: count,
  delivered: count,
  bounced: count,
  complaints: count,
  /** Hard bounces over sent. */
  bounceRate: rate,
  /** Complaints over delivered. */
  complaintRate: rate,
  /** From the two rates (REPUTATION_THRESHOLDS). */
  reputation: reputationSchema,
});
export type OverviewDomain = z.infer<typeof overviewDomainSchema>;

/** The list on one day (the day it happened): contacts added, and lost to unsubscribes, hard bounces and complaints. */
export const overviewListDaySchema = z.object({
  day: z.string(),
  added: count,
  unsubscribed: count,
  bounced: count,
  complained: count,
  /** added − unsubscribed − bounced − complained. */
  net: count,
});
export type OverviewListDay = z.infer<typeof overviewListDaySchema>;

export const overviewCampaignSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  sentAt: z.string(),
  sent: count,
  /** Human and implied opens over sent. */
  openRate: z.number(),
  /** Human clicks over sent. */
  clickRate: z.number(),
});
export type OverviewCampaign = z.infer<typeof overviewCampaignSchema>;

export const overviewResponseSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Whether the account has sent any mail at all (false: the page shows how to start). */
  hasSentMail: z.boolean(),
  totals: overviewMailFiguresSchema.extend({
    openRate: rate,
    machineOpenRate: rate,
    clickRate: rate,
    bounceRate: rate,
    complaintRate: rate,
    unsubscribeRate: rate,
    contactsAdded: count,
    contactsLost: count,
  }),
  /** Every day of the range, oldest first (days with nothing are zeros). */
  days: z.array(overviewDaySchema),
  /** Sending domains by mail sent, most first. */
  domains: z.array(overviewDomainSchema),
  /** Every day of the range, oldest first. */
  listGrowth: z.array(overviewListDaySchema),
  /** Campaigns sent in the range with at least TOP_CAMPAIGN_MIN_SENT messages, best open rate first (click rate breaks ties). */
  topCampaigns: z.array(overviewCampaignSchema),
  /** Links by human clicks in the range (campaigns and sequences), most first. */
  topLinks: z.array(z.object({ url: z.string(), clicks: count })),
});
export type OverviewResponse = z.infer<typeof overviewResponseSchema>;
