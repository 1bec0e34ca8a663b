import type { TestApp } from './build-app.ts';
import { sendBatchJob } from '../src/modules/campaigns/campaigns.jobs.ts';

/** Runs every queued send-batch job the way a worker would (tests run without pg-boss workers). */
export async function runSendJobs(t: TestApp): Promise<void> {
  for (;;) {
    const jobs = await t.ctx.queue.fetch<unknown>(sendBatchJob.name, { batchSize: 50 });
    if (!jobs || jobs.length === 0) return;
    for (const job of jobs) {
      try {
        await sendBatchJob.handler(t.ctx, sendBatchJob.payload.parse(job.data));
        await t.ctx.queue.complete(sendBatchJob.name, job.id);
      } catch (error) {
        await t.ctx.queue.fail(sendBatchJob.name, job.id, { message: (error as Error).message });
      }
    }
  }
}
