import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { JobDefinition } from '../../lib/queue.ts';
import {
  RECOVER_SENDS_JOB,
  SEND_BATCH_JOB,
  START_SCHEDULED_JOB,
  recoverCampaignSends,
  sendCampaignBatch,
  startScheduledCampaign,
} from './send.service.ts';

const batchSchema = z.object({ campaignId: z.number().int(), fromId: z.number().int(), toId: z.number().int() });
const startSchema = z.object({ campaignId: z.number().int() });

/** Campaign sending: batches of the ledger, and scheduled starts. */
export function deliveryJobs(ctx: AppContext): JobDefinition<object>[] {
  return [
    // Three batches at once per process, so the others' messages fill the SMTP connections while one
    // claims, renders, starts or ends (two left them idle 15% of the time, three 7%); a quick poll
    // so a Send starts going out at once.
    {
      name: SEND_BATCH_JOB,
      concurrency: 3,
      pollingIntervalSeconds: 0.5,
      handler: (data) => sendCampaignBatch(ctx, ctx.transport, batchSchema.parse(data)),
    },
    { name: START_SCHEDULED_JOB, handler: (data) => startScheduledCampaign(ctx, startSchema.parse(data).campaignId) },
    { name: RECOVER_SENDS_JOB, cron: '* * * * *', handler: async () => void (await recoverCampaignSends(ctx)) },
  ];
}
