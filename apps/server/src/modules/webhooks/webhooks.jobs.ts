import { deliverWebhooksJobSchema } from '@sendwell/contract/webhooks';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../lib/queue.ts';
import { deliverDueWebhooks } from './webhook-delivery.ts';
import { webhookSignals } from './webhook-events.ts';
import { webhookGuard } from './webhooks.service.ts';

/** How long one run of the delivery loop lasts: the next minute's run takes over. */
const LOOP_MS = 55_000;
/** How often an idle loop looks for due deliveries (events recorded by other processes, retries). */
const IDLE_POLL_MS = 1_000;

/**
 * The webhook delivery loop, started each minute: delivers what is due, then waits for this
 * process's next event (or a second) and looks again, for 55 s. Claims skip what another run holds,
 * so overlapping runs (several workers) share the work.
 */
const deliverWebhooksJob = defineJob({
  name: 'webhooks.deliver',
  payload: deliverWebhooksJobSchema,
  worker: { cron: '* * * * *' },
  handler: async (ctx: AppContext) => {
    const guard = webhookGuard(ctx.config);
    const until = Date.now() + LOOP_MS;
    while (Date.now() < until) {
      const claimed = await deliverDueWebhooks(ctx, { guard });
      if (claimed > 0) continue;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          webhookSignals.off('due', wake);
          resolve();
        }, IDLE_POLL_MS);
        webhookSignals.once('due', wake);
      });
    }
  },
});

/**
 * Starts a delivery loop now rather than at the next minute (a test event, a replay: the user waits
 * for it); at most one such start per 55 s, and a running loop in this process is woken at once.
 */
export async function startWebhookDelivery(ctx: AppContext): Promise<void> {
  await deliverWebhooksJob.enqueue(ctx.queue, {}, { singletonKey: 'webhooks.deliver', singletonSeconds: 55 });
}

export const webhookJobs = [deliverWebhooksJob];
