import type { AppContext } from './context.ts';
import type { AnyJob } from './lib/queue.ts';
import { authJobs } from './modules/auth/index.ts';
import { segmentJobs } from './modules/segments/index.ts';
import { campaignJobs } from './modules/campaigns/index.ts';
import { domainJobs } from './modules/domains/index.ts';
import { billingJobs } from './modules/billing/index.ts';
import { rateLimitJobs } from './modules/rate-limits/index.ts';
import { inboundJobs } from './modules/inbound/index.ts';
import { sequenceJobs } from './modules/sequences/index.ts';
import { leadJobs } from './modules/leads/index.ts';
import { bounceJobs } from './modules/bounces/index.ts';
import { webhookJobs } from './modules/webhooks/index.ts';
import { apiKeyJobs } from './modules/api-keys/index.ts';
import { sunsetJobs } from './modules/sunset/index.ts';

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
  ...webhookJobs,
  ...apiKeyJobs,
  ...sunsetJobs,
];
