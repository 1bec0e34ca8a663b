import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Contact, ContactList } from '@sendwell/contract/contacts';
import type { Segment } from '@sendwell/contract/segments';
import type {
  CreateSequenceBody,
  EditImpact,
  EnrolBody,
  Enrolment,
  EnrolResponse,
  FlowData,
  Sequence,
  SequenceAnalytics,
  SequenceStatus,
  SequenceTotals,
  UpdateSequenceBody,
} from '@sendwell/contract/sequences';

import { apiJson, apiRequest } from '@/lib/api';
import { fetchPaged, urlWithQuery } from '@/lib/api-paged';

/** GET /api/email-sequences; the prefix also covers enrolments and analytics, so one invalidation refreshes all. */
const SEQUENCES_KEY = ['/api/email-sequences'] as const;

/** The user's sequences; runs only for a signed-in user. */
export function useSequences(enabled: boolean) {
  return useQuery<Sequence[]>({ queryKey: SEQUENCES_KEY, enabled });
}

function useInvalidateSequences() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: SEQUENCES_KEY });
}

/** POST /api/email-sequences. */
export function useCreateSequence() {
  const invalidate = useInvalidateSequences();
  return useMutation({
    mutationFn: (body: CreateSequenceBody) => apiJson<Sequence>('POST', '/api/email-sequences', body),
    onSuccess: invalidate,
  });
}

/** PATCH /api/email-sequences/:id (absent fields are unchanged). */
export function useUpdateSequence() {
  const invalidate = useInvalidateSequences();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateSequenceBody }) =>
      apiJson<Sequence>('PATCH', `/api/email-sequences/${id}`, body),
    onSuccess: invalidate,
  });
}

/** PATCH /api/email-sequences/:id {status}: activate or pause. */
export function useSetSequenceStatus() {
  const invalidate = useInvalidateSequences();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: SequenceStatus }) =>
      apiJson<Sequence>('PATCH', `/api/email-sequences/${id}`, { status }),
    onSuccess: invalidate,
  });
}

/** DELETE /api/email-sequences/:id. */
export function useDeleteSequence() {
  const invalidate = useInvalidateSequences();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiRequest('DELETE', `/api/email-sequences/${id}`);
    },
    onSuccess: invalidate,
  });
}

/** POST /api/email-sequences/:id/edit-impact: what saving `flowData` would do to the enrolments in flight. */
export function fetchEditImpact(id: number, flowData: FlowData): Promise<EditImpact> {
  return apiJson<EditImpact>('POST', `/api/email-sequences/${id}/edit-impact`, { flowData });
}

/** POST /api/email-sequences/:id/enrolments → {enrolled}. */
export function useEnrol(sequenceId: number) {
  const invalidate = useInvalidateSequences();
  return useMutation({
    mutationFn: (body: EnrolBody) =>
      apiJson<EnrolResponse>('POST', `/api/email-sequences/${sequenceId}/enrolments`, body),
    onSuccess: invalidate,
  });
}

/** How many enrolments the dialog lists per page. */
export const ENROLMENTS_PAGE_SIZE = 20;

/** GET /api/email-sequences/:id/enrolments?page&pageSize (total from X-Total-Count). */
export function useEnrolments(sequenceId: number | null, page: number) {
  return useQuery({
    queryKey: [...SEQUENCES_KEY, sequenceId, 'enrolments', page],
    queryFn: ({ signal }) =>
      fetchPaged<Enrolment>(
        urlWithQuery(`/api/email-sequences/${sequenceId}/enrolments`, { page, pageSize: ENROLMENTS_PAGE_SIZE }),
        signal,
      ),
    enabled: sequenceId !== null,
    placeholderData: keepPreviousData,
    // Enrolments move on their own (the advancer): a reopened dialog reads them again.
    staleTime: 0,
  });
}

/** GET /api/email-sequences/analytics: totals over all the user's sequences. */
export function useSequenceTotals(enabled: boolean) {
  return useQuery<SequenceTotals>({
    queryKey: [...SEQUENCES_KEY, 'analytics'],
    queryFn: () => apiJson<SequenceTotals>('GET', '/api/email-sequences/analytics'),
    enabled,
    staleTime: 0,
  });
}

/** GET /api/email-sequences/:id/analytics: one sequence's totals and per-step funnel. */
export function useSequenceAnalytics(sequenceId: number | null) {
  return useQuery<SequenceAnalytics>({
    queryKey: [...SEQUENCES_KEY, sequenceId, 'analytics'],
    queryFn: () => apiJson<SequenceAnalytics>('GET', `/api/email-sequences/${sequenceId}/analytics`),
    enabled: sequenceId !== null,
    staleTime: 0,
  });
}

/** How many contacts the enrol dialog's search lists. */
const CONTACT_CHOICES = 20;

/** GET /api/contacts?search: the contacts the enrol dialog offers. */
export function useContactChoices(search: string, enabled: boolean) {
  return useQuery({
    queryKey: ['/api/contacts', 'sequence-enrol', search],
    queryFn: ({ signal }) =>
      fetchPaged<Contact>(urlWithQuery('/api/contacts', { search, page: 1, pageSize: CONTACT_CHOICES }), signal),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** GET /api/contact-lists (the default query function fetches the key). */
export function useListChoices(enabled: boolean) {
  return useQuery<ContactList[]>({ queryKey: ['/api/contact-lists'], enabled });
}

/** GET /api/contact-segments. */
export function useSegmentChoices(enabled: boolean) {
  return useQuery<Segment[]>({ queryKey: ['/api/contact-segments'], enabled });
}
