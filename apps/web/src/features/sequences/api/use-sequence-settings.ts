import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SequenceSettings } from '@sendwell/contract/sequences';

import { apiJson } from '@/lib/api';

/** GET /api/sequence-settings: the account's frequency cap for sequence emails. */
const SEQUENCE_SETTINGS_KEY = ['/api/sequence-settings'] as const;

export function useSequenceSettings(enabled: boolean) {
  return useQuery<SequenceSettings>({ queryKey: SEQUENCE_SETTINGS_KEY, enabled });
}

/** PUT /api/sequence-settings. */
export function useSaveSequenceSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: SequenceSettings) => apiJson<SequenceSettings>('PUT', '/api/sequence-settings', settings),
    onSuccess: (settings) => queryClient.setQueryData(SEQUENCE_SETTINGS_KEY, settings),
  });
}
