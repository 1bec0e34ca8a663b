import { emptyJobSchema } from '@sendwell/contract/jobs';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../lib/queue.ts';
import { cleanUpIdempotencyKeys } from './idempotency.ts';

/** Hourly removal of Idempotency-Key answers older than a day. */
const idempotencyCleanUpJob = defineJob({
  name: 'api-keys.clean-up-idempotency',
  payload: emptyJobSchema,
  worker: { cron: '41 * * * *' },
  handler: (ctx: AppContext) => cleanUpIdempotencyKeys(ctx.db),
});

export const apiKeyJobs = [idempotencyCleanUpJob];
