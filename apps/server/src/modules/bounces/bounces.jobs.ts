import { emptyJobSchema } from '@sendwell/contract/jobs';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../lib/queue.ts';
import { pollBounceMailbox } from './bounce-mailbox.ts';

/** Polls the bounce mailbox every minute (nothing to do without BOUNCE_IMAP_URL). */
const pollBounceMailboxJob = defineJob({
  name: 'bounces.poll-mailbox',
  payload: emptyJobSchema,
  worker: { cron: '* * * * *' },
  handler: async (ctx: AppContext) => {
    // The failure is recorded for the status card; the next minute's poll tries again.
    await pollBounceMailbox(ctx).catch(() => undefined);
  },
});

export const bounceJobs = [pollBounceMailboxJob];
