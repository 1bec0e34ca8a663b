import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import type {
  BulkDeleteBody,
  BulkListBody,
  Contact,
  ContactsMatching,
  ContactDetail,
  ContactTimeline,
  ContactList,
  CreateContactBody,
  CreateContactListBody,
  UpdateContactBody,
} from '@sendwell/contract/contacts';

import type { ContactSunset } from '@sendwell/contract/sunset';

import { apiJson, apiRequest } from '@/lib/api';
import { fetchPaged, urlWithQuery, type Paged } from '@/lib/api-paged';

/** Every contacts query (pages and details) starts with this key, so one invalidation refreshes them all. */
const CONTACTS_KEY = ['/api/contacts'] as const;
/** GET /api/contact-lists (the default query function fetches the key). */
const CONTACT_LISTS_KEY = ['/api/contact-lists'] as const;
/** Segment counts move when contacts change; the segments page refetches when it is next shown. */
const SEGMENTS_KEY = ['/api/contact-segments'] as const;

export interface ContactsFilter {
  search?: string;
  listId?: number;
  status?: 'active' | 'unsubscribed';
  page: number;
  pageSize: number;
}

/** Marks contacts, lists and segments stale after any change to contacts or lists. */
export function invalidateContactData(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: CONTACTS_KEY }),
    queryClient.invalidateQueries({ queryKey: CONTACT_LISTS_KEY }),
    queryClient.invalidateQueries({ queryKey: SEGMENTS_KEY }),
  ]).then(() => undefined);
}

/** GET /api/contacts?search&listId&status&page&pageSize → one page and the total (X-Total-Count). */
export function useContacts(filter: ContactsFilter, enabled: boolean) {
  return useQuery<Paged<Contact>>({
    queryKey: [...CONTACTS_KEY, 'page', filter],
    queryFn: ({ signal }) => fetchPaged<Contact>(urlWithQuery('/api/contacts', { ...filter }), signal),
    enabled,
    // The previous page stays on screen while the next one loads, so the table does not jump.
    placeholderData: keepPreviousData,
  });
}

/** GET /api/contacts/:id → the contact and the lists it belongs to. */
export function useContact(id: number | null, enabled: boolean) {
  return useQuery<ContactDetail>({
    queryKey: [...CONTACTS_KEY, 'detail', id],
    queryFn: () => apiJson<ContactDetail>('GET', `/api/contacts/${id}`),
    enabled: enabled && id !== null,
  });
}

/**
 * GET /api/contacts/:id/timeline?page: everything that happened with the contact, newest first, a
 * page at a time ("Show older" fetches the next page and keeps the ones shown).
 */
export function useContactTimeline(id: number | null, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: [...CONTACTS_KEY, 'timeline', id],
    queryFn: ({ pageParam }) => apiJson<ContactTimeline>('GET', `/api/contacts/${id}/timeline?page=${pageParam}`),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
    enabled: enabled && id !== null,
  });
}

/** GET /api/contacts/:id/sunset: where the contact stands under the account's sunset policy. */
export function useContactSunset(id: number | null, enabled: boolean) {
  return useQuery<ContactSunset>({
    queryKey: [...CONTACTS_KEY, 'sunset', id],
    queryFn: () => apiJson<ContactSunset>('GET', `/api/contacts/${id}/sunset`),
    enabled: enabled && id !== null,
  });
}

/** GET /api/contact-lists. */
export function useContactLists(enabled: boolean) {
  return useQuery<ContactList[]>({ queryKey: CONTACT_LISTS_KEY, enabled });
}

/** POST /api/contacts. */
export function useCreateContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateContactBody) => apiJson<Contact>('POST', '/api/contacts', body),
    onSuccess: () => invalidateContactData(queryClient),
  });
}

/** PATCH /api/contacts/:id. */
export function useUpdateContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateContactBody }) =>
      apiJson<Contact>('PATCH', `/api/contacts/${id}`, body),
    onSuccess: () => invalidateContactData(queryClient),
  });
}

/** DELETE /api/contacts/:id. */
export function useDeleteContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest('DELETE', `/api/contacts/${id}`).then(() => undefined),
    onSuccess: () => invalidateContactData(queryClient),
  });
}

/**
 * What a bulk action applies to: the selected contacts, or every contact matching the table's
 * filters ("Select all N matching", done on the server with the same filters); count is for the screen.
 */
export type BulkTarget = { count: number } & ({ contactIds: number[] } | { matching: ContactsMatching });

function bulkTargetBody(target: BulkTarget): BulkDeleteBody {
  return 'matching' in target ? { matching: target.matching } : { contactIds: target.contactIds };
}

/** POST /api/contacts/bulk-delete → how many were deleted. */
export function useBulkDeleteContacts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: BulkTarget) =>
      apiJson<{ affected: number }>('POST', '/api/contacts/bulk-delete', bulkTargetBody(target)),
    onSuccess: () => invalidateContactData(queryClient),
  });
}

/** POST /api/contacts/bulk-add-to-list → how many joined the list (members already in it are not counted). */
export function useBulkAddToList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ listId, target }: { listId: number; target: BulkTarget }) =>
      apiJson<{ affected: number }>('POST', '/api/contacts/bulk-add-to-list', {
        ...bulkTargetBody(target),
        listId,
      } satisfies BulkListBody),
    onSuccess: () => invalidateContactData(queryClient),
  });
}

/** POST /api/contacts/bulk-remove-from-list → how many left the list. */
export function useBulkRemoveFromList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { contactIds: number[]; listId: number }) =>
      apiJson<{ affected: number }>('POST', '/api/contacts/bulk-remove-from-list', body),
    onSuccess: () => invalidateContactData(queryClient),
  });
}

/** POST /api/contact-lists (optionally with its first members). */
export function useCreateContactList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateContactListBody) => apiJson<ContactList>('POST', '/api/contact-lists', body),
    onSuccess: () => invalidateContactData(queryClient),
  });
}

/** PATCH /api/contact-lists/:id (name, description). */
export function useUpdateContactList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: Omit<CreateContactListBody, 'contactIds'> }) =>
      apiJson<ContactList>('PATCH', `/api/contact-lists/${id}`, body),
    onSuccess: () => invalidateContactData(queryClient),
  });
}

/** DELETE /api/contact-lists/:id; the contacts stay. */
export function useDeleteContactList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest('DELETE', `/api/contact-lists/${id}`).then(() => undefined),
    onSuccess: () => invalidateContactData(queryClient),
  });
}

/** The CSV download of all contacts, or of one list. */
export function exportCsvHref(listId?: number): string {
  return urlWithQuery('/api/contacts/export.csv', { listId });
}
