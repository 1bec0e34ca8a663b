import { emptyJobSchema } from '@sendwell/contract/jobs';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../lib/queue.ts';
import { cleanUpRateLimitWindows } from './rate-limits.service.ts';

/** Hourly removal of ended rate-limit windows (the Postgres store's; Redis expires its own keys). */
const rateLimitCleanUpJob = defineJob({
  name: 'rate-limits.clean-up',
  payload: emptyJobSchema,
  worker: { cron: '23 * * * *' },
  handler: (ctx: AppContext) => cleanUpRateLimitWindows(ctx.db),
});

export const rateLimitJobs = [rateLimitCleanUpJob];
