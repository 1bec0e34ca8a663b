import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { JobDefinition, Queue } from '../../lib/queue.ts';
import { refreshAutoUpdateSegments } from './segments.service.ts';

const REFRESH_USER_SEGMENTS = 'segments.refresh-user';
const REFRESH_ALL_SEGMENTS = 'segments.refresh-all';
const payloadSchema = z.object({ userId: z.string() });

/** Auto-updating segments: recomputed shortly after a user's contacts change, and hourly for everyone. */
export function segmentJobs(ctx: AppContext): JobDefinition<object>[] {
  return [
    {
      name: REFRESH_USER_SEGMENTS,
      handler: async (data) => {
        await refreshAutoUpdateSegments(ctx.db, payloadSchema.parse(data).userId);
      },
    },
    {
      name: REFRESH_ALL_SEGMENTS,
      cron: '7 * * * *',
      handler: async () => void (await refreshAutoUpdateSegments(ctx.db)),
    },
  ];
}

/**
 * Asks for a refresh of the user's auto-updating segments. Changes in quick succession share one
 * job: one per user per 10-second slot, later requests roll into the next slot.
 */
export async function requestSegmentRefresh(queue: Queue, userId: string): Promise<void> {
  await queue.send(
    REFRESH_USER_SEGMENTS,
    { userId },
    { singletonKey: userId, singletonSeconds: 10, singletonNextSlot: true },
  );
}

export const segmentQueueNames = { refreshUser: REFRESH_USER_SEGMENTS, refreshAll: REFRESH_ALL_SEGMENTS };
