import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKey, ApiKeyList, ApiSettings, CreateApiKeyBody, CreatedApiKey } from '@sendwell/contract/api-keys';

import { apiJson } from '@/lib/api';

const API_KEYS_KEY = ['/api/api-keys'] as const;
const API_SETTINGS_KEY = ['/api/api-settings'] as const;

/** GET /api/api-keys: the account's keys, live ones first (never their secrets). */
export function useApiKeys() {
  return useQuery<ApiKeyList>({ queryKey: API_KEYS_KEY });
}

/** POST /api/api-keys: the answer holds the secret, this once. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyBody) => apiJson<CreatedApiKey>('POST', '/api/api-keys', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: API_KEYS_KEY }),
  });
}

/** DELETE /api/api-keys/:id: the key stops working at once. */
export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson<ApiKey>('DELETE', `/api/api-keys/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: API_KEYS_KEY }),
  });
}

/** GET /api/api-settings: how many requests a second each key may make. */
export function useApiSettings() {
  return useQuery<ApiSettings>({ queryKey: API_SETTINGS_KEY });
}

/** PUT /api/api-settings. */
export function useSaveApiSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiSettings) => apiJson<ApiSettings>('PUT', '/api/api-settings', body),
    onSuccess: (saved) => queryClient.setQueryData(API_SETTINGS_KEY, saved),
  });
}
