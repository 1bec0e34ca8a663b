import type { AppContext } from '../../context.ts';
import type { JobDefinition } from '../../lib/queue.ts';
import { cleanUpAuthRows } from './auth.service.ts';

/** Hourly removal of expired sessions and stale login failures. */
export function authJobs(ctx: AppContext): JobDefinition<object>[] {
  return [{ name: 'auth.clean-up', cron: '17 * * * *', handler: () => cleanUpAuthRows(ctx.db) }];
}
