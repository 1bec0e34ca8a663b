import type { TestApp } from './build-app.ts';
import { forwardMessageJob, srsBounceJob } from '../src/modules/inbound/forwarding.jobs.ts';

/** Runs every queued forwarding and SRS-bounce job the way a worker would (tests run without pg-boss workers). */
export async function runForwardJobs(t: TestApp): Promise<void> {
  for (;;) {
    let ran = 0;
    for (const job of [forwardMessageJob, srsBounceJob] as const) {
      const fetched = await t.ctx.queue.fetch<unknown>(job.name, { batchSize: 50 });
      for (const item of fetched ?? []) {
        ran += 1;
        try {
          // Each job parses its own payload.
          await (job.handler as (ctx: unknown, data: unknown) => Promise<void>)(t.ctx, job.payload.parse(item.data));
          await t.ctx.queue.complete(job.name, item.id);
        } catch (error) {
          await t.ctx.queue.fail(job.name, item.id, { message: (error as Error).message });
        }
      }
    }
    if (ran === 0) return;
  }
}
