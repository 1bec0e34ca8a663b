import { z } from 'zod';

/** The payload of every background job, checked when it is enqueued and again when it runs. */

/** A range of one campaign's send ledger. */
export const campaignSendBatchJobSchema = z.object({
  campaignId: z.number().int().positive(),
  fromId: z.number().int().nonnegative(),
  toId: z.number().int().nonnegative(),
});
export type CampaignSendBatchJob = z.infer<typeof campaignSendBatchJobSchema>;

/** A scheduled campaign whose time has come. */
export const campaignStartJobSchema = z.object({ campaignId: z.number().int().positive() });

/** A user whose auto-updating segments are to be recomputed. */
export const segmentRefreshJobSchema = z.object({ userId: z.string() });

/** Jobs that run on a schedule carry nothing. */
export const emptyJobSchema = z.object({}).passthrough();
