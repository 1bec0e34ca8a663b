import { useQuery } from '@tanstack/react-query';
import type { StatsResponse } from '@sendwell/contract/analytics';

/** GET /api/analytics/stats; runs only for a signed-in user. */
export function useStats(enabled: boolean) {
  return useQuery<StatsResponse>({ queryKey: ['/api/analytics/stats'], enabled });
}
