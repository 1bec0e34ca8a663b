import { leadFormConfirmationJobSchema, leadGenerationJobSchema } from '@sendwell/contract/jobs';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../lib/queue.ts';
import { mailFormConfirmation } from './lead-forms.service.ts';
import { runGeneration } from './leads.generate.ts';

/** Sends a hosted form submission its double opt-in mail (idempotent: the submission's mail is claimed once). */
export const leadFormConfirmationJob = defineJob<AppContext, { submissionId: number }>({
  name: 'leads.form-confirmation',
  payload: leadFormConfirmationJobSchema,
  send: { retryLimit: 3, retryDelay: 30 },
  handler: (ctx, { submissionId }) => mailFormConfirmation(ctx, submissionId),
});

/**
 * Works one lead generation run. Not retried: the run is claimed once (queued → running), and a run
 * that failed says so; the user starts another (what the first stored is de-duplicated).
 */
export const leadGenerationJob = defineJob<AppContext, { runId: string }>({
  name: 'leads.generate',
  payload: leadGenerationJobSchema,
  send: { retryLimit: 0, expireInSeconds: 15 * 60 },
  handler: (ctx, { runId }) => runGeneration(ctx, runId),
});

export const leadJobs = [leadFormConfirmationJob, leadGenerationJob];
