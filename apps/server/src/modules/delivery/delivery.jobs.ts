import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { JobDefinition } from '../../lib/queue.ts';
import { RECOVER_SENDS_JOB, SEND_BATCH_JOB, START_SCHEDULED_JOB, recoverCampaignSends, sendCampaignBatch, startScheduledCampaign } from './send.service.ts';

const batchSchema = z.object({ campaignId: z.number().int(), fromId: z.number().int(), toId: z.number().int() });
const startSchema = z.object({ campaignId: z.number().int() });

/** Campaign sending: batches of the ledger, and scheduled starts. */
export function deliveryJobs(ctx: AppContext): JobDefinition<object>[] {
  return [
    // Two batches at once per process, so one's database and rendering waits fill the other's
    // gaps on the shared SMTP connections; a quick poll so a Send starts going out at once.
    { name: SEND_BATCH_JOB, concurrency: 2, pollingIntervalSeconds: 0.5, handler: (data) => sendCampaignBatch(ctx, ctx.transport, batchSchema.parse(data)) },
    { name: START_SCHEDULED_JOB, handler: (data) => startScheduledCampaign(ctx, startSchema.parse(data).campaignId) },
    { name: RECOVER_SENDS_JOB, cron: '* * * * *', handler: async () => void (await recoverCampaignSends(ctx)) },
  ];
}
