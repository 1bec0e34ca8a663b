import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Contact } from '@sendwell/contract/contacts';
import type { CreateSegmentBody, Segment, SegmentPreview, UpdateSegmentBody } from '@sendwell/contract/segments';

import { apiJson, apiRequest, throwIfResNotOk } from '@/lib/api';

/** GET /api/contact-segments; the prefix also covers each segment's member pages, so one invalidation refreshes both. */
const SEGMENTS_KEY = ['/api/contact-segments'] as const;

/** The user's segments; runs only for a signed-in user. */
export function useSegments(enabled: boolean) {
  return useQuery<Segment[]>({ queryKey: SEGMENTS_KEY, enabled });
}

/** POST /api/contact-segments (membership is computed by the server). */
export function useCreateSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateSegmentBody) => apiJson<Segment>('POST', '/api/contact-segments', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SEGMENTS_KEY }),
  });
}

/** PATCH /api/contact-segments/:id (new rules recompute membership). */
export function useUpdateSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateSegmentBody }) =>
      apiJson<Segment>('PATCH', `/api/contact-segments/${id}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SEGMENTS_KEY }),
  });
}

/** DELETE /api/contact-segments/:id. */
export function useDeleteSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiRequest('DELETE', `/api/contact-segments/${id}`);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SEGMENTS_KEY }),
  });
}

/** POST /api/contact-segments/:id/refresh: recomputes membership and answers the updated segment. */
export function useRefreshSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiJson<Segment>('POST', `/api/contact-segments/${id}/refresh`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SEGMENTS_KEY }),
  });
}

/** How many matching contacts the live preview lists under the rules. */
export const MATCH_PREVIEW_SIZE = 5;

/**
 * POST /api/contact-segments/preview for rules being edited: the live count and the first few
 * matches. `conditions` is null while the rules are incomplete (nothing is asked then).
 */
export function useSegmentMatchPreview(conditions: CreateSegmentBody['conditions'] | null) {
  return useQuery<SegmentPreview>({
    queryKey: ['/api/contact-segments/preview', conditions],
    queryFn: ({ signal }) => previewMatches(conditions, signal),
    enabled: conditions !== null,
    placeholderData: keepPreviousData,
    // Contacts change outside the dialog: a reopened dialog counts again.
    staleTime: 0,
    gcTime: 60_000,
  });
}

async function previewMatches(
  conditions: CreateSegmentBody['conditions'] | null,
  signal: AbortSignal,
): Promise<SegmentPreview> {
  const res = await fetch('/api/contact-segments/preview', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ conditions, pageSize: MATCH_PREVIEW_SIZE }),
    credentials: 'include',
    signal,
  });
  await throwIfResNotOk(res);
  return (await res.json()) as SegmentPreview;
}

/** Spec §8: the text of a failed members fetch. */
export const FETCH_CONTACTS_FAILED = 'Failed to fetch contacts';

export interface SegmentMembersPage {
  contacts: Contact[];
  total: number;
}

/** GET /api/contact-segments/:id/contacts?page&pageSize; the total comes from X-Total-Count. */
export function useSegmentMembers(segmentId: number | null, page: number, pageSize: number) {
  return useQuery<SegmentMembersPage>({
    queryKey: [...SEGMENTS_KEY, segmentId, 'contacts', page, pageSize],
    queryFn: ({ signal }) => fetchSegmentMembers(segmentId ?? 0, page, pageSize, signal),
    enabled: segmentId !== null,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

async function fetchSegmentMembers(
  id: number,
  page: number,
  pageSize: number,
  signal: AbortSignal,
): Promise<SegmentMembersPage> {
  const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  const res = await fetch(`/api/contact-segments/${id}/contacts?${params}`, { credentials: 'include', signal });
  // A 401 keeps the transport form so the app-wide Unauthorized rule applies; anything else is the spec's text.
  if (res.status === 401) await throwIfResNotOk(res);
  if (!res.ok) throw new Error(FETCH_CONTACTS_FAILED);
  const contacts = (await res.json()) as Contact[];
  const total = Number(res.headers.get('X-Total-Count') ?? contacts.length);
  return { contacts, total: Number.isFinite(total) ? total : contacts.length };
}
