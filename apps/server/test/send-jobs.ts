import type { TestApp } from './build-app.ts';
import { SEND_BATCH_JOB, sendCampaignBatch } from '../src/modules/delivery/send.service.ts';

/** Runs every queued send-batch job the way a worker would (tests run without pg-boss workers). */
export async function runSendJobs(t: TestApp): Promise<void> {
  for (;;) {
    const jobs = await t.ctx.queue.fetch<{ campaignId: number; fromId: number; toId: number }>(SEND_BATCH_JOB, {
      batchSize: 50,
    });
    if (!jobs || jobs.length === 0) return;
    for (const job of jobs) {
      try {
        await sendCampaignBatch(t.ctx, t.ctx.transport, job.data);
        await t.ctx.queue.complete(SEND_BATCH_JOB, job.id);
      } catch (error) {
        await t.ctx.queue.fail(SEND_BATCH_JOB, job.id, { message: (error as Error).message });
      }
    }
  }
}
