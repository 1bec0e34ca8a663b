import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  CampaignActivityKind,
  CampaignActivityResponse,
  CampaignDetail,
  CampaignListItem,
  CampaignReport,
  CreateCampaignBody,
  UpdateCampaignBody,
} from '@sendwell/contract/campaigns';

import { apiJson, apiRequest, throwIfResNotOk } from '@/lib/api';
import { livePollInterval, SENDING_POLL_MS } from '../campaign-stats';

/** GET /api/campaigns; every campaign query key starts with it, so one invalidation refreshes them all. */
const CAMPAIGNS_KEY = ['/api/campaigns'] as const;
/** The dashboard's stats move when a campaign is sent. */
const STATS_KEY = ['/api/analytics/stats'] as const;

/** Marks the campaign list, details and dashboard stats stale. */
function invalidateCampaignData(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: CAMPAIGNS_KEY }),
    queryClient.invalidateQueries({ queryKey: STATS_KEY }),
  ]).then(() => undefined);
}

/**
 * GET /api/campaigns; runs only for a signed-in user. Opens and clicks arrive from recipients, not
 * through anything this app invalidates, so the list is read afresh whenever a screen showing it
 * mounts, and re-read while something is in flight (livePollInterval: every 3 s while a campaign
 * is sending, every 10 s while one was sent in the last two days) — on the Campaigns page and the
 * dashboard's Recent Campaigns alike. Mutations invalidate it (invalidateCampaignData).
 */
export function useCampaigns(enabled: boolean) {
  return useQuery<CampaignListItem[]>({
    queryKey: CAMPAIGNS_KEY,
    enabled,
    staleTime: 0,
    refetchInterval: (query) => livePollInterval(query.state.data),
  });
}

/** The key of one campaign's detail. */
const campaignKey = (id: number) => [...CAMPAIGNS_KEY, id] as const;

/** GET /api/campaigns/:id; with `pollWhileSending`, refreshes every 3 s while it is sending. */
export function useCampaign(
  id: number | null,
  enabled: boolean,
  { pollWhileSending = false }: { pollWhileSending?: boolean } = {},
) {
  return useQuery<CampaignDetail>({
    queryKey: campaignKey(id ?? 0),
    queryFn: ({ signal }) => fetchJson<CampaignDetail>(`/api/campaigns/${id}`, signal),
    enabled: enabled && id !== null,
    refetchInterval: pollWhileSending
      ? (query) => (query.state.data?.status === 'sending' ? SENDING_POLL_MS : false)
      : false,
  });
}

/**
 * GET /api/campaigns/:id/report: delivery, bounces, unsubscribes, opens and clicks over time, top
 * links. `poll` is how often to re-read it (livePollInterval of the campaign), or false.
 */
export function useCampaignReport(
  id: number | null,
  enabled: boolean,
  { poll = false }: { poll?: number | false } = {},
) {
  return useQuery<CampaignReport>({
    queryKey: [...CAMPAIGNS_KEY, id ?? 0, 'report'],
    queryFn: ({ signal }) => fetchJson<CampaignReport>(`/api/campaigns/${id}/report`, signal),
    enabled: enabled && id !== null,
    // Opens and clicks keep arriving after the send: read afresh each time the report opens.
    staleTime: 0,
    refetchInterval: poll,
  });
}

/** The query string of a who-list (and its CSV export, which leaves out the page). */
export function campaignActivityParams(filter: { kind: CampaignActivityKind; search: string; page?: number }) {
  const params = new URLSearchParams({ kind: filter.kind });
  if (filter.search.trim()) params.set('search', filter.search.trim());
  if (filter.page !== undefined) params.set('page', String(filter.page));
  return params.toString();
}

/** GET /api/campaigns/:id/activity: one page of who opened, clicked, bounced, unsubscribed or complained. */
export function useCampaignActivity(id: number, filter: { kind: CampaignActivityKind; search: string; page: number }) {
  const query = campaignActivityParams(filter);
  return useQuery<CampaignActivityResponse>({
    queryKey: [...CAMPAIGNS_KEY, id, 'activity', query],
    queryFn: ({ signal }) => fetchJson<CampaignActivityResponse>(`/api/campaigns/${id}/activity?${query}`, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** GET /api/campaigns/:id/recipients: how many contacts the campaign would go to now. */
export function useRecipientCount(id: number | null, enabled: boolean) {
  return useQuery<{ count: number }>({
    queryKey: [...CAMPAIGNS_KEY, id ?? 0, 'recipients'],
    queryFn: ({ signal }) => fetchJson<{ count: number }>(`/api/campaigns/${id}/recipients`, signal),
    enabled: enabled && id !== null,
    // The count changes with the lists; read it fresh each time a confirmation opens.
    staleTime: 0,
    gcTime: 0,
  });
}

/** GET /api/campaigns/:id/recipients, outside React (the editor asks right after saving). */
export function fetchRecipientCount(id: number): Promise<{ count: number }> {
  return apiJson<{ count: number }>('GET', `/api/campaigns/${id}/recipients`);
}

/** POST /api/campaigns (status 'sent' saves, then sends). */
export function useCreateCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateCampaignBody) => apiJson<CampaignDetail>('POST', '/api/campaigns', body),
    onSuccess: (detail) => queryClient.setQueryData(campaignKey(detail.id), detail),
    onSettled: () => invalidateCampaignData(queryClient),
  });
}

/** PATCH /api/campaigns/:id (drafts only; {status: 'sent'} sends after saving). */
export function useUpdateCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateCampaignBody }) =>
      apiJson<CampaignDetail>('PATCH', `/api/campaigns/${id}`, body),
    onSuccess: (detail) => queryClient.setQueryData(campaignKey(detail.id), detail),
    onSettled: () => invalidateCampaignData(queryClient),
  });
}

/** DELETE /api/campaigns/:id (drafts only). */
export function useDeleteCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest('DELETE', `/api/campaigns/${id}`).then(() => undefined),
    onSuccess: () => invalidateCampaignData(queryClient),
  });
}

/** POST /api/campaigns/:id/duplicate: a new draft "Copy of …". */
export function useDuplicateCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiJson<CampaignDetail>('POST', `/api/campaigns/${id}/duplicate`),
    onSuccess: (detail) => queryClient.setQueryData(campaignKey(detail.id), detail),
    onSettled: () => invalidateCampaignData(queryClient),
  });
}

/** POST /api/campaigns/:id/send. */
export function useSendCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiJson<CampaignDetail>('POST', `/api/campaigns/${id}/send`),
    onSettled: () => invalidateCampaignData(queryClient),
  });
}

/** What can be done to a campaign while it goes out (or waits to). */
export type SendControl = 'pause' | 'resume' | 'cancel';

/**
 * POST /api/campaigns/:id/pause | resume | cancel: the answer (the campaign as it is now) replaces
 * the cached detail at once, so the report's badge and progress move without waiting for a poll.
 */
export function useSendControl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: SendControl }) =>
      apiJson<CampaignDetail>('POST', `/api/campaigns/${id}/${action}`),
    onSuccess: (detail) => queryClient.setQueryData(campaignKey(detail.id), detail),
    onSettled: () => invalidateCampaignData(queryClient),
  });
}

/** POST /api/campaigns/:id/test {emails} → how many tests went out. */
export function useSendTest() {
  return useMutation({
    mutationFn: ({ id, emails }: { id: number; emails: string[] }) =>
      apiJson<{ sent: number }>('POST', `/api/campaigns/${id}/test`, { emails }),
  });
}

/** A GET with the session cookie that keeps react-query's abort signal; throws the transport error. */
export async function fetchJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(url, { credentials: 'include', signal });
  await throwIfResNotOk(res);
  return (await res.json()) as T;
}
