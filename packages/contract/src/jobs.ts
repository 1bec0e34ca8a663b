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

/** One row of the forwarding ledger to send (a forward or an auto-reply). */
export const inboundForwardJobSchema = z.object({ forwardId: z.number().int().positive() });
export type InboundForwardJob = z.infer<typeof inboundForwardJobSchema>;

/** A bounce that arrived at one of our SRS addresses, to relay to the original sender. */
export const srsBounceJobSchema = z.object({
  inboundMessageId: z.number().int().positive(),
  recipient: z.string().max(512),
});
export type SrsBounceJob = z.infer<typeof srsBounceJobSchema>;

/** A wake of the sequence advancer: it runs every enrolment that is due (the payload only dedupes wakes). */
export const sequenceAdvanceJobSchema = z.object({ reason: z.string().max(100).optional() });
export type SequenceAdvanceJob = z.infer<typeof sequenceAdvanceJobSchema>;

/** A user whose list joins may trigger sequences (checked shortly after their contacts change). */
export const sequenceTriggerJobSchema = z.object({ userId: z.string() });

/** A sequence whose queued email steps are handed to the delivery engine. */
export const sequenceSendJobSchema = z.object({ sequenceId: z.number().int().positive() });

/** A verified Stripe webhook event, applied by a job: its id (applied once), type and subscription. */
export const stripeEventJobSchema = z.object({
  eventId: z.string().min(1),
  type: z.string().min(1),
  subscriptionId: z.string().nullable(),
});
export type StripeEventJob = z.infer<typeof stripeEventJobSchema>;

/** A hosted lead form's submission whose double opt-in mail is to be sent. */
export const leadFormConfirmationJobSchema = z.object({ submissionId: z.number().int().positive() });

/** A lead generation run (POST /api/leads/generate) to work: its platforms searched, its leads stored. */
export const leadGenerationJobSchema = z.object({ runId: z.uuid() });
