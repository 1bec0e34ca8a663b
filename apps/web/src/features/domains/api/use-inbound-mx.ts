import { useQuery } from '@tanstack/react-query';
import type { InboundMx } from '@sendwell/contract/aliases';

import { apiJson } from '@/lib/api';

/** GET /api/domains/:id/inbound-mx: the MX record to publish for inbound mail, looked up live in DNS. */
export function useInboundMx(domainId: number | null) {
  return useQuery<InboundMx>({
    queryKey: ['/api/domains', domainId ?? 0, 'inbound-mx'],
    queryFn: () => apiJson<InboundMx>('GET', `/api/domains/${domainId}/inbound-mx`),
    enabled: domainId !== null,
  });
}
