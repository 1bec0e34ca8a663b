import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateDomainBody, Domain } from '@sendwell/contract/domains';

import { apiJson, apiRequest } from '@/lib/api';

/** GET /api/domains; the prefix also covers each domain's own key. */
const DOMAINS_KEY = ['/api/domains'] as const;

/** The user's domains, primary first; runs only for a signed-in user. */
export function useDomains(enabled: boolean) {
  return useQuery<Domain[]>({ queryKey: DOMAINS_KEY, enabled });
}

/** Puts a fresh copy of one domain into the cached list, so every tab shows it at once. */
function useStoreDomain() {
  const queryClient = useQueryClient();
  return (domain: Domain) => {
    queryClient.setQueryData<Domain[]>(DOMAINS_KEY, (list) => list?.map((d) => (d.id === domain.id ? domain : d)));
    return queryClient.invalidateQueries({ queryKey: DOMAINS_KEY });
  };
}

/** POST /api/domains: answers the new domain after a first DNS look-up (isVerified may be true). */
export function useAddDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateDomainBody) => apiJson<Domain>('POST', '/api/domains', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: DOMAINS_KEY }),
  });
}

/** POST /api/domains/:id/verify: looks the records up now and answers the updated domain. */
export function useVerifyDomain() {
  const store = useStoreDomain();
  return useMutation({
    mutationFn: (id: number) => apiJson<Domain>('POST', `/api/domains/${id}/verify`),
    onSuccess: (domain) => store(domain),
  });
}

/** POST /api/domains/:id/primary. */
export function useMakePrimaryDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiJson<Domain>('POST', `/api/domains/${id}/primary`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: DOMAINS_KEY }),
  });
}

/** DELETE /api/domains/:id. */
export function useDeleteDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiRequest('DELETE', `/api/domains/${id}`);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: DOMAINS_KEY }),
  });
}
