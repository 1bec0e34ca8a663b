import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InboundAddress } from '@sendwell/contract/inbound';

import { apiJson } from '@/lib/api';

/** GET /api/webhook/email-address: the account's own inbound webhook address and token. */
const INBOUND_ADDRESS_KEY = ['/api/webhook/email-address'] as const;

/** The account's inbound webhook token (its address is made on first use). */
export function useInboundAddress() {
  return useQuery<InboundAddress>({ queryKey: INBOUND_ADDRESS_KEY });
}

/** POST /api/inbound/regenerate-address: a new token; the old address stops working at once. */
export function useRegenerateInboundAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<InboundAddress>('POST', '/api/inbound/regenerate-address'),
    onSuccess: (address) => queryClient.setQueryData(INBOUND_ADDRESS_KEY, address),
  });
}
