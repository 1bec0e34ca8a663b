import { useQuery } from '@tanstack/react-query';
import type { StatsResponse } from '@sendwell/contract/analytics';

/** GET /api/analytics/stats. */
export const STATS_KEY = ['/api/analytics/stats'] as const;

/**
 * GET /api/analytics/stats; runs only for a signed-in user. Read afresh whenever the dashboard
 * mounts, like the campaign list beside it: opens, clicks and new subscribers arrive from outside
 * the app, so both must be as recent as each other to agree.
 */
export function useStats(enabled: boolean) {
  return useQuery<StatsResponse>({ queryKey: STATS_KEY, enabled, staleTime: 0 });
}
