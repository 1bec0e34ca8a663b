import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Purchase, RecordPurchaseBody } from '@sendwell/contract/analytics';

import { apiJson } from '@/lib/api';
import { STATS_KEY } from './use-stats';

/** How many recent purchases the record-a-purchase dialog lists. */
const RECENT_PURCHASES_SHOWN = 5;
/** Every purchase query key starts with this, so one invalidation refreshes them all. */
const PURCHASES_KEY = '/api/analytics/purchases';
const recentPurchasesKey = [`${PURCHASES_KEY}?pageSize=${RECENT_PURCHASES_SHOWN}`] as const;

/** GET /api/analytics/purchases?pageSize=5: the latest purchases, newest first. */
export function useRecentPurchases(enabled: boolean) {
  return useQuery<Purchase[]>({ queryKey: recentPurchasesKey, enabled });
}

/** POST /api/analytics/purchases; the dashboard figures and purchase lists refresh after it. */
export function useRecordPurchase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RecordPurchaseBody) => apiJson<Purchase>('POST', PURCHASES_KEY, body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: STATS_KEY }),
        queryClient.invalidateQueries({ predicate: (query) => String(query.queryKey[0]).startsWith(PURCHASES_KEY) }),
      ]),
  });
}
