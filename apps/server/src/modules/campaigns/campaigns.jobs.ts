import { campaignSendBatchJobSchema, campaignStartJobSchema, emptyJobSchema } from '@sendwell/contract/jobs';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../lib/queue.ts';
import { recoverCampaignSends, runSendBatch, startScheduledCampaign } from './campaign-send.service.ts';

/**
 * One range of a campaign's send ledger. Three at once per process, so the others' messages fill
 * the SMTP connections while one claims, renders, starts or ends (two left them idle 15% of the
 * time, three 7%); a quick poll so a Send starts going out at once. A job that dies is retried and
 * skips rows already sent; one whose worker died is handed to another after the batch timeout
 * (given at enqueue: SEND_BATCH_TIMEOUT_SECONDS).
 */
export const sendBatchJob = defineJob({
  name: 'campaign.send-batch',
  payload: campaignSendBatchJobSchema,
  worker: { concurrency: 3, pollingIntervalSeconds: 0.5 },
  send: { retryLimit: 10, retryDelay: 15, retryBackoff: true },
  handler: (ctx: AppContext, batch) => runSendBatch(ctx, batch),
});

/** A scheduled campaign's start, at its time. */
export const startScheduledJob = defineJob({
  name: 'campaign.start-scheduled',
  payload: campaignStartJobSchema,
  handler: (ctx: AppContext, { campaignId }) => startScheduledCampaign(ctx, campaignId),
});

/** Every minute: sends a dead worker left half done are picked up again. */
export const recoverSendsJob = defineJob({
  name: 'campaign.recover-sends',
  payload: emptyJobSchema,
  worker: { cron: '* * * * *' },
  handler: async (ctx: AppContext) => void (await recoverCampaignSends(ctx)),
});

export const campaignJobs = [sendBatchJob, startScheduledJob, recoverSendsJob];
