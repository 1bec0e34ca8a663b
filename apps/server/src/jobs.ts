import type { AppContext } from './context.ts';
import type { JobDefinition } from './lib/queue.ts';
import { authJobs } from './modules/auth/auth.jobs.ts';
import { segmentJobs } from './modules/segments/segments.jobs.ts';
import { deliveryJobs } from './modules/delivery/delivery.jobs.ts';
import { domainJobs } from './modules/domains/domains.jobs.ts';

/** Every pg-boss job the app defines. */
export function allJobs(ctx: AppContext): JobDefinition<object>[] {
  return [...authJobs(ctx), ...segmentJobs(ctx), ...deliveryJobs(ctx), ...domainJobs(ctx)];
}
