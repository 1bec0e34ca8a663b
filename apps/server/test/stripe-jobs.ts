import type { TestApp } from './build-app.ts';
import { stripeEventJob } from '../src/modules/billing/billing.jobs.ts';

/** Runs every queued Stripe event job the way a worker would (tests run without pg-boss workers). */
export async function runStripeEventJobs(t: TestApp): Promise<number> {
  let ran = 0;
  for (;;) {
    const jobs = await t.ctx.queue.fetch<unknown>(stripeEventJob.name, { batchSize: 20 });
    if (!jobs || jobs.length === 0) return ran;
    for (const job of jobs) {
      await stripeEventJob.handler(t.ctx, stripeEventJob.payload.parse(job.data));
      await t.ctx.queue.complete(stripeEventJob.name, job.id);
      ran += 1;
    }
  }
}
