import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BounceMailboxStatus, BounceProvider, BounceProvidersResponse } from '@sendwell/contract/bounces';

import { apiJson } from '@/lib/api';

/** GET /api/bounce-providers: each sending provider's bounce webhook URL and whether it is set up. */
const BOUNCE_PROVIDERS_KEY = ['/api/bounce-providers'] as const;

export function useBounceProviders() {
  return useQuery<BounceProvidersResponse>({ queryKey: BOUNCE_PROVIDERS_KEY });
}

/** PUT /api/bounce-providers/:provider with the key or secret (never shown again). */
export function useSaveBounceProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ provider, secret }: { provider: BounceProvider; secret: string }) =>
      apiJson<BounceProvidersResponse>('PUT', `/api/bounce-providers/${provider}`, { secret }),
    onSuccess: (answer) => queryClient.setQueryData(BOUNCE_PROVIDERS_KEY, answer),
  });
}

/** DELETE /api/bounce-providers/:provider: that provider's posts are refused from then on. */
export function useDeleteBounceProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (provider: BounceProvider) =>
      apiJson<BounceProvidersResponse>('DELETE', `/api/bounce-providers/${provider}`),
    onSuccess: (answer) => queryClient.setQueryData(BOUNCE_PROVIDERS_KEY, answer),
  });
}

/** GET /api/bounce-mailbox: how the installation's bounce mailbox (BOUNCE_IMAP_URL) fares. */
export function useBounceMailbox() {
  return useQuery<BounceMailboxStatus>({ queryKey: ['/api/bounce-mailbox'], refetchInterval: 60_000 });
}
