import { campaignSendBatchJobSchema, campaignStartJobSchema, emptyJobSchema } from '@sendwell/contract/jobs';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../lib/queue.ts';
import { recoverCampaignSends, runSendBatch, startScheduledCampaign } from './campaign-send.service.ts';

/**
 * One range of a campaign's send ledger. Three at once per process, so the others' messages fill
 * the SMTP connections while one claims, renders, starts or ends (two left them idle 15% of the
 * time, three 7%); a quick poll so a Send starts going out at once. A job that fails (the database
 * went away, the server deferred some rows) is retried 5 s later, without a growing delay, so a send
 * resumes within seconds of the database answering again; it skips rows already sent. One whose
 * worker died expires after half the batch timeout (given at enqueue) and runs again. After its
 * last retry the minute sweep queues a fresh job for what is left.
 */
export const sendBatchJob = defineJob({
  name: 'campaign.send-batch',
  payload: campaignSendBatchJobSchema,
  worker: { concurrency: 3, pollingIntervalSeconds: 0.5 },
  send: { retryLimit: 10, retryDelay: 5 },
  handler: (ctx: AppContext, batch) => runSendBatch(ctx, batch),
});

/**
 * A batch job's worker keeps its job alive while it runs (the runner's heartbeat), so the job
 * expires only once its worker died: after half the batch timeout, when its claims go stale too.
 */
export function batchExpirySeconds(ctx: AppContext): number {
  return Math.max(2, Math.ceil(ctx.config.sendBatchTimeoutSeconds / 2));
}

/** A scheduled campaign's start, at its time. */
export const startScheduledJob = defineJob({
  name: 'campaign.start-scheduled',
  payload: campaignStartJobSchema,
  handler: (ctx: AppContext, { campaignId }) => startScheduledCampaign(ctx, campaignId),
});

/** Every minute: sends a dead worker left half done are picked up again. */
const recoverSendsJob = defineJob({
  name: 'campaign.recover-sends',
  payload: emptyJobSchema,
  worker: { cron: '* * * * *' },
  handler: async (ctx: AppContext) => void (await recoverCampaignSends(ctx)),
});

export const campaignJobs = [sendBatchJob, startScheduledJob, recoverSendsJob];
