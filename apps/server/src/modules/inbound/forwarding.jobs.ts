import { emptyJobSchema, inboundForwardJobSchema, srsBounceJobSchema } from '@sendwell/contract/jobs';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../lib/queue.ts';
import * as ledger from './forwards.repo.ts';
import {
  FORWARD_CLAIM_STALE_MS,
  FORWARD_DEFER_RETRY_MS,
  relaySrsBounce,
  sendForward,
  sendForwards,
} from './forwarder.ts';

/**
 * One row of the forwarding ledger (a forward or an auto-reply). A worker takes a batch of them
 * and works it at once (one claim transaction, each row one SMTP conversation through the shared
 * pool); a few workers, so one batch's sends overlap the next one's claim. Woken a moment after
 * an enqueue, so the messages arriving meanwhile make one batch. Retried with backoff on
 * 4xx and network errors (the rows of the batch already sent are not sent again).
 */
export const forwardMessageJob = defineJob({
  name: 'inbound.forward',
  payload: inboundForwardJobSchema,
  worker: { concurrency: 4, pollingIntervalSeconds: 0.5, batchSize: 50, wakeDelayMs: 100 },
  send: { retryLimit: 6, retryDelay: 20, retryBackoff: true },
  handler: (ctx: AppContext, { forwardId }) => sendForward(ctx, forwardId),
  handleBatch: (ctx: AppContext, items) =>
    sendForwards(
      ctx,
      items.map((item) => item.forwardId),
    ),
});

/** A bounce to one of our SRS addresses, relayed to the original sender (verified and limited). */
export const srsBounceJob = defineJob({
  name: 'inbound.srs-bounce',
  payload: srsBounceJobSchema,
  send: { retryLimit: 3, retryDelay: 30, retryBackoff: true },
  handler: async (ctx: AppContext, { inboundMessageId, recipient }) =>
    void (await relaySrsBounce(ctx, inboundMessageId, recipient)),
});

/**
 * Every minute: forwards whose enqueue was lost (a crash right after the message was stored) or
 * whose worker died mid-send (its claim no longer renewed) are enqueued again; the claim makes
 * sure only one worker sends each. Each worker process also sweeps at start and every
 * FORWARD_SWEEP_MS (app-context.ts), so a dead worker's forwards go within a minute.
 */
const recoverForwardsJob = defineJob({
  name: 'inbound.recover-forwards',
  payload: emptyJobSchema,
  worker: { cron: '* * * * *' },
  handler: async (ctx: AppContext) => void (await recoverForwards(ctx)),
});

/** How often each worker process sweeps for stranded forwards besides the minute cron. */
export const FORWARD_SWEEP_MS = 20_000;

/** Enqueues the forwards left pending or stuck (and deferred ones due another try); answers how many. */
export async function recoverForwards(ctx: AppContext, now = new Date()): Promise<number> {
  const ids = await ledger.strandedForwards(
    ctx.db,
    new Date(now.getTime() - FORWARD_CLAIM_STALE_MS),
    1000,
    new Date(now.getTime() - FORWARD_DEFER_RETRY_MS),
  );
  await forwardMessageJob.enqueueMany(
    ctx.queue,
    ids.map((forwardId) => ({ data: { forwardId } })),
  );
  return ids.length;
}

export const inboundJobs = [forwardMessageJob, srsBounceJob, recoverForwardsJob];
