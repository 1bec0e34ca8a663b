import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BounceSettings } from '@sendwell/contract/bounces';

import { apiJson } from '@/lib/api';

/** GET /api/bounce-settings: what the account does with bounces and complaints. */
const BOUNCE_SETTINGS_KEY = ['/api/bounce-settings'] as const;

export function useBounceSettings() {
  return useQuery<BounceSettings>({ queryKey: BOUNCE_SETTINGS_KEY });
}

/** PUT /api/bounce-settings. */
export function useSaveBounceSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: BounceSettings) => apiJson<BounceSettings>('PUT', '/api/bounce-settings', settings),
    onSuccess: (settings) => queryClient.setQueryData(BOUNCE_SETTINGS_KEY, settings),
  });
}
