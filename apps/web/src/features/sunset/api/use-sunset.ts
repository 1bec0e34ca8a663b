import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SunsetPolicy, SunsetPolicyBody } from '@sendwell/contract/sunset';

import { apiJson } from '@/lib/api';

/** GET /api/sunset-policy: the policy and where the account's contacts stand under it. */
const SUNSET_POLICY_KEY = ['/api/sunset-policy'] as const;

export function useSunsetPolicy() {
  return useQuery<SunsetPolicy>({ queryKey: SUNSET_POLICY_KEY });
}

/** PUT /api/sunset-policy. */
export function useSaveSunsetPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (policy: SunsetPolicyBody) => apiJson<SunsetPolicy>('PUT', '/api/sunset-policy', policy),
    onSuccess: (policy) => queryClient.setQueryData(SUNSET_POLICY_KEY, policy),
  });
}
