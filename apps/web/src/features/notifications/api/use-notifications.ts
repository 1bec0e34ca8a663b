import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationList } from '@sendwell/contract/notifications';

import { apiRequest } from '@/lib/api';

const NOTIFICATIONS_KEY = ['/api/notifications'] as const;
/** The bell looks for news once a minute (background checks can raise notifications at any time). */
const POLL_MS = 60_000;

/** GET /api/notifications: the newest 20 and the unread count. */
export function useNotifications(enabled: boolean) {
  return useQuery<NotificationList>({ queryKey: NOTIFICATIONS_KEY, enabled, refetchInterval: POLL_MS, staleTime: 0 });
}

/** POST /api/notifications/read-all. */
export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await apiRequest('POST', '/api/notifications/read-all');
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}
