import type { AppContext } from './context.ts';
import type { AnyJob } from './lib/queue.ts';
import { authJobs } from './modules/auth/auth.jobs.ts';
import { segmentJobs } from './modules/segments/segments.jobs.ts';
import { campaignJobs } from './modules/campaigns/campaigns.jobs.ts';
import { domainJobs } from './modules/domains/domains.jobs.ts';
import { billingJobs } from './modules/billing/billing.jobs.ts';
import { rateLimitJobs } from './modules/rate-limits/rate-limits.jobs.ts';
import { inboundJobs } from './modules/inbound/forwarding.jobs.ts';
import { sequenceJobs } from './modules/sequences/sequences.jobs.ts';
import { leadJobs } from './modules/leads/leads.jobs.ts';
import { bounceJobs } from './modules/bounces/bounces.jobs.ts';

/** Every pg-boss job the app defines. */
export const allJobs: readonly AnyJob<AppContext>[] = [
  ...authJobs,
  ...segmentJobs,
  ...campaignJobs,
  ...domainJobs,
  ...rateLimitJobs,
  ...inboundJobs,
  ...bounceJobs,
  ...sequenceJobs,
  ...billingJobs,

  ...leadJobs,
];
