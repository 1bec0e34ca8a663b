import { emptyJobSchema } from '@sendwell/contract/jobs';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../lib/queue.ts';
import { cleanUpAuthRows } from './auth.service.ts';

/** Hourly removal of expired sessions and stale login failures. */
const authCleanUpJob = defineJob({
  name: 'auth.clean-up',
  payload: emptyJobSchema,
  worker: { cron: '17 * * * *' },
  handler: (ctx: AppContext) => cleanUpAuthRows(ctx.db),
});

export const authJobs = [authCleanUpJob];
