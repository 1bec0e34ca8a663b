import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BrandKit, BrandKitBody } from '@sendwell/contract/brand-kit';

import { apiJson } from '@/lib/api';

/** GET /api/brand-kit: the header, footer, colours and font new campaigns start with. */
const BRAND_KIT_KEY = ['/api/brand-kit'] as const;

export function useBrandKit(enabled = true) {
  return useQuery<BrandKit>({ queryKey: BRAND_KIT_KEY, enabled });
}

/** PUT /api/brand-kit. */
export function useSaveBrandKit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (kit: BrandKitBody) => apiJson<BrandKit>('PUT', '/api/brand-kit', kit),
    onSuccess: (kit) => queryClient.setQueryData(BRAND_KIT_KEY, kit),
  });
}
