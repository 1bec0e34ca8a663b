import { useQuery } from '@tanstack/react-query';
import type { StatsResponse } from '@sendwell/contract/analytics';

/** GET /api/analytics/stats. */
export const STATS_KEY = ['/api/analytics/stats'] as const;

/** GET /api/analytics/stats; runs only for a signed-in user. */
export function useStats(enabled: boolean) {
  return useQuery<StatsResponse>({ queryKey: STATS_KEY, enabled });
}
