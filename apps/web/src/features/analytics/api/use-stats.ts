import { useQuery } from '@tanstack/react-query';
import type { StatsResponse } from '@sendwell/contract/analytics';

/** GET /api/analytics/stats. */
export const STATS_KEY = ['/api/analytics/stats'] as const;

/**
 * GET /api/analytics/stats; runs only for a signed-in user. Read afresh whenever the dashboard
 * mounts, like the campaign list beside it: opens, clicks and new subscribers arrive from outside
 * the app, so both must be as recent as each other to agree. `refetchInterval` is the campaign
 * list's own (the page passes it), so the cards and Recent Campaigns move together.
 */
export function useStats(enabled: boolean, { refetchInterval = false }: { refetchInterval?: number | false } = {}) {
  return useQuery<StatsResponse>({ queryKey: STATS_KEY, enabled, staleTime: 0, refetchInterval });
}
