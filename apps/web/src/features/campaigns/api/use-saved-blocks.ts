import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateSavedBlockBody, SavedBlock } from '@sendwell/contract/saved-blocks';

import { apiJson, apiRequest } from '@/lib/api';

/** GET /api/saved-blocks: blocks the account saved from the canvas, by name. */
const SAVED_BLOCKS_KEY = ['/api/saved-blocks'] as const;

export function useSavedBlocks() {
  return useQuery<SavedBlock[]>({ queryKey: SAVED_BLOCKS_KEY });
}

/** POST /api/saved-blocks. */
export function useCreateSavedBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateSavedBlockBody) => apiJson<SavedBlock>('POST', '/api/saved-blocks', body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SAVED_BLOCKS_KEY }),
  });
}

/** PATCH /api/saved-blocks/:id {name}. */
export function useRenameSavedBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) =>
      apiJson<SavedBlock>('PATCH', `/api/saved-blocks/${id}`, { name }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SAVED_BLOCKS_KEY }),
  });
}

/** DELETE /api/saved-blocks/:id. */
export function useDeleteSavedBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest('DELETE', `/api/saved-blocks/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SAVED_BLOCKS_KEY }),
  });
}
