import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SuppressionsPage } from '@sendwell/contract/suppressions';

import { apiJson, apiRequest } from '@/lib/api';
import { urlWithQuery } from '@/lib/api-paged';

/** Every suppression-list query starts with this key, so a removal refreshes every page. */
const SUPPRESSIONS_KEY = ['/api/suppressions'] as const;

/** GET /api/suppressions/export: the whole list as CSV (a plain link: the browser downloads it). */
export const SUPPRESSIONS_EXPORT_HREF = '/api/suppressions/export';

/** GET /api/suppressions?search&page → one page, newest first, and the total. */
export function useSuppressions(filter: { search: string; page: number }) {
  return useQuery<SuppressionsPage>({
    queryKey: [...SUPPRESSIONS_KEY, filter],
    queryFn: () =>
      apiJson<SuppressionsPage>(
        'GET',
        urlWithQuery('/api/suppressions', { search: filter.search || undefined, page: filter.page }),
      ),
    // The previous page stays on screen while the next one loads, so the table does not jump.
    placeholderData: keepPreviousData,
  });
}

/** DELETE /api/suppressions/:id: the address may be mailed again. */
export function useRemoveSuppression() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest('DELETE', `/api/suppressions/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SUPPRESSIONS_KEY }),
  });
}
