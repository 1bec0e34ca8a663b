import { sendBatchJob } from './campaign-batch.ts';
import { recoverSendsJob, startScheduledJob } from './campaign-send.service.ts';

// Each job is defined beside its handler, which enqueues it again (a batch defers the rest of its
// range, a scheduled start that fired early waits again, the sweep queues batches): defined here,
// the jobs and their handlers imported each other (a file cycle).
export { sendBatchJob, startScheduledJob };

export const campaignJobs = [sendBatchJob, startScheduledJob, recoverSendsJob];
