import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CurrentUser, UpdateProfileBody } from '@sendwell/contract/auth';
import type { EmailBlock } from '@sendwell/contract/campaigns';
import type { Contact, ContactList } from '@sendwell/contract/contacts';
import type { Domain } from '@sendwell/contract/domains';
import type { Segment } from '@sendwell/contract/segments';
import type { SenderOverview } from '@sendwell/contract/sender-addresses';
import type { UploadedImage } from '@sendwell/contract/uploads';

import { apiJson, apiRequest, throwIfResNotOk } from '@/lib/api';
import { activeAliasNames } from '../editor/sender-options';
import { fetchJson } from './use-campaigns';

/** GET /api/contact-lists (the same key as the contacts page, so both share one cache entry). */
export function useContactLists(enabled: boolean) {
  return useQuery<ContactList[]>({ queryKey: ['/api/contact-lists'], enabled });
}

/** GET /api/contact-segments. */
export function useSegments(enabled: boolean) {
  return useQuery<Segment[]>({ queryKey: ['/api/contact-segments'], enabled });
}

/** GET /api/domains: the first entry (the primary domain) forms the sender addresses. */
export function useDomains(enabled: boolean) {
  return useQuery<Domain[]>({ queryKey: ['/api/domains'], enabled });
}

/**
 * GET /api/sender-addresses: what the account may send from (the same key as Domain Settings' Sender
 * Addresses tab, so both share one cache entry).
 */
export function useSenderOverview(enabled: boolean) {
  return useQuery<SenderOverview>({ queryKey: ['/api/sender-addresses'], enabled });
}

/**
 * GET /api/domains/:id/aliases for each of the account's verified domains, by its real id (never a
 * fixed one): the active alias names per domain name. A domain whose list is not (yet) loaded is
 * absent, and the editor offers the default senders there (spec §9). The query key is the one
 * Domain Settings' alias panels use, so an alias created or deleted there shows here at once.
 */
export function useVerifiedDomainAliases(domains: readonly Domain[] | undefined) {
  const verified = (domains ?? []).filter((domain) => domain.isVerified);
  return useQueries({
    queries: verified.map((domain) => ({
      queryKey: ['/api/domains', domain.id, 'aliases'],
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchJson<unknown>(`/api/domains/${domain.id}/aliases`, signal),
      select: activeAliasNames,
    })),
    combine: (results) => {
      const byDomain: Record<string, string[]> = {};
      results.forEach((result, i) => {
        const domain = verified[i];
        if (domain && result.data) byDomain[domain.domain.toLowerCase()] = result.data;
      });
      return { byDomain, isLoading: results.some((result) => result.isLoading) };
    },
  });
}

/** GET /api/logos: the Logo Library. */
const LOGOS_KEY = ['/api/logos'] as const;
export function useLogos(enabled: boolean) {
  return useQuery<UploadedImage[]>({ queryKey: LOGOS_KEY, enabled });
}

/** Sends one image as multipart field `image`; throws the transport error ('{status}: {body}'). */
async function uploadImageFile(url: '/api/upload/image' | '/api/logos', file: File): Promise<UploadedImage> {
  const form = new FormData();
  form.append('image', file, file.name);
  const res = await fetch(url, { method: 'POST', body: form, credentials: 'include' });
  await throwIfResNotOk(res);
  return (await res.json()) as UploadedImage;
}

/** POST /api/upload/image: an image for the email (dropped on the canvas or chosen for an image block). */
export function useUploadImage() {
  return useMutation({ mutationFn: (file: File) => uploadImageFile('/api/upload/image', file) });
}

/** POST /api/logos: adds to the Logo Library. */
export function useUploadLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadImageFile('/api/logos', file),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LOGOS_KEY }),
  });
}

/** DELETE /api/logos/:id. */
export function useDeleteLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest('DELETE', `/api/logos/${id}`).then(() => undefined),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LOGOS_KEY }),
  });
}

/**
 * POST /api/campaigns/preview: the server's own rendering of the blocks, or of a campaign's own
 * HTML (exactly what recipients get). The previous rendering stays on screen while the next one loads.
 */
export function useEmailPreview(
  blocks: EmailBlock[],
  subject: string,
  enabled: boolean,
  html: string | null = null,
  /** Preview as this contact of the account (their data, their conditional blocks); null: everyone. */
  contactId: number | null = null,
) {
  const base = html === null ? { blocks, subject } : { blocks: [], subject, html };
  const body = contactId === null ? base : { ...base, contactId };
  return useQuery<{ html: string; text: string }>({
    queryKey: ['/api/campaigns/preview', body],
    queryFn: () => apiJson<{ html: string; text: string }>('POST', '/api/campaigns/preview', body),
    enabled,
    placeholderData: keepPreviousData,
    gcTime: 60_000,
  });
}

/** GET /api/contacts (first 100): the contacts the preview can be seen as. */
export function usePreviewContacts(enabled: boolean) {
  return useQuery<Contact[]>({
    queryKey: ['/api/contacts', { pageSize: 100, status: 'active' }],
    queryFn: ({ signal }) => fetchJson<Contact[]>('/api/contacts?pageSize=100&status=active', signal),
    enabled,
  });
}

/**
 * PATCH /api/auth/user {postalAddress}: the pre-send checklist's own fix, typed in the editor so the
 * draft stays open. The answer replaces the cached session user (the same key the auth feature reads).
 */
export function useSavePostalAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (postalAddress: string) =>
      apiJson<CurrentUser>('PATCH', '/api/auth/user', { postalAddress } satisfies UpdateProfileBody),
    onSuccess: (user) => queryClient.setQueryData(['/api/auth/user'], user),
  });
}

/**
 * POST /api/contact-lists {name, contactIds}: the list of contacts picked on the Contacts page,
 * made when the campaign is first saved with them (never on the way to the editor).
 */
export function useCreateSelectionList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; contactIds: number[] }) =>
      apiJson<ContactList>('POST', '/api/contact-lists', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['/api/contact-lists'] }),
  });
}
