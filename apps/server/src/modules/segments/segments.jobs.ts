import { emptyJobSchema, segmentRefreshJobSchema } from '@sendwell/contract/jobs';
import type { AppContext } from '../../context.ts';
import { defineJob, type Queue } from '../../lib/queue.ts';
import { refreshAutoUpdateSegments } from './segments.service.ts';

/** A user's auto-updating segments, recomputed shortly after their contacts change. */
const refreshUserSegmentsJob = defineJob({
  name: 'segments.refresh-user',
  payload: segmentRefreshJobSchema,
  handler: async (ctx: AppContext, { userId }) => void (await refreshAutoUpdateSegments(ctx.db, userId)),
});

/** Hourly, everyone's. */
const refreshAllSegmentsJob = defineJob({
  name: 'segments.refresh-all',
  payload: emptyJobSchema,
  worker: { cron: '7 * * * *' },
  handler: async (ctx: AppContext) => void (await refreshAutoUpdateSegments(ctx.db)),
});

export const segmentJobs = [refreshUserSegmentsJob, refreshAllSegmentsJob];

/**
 * Asks for a refresh of the user's auto-updating segments. Changes in quick succession share one
 * job: one per user per 10-second slot, later requests roll into the next slot.
 */
export async function requestSegmentRefresh(queue: Queue, userId: string): Promise<void> {
  await refreshUserSegmentsJob.enqueue(
    queue,
    { userId },
    { singletonKey: userId, singletonSeconds: 10, singletonNextSlot: true },
  );
}

export const segmentQueueNames = { refreshUser: refreshUserSegmentsJob.name, refreshAll: refreshAllSegmentsJob.name };
