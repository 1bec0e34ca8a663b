import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { OverviewQuery, OverviewResponse } from '@sendwell/contract/analytics';

import { apiJson } from '@/lib/api';

/** GET /api/analytics/overview?from&to; the previous range's figures stay on screen while the next one loads. */
export function useOverview(range: OverviewQuery, enabled = true) {
  return useQuery({
    queryKey: ['/api/analytics/overview', range.from, range.to],
    queryFn: () =>
      apiJson<OverviewResponse>(
        'GET',
        `/api/analytics/overview?from=${encodeURIComponent(range.from)}&to=${encodeURIComponent(range.to)}`,
      ),
    enabled,
    placeholderData: keepPreviousData,
  });
}
