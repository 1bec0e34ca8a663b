import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AddSenderAddressBody, SenderAddress, SenderOverview } from '@sendwell/contract/sender-addresses';

import { apiJson, apiRequest } from '@/lib/api';

/** GET /api/sender-addresses (the campaign editor reads the same key for its sender choice). */
const SENDER_ADDRESSES_KEY = ['/api/sender-addresses'] as const;

/** What the account may send from: verified domains, its own address, and its sender addresses. */
export function useSenderOverview(enabled: boolean) {
  return useQuery<SenderOverview>({ queryKey: SENDER_ADDRESSES_KEY, enabled });
}

function useRefreshOnSuccess() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: SENDER_ADDRESSES_KEY });
}

/** POST /api/sender-addresses: adds a pending address and mails it the confirmation link. */
export function useAddSenderAddress() {
  const refresh = useRefreshOnSuccess();
  return useMutation({
    mutationFn: (body: AddSenderAddressBody) => apiJson<SenderAddress>('POST', '/api/sender-addresses', body),
    onSuccess: refresh,
  });
}

/** POST /api/sender-addresses/:id/resend: another confirmation link (one a minute). */
export function useResendSenderConfirmation() {
  const refresh = useRefreshOnSuccess();
  return useMutation({
    mutationFn: (id: number) => apiJson<SenderAddress>('POST', `/api/sender-addresses/${id}/resend`),
    onSuccess: refresh,
  });
}

/** DELETE /api/sender-addresses/:id. */
export function useDeleteSenderAddress() {
  const refresh = useRefreshOnSuccess();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiRequest('DELETE', `/api/sender-addresses/${id}`);
    },
    onSuccess: refresh,
  });
}
