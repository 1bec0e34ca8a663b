import { emptyJobSchema } from '@sendwell/contract/jobs';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../lib/queue.ts';
import { sweepDueAccounts } from './sunset.service.ts';

/** Hourly: the sunset policy of each account not swept in the last 20 hours (so each runs about daily). */
const sunsetSweepJob = defineJob({
  name: 'sunset.sweep',
  payload: emptyJobSchema,
  worker: { cron: '53 * * * *' },
  handler: (ctx: AppContext) => sweepDueAccounts(ctx),
});

export const sunsetJobs = [sunsetSweepJob];
