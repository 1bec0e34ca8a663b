import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ContactList } from '@sendwell/contract/contacts';
import {
  createdLeadSourceSchema,
  leadsLoadedSchema,
  type CreatedLeadSource,
  type LeadsLoaded,
  type SampleLeadsBody,
} from '@sendwell/contract/leads';
import type {
  ConvertLeadResult,
  CreateLeadBody,
  CreateLeadCampaignBody,
  CreateLeadSourceBody,
  GenerateLeadsBody,
  Lead,
  LeadCampaign,
  LeadGenerationRunResponse,
  LeadSource,
  LeadSourceCredits,
  UpdateLeadBody,
  UpdateLeadSourceBody,
} from '@sendwell/contract/leads';

import { apiJson } from '@/lib/api';
import { runFinished } from '../lead-display';

/** GET /api/leads (the default query function fetches the key). */
const LEADS_KEY = ['/api/leads'] as const;
/** GET /api/lead-sources */
const LEAD_SOURCES_KEY = ['/api/lead-sources'] as const;
/** GET /api/lead-campaigns */
const LEAD_CAMPAIGNS_KEY = ['/api/lead-campaigns'] as const;
/** The contacts feature's lists and contacts keys: converting a lead changes both (same URLs, so one cache). */
const CONTACT_LISTS_KEY = ['/api/contact-lists'] as const;
const CONTACTS_KEY = ['/api/contacts'] as const;
/** How often a running generation is polled for its progress. */
const GENERATION_POLL_MS = 1000;

/** Leads, sources (their counts) and campaigns (their counts) all move together when a lead changes. */
function invalidateLeadData(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: LEADS_KEY }),
    queryClient.invalidateQueries({ queryKey: LEAD_SOURCES_KEY }),
    queryClient.invalidateQueries({ queryKey: LEAD_CAMPAIGNS_KEY }),
  ]).then(() => undefined);
}

/** GET /api/leads: newest first. */
export function useLeads(enabled = true) {
  return useQuery<Lead[]>({ queryKey: LEADS_KEY, enabled });
}

/** GET /api/leads/:id, seeded from the list so the sheet opens at once. */
export function useLead(id: number | null) {
  const queryClient = useQueryClient();
  return useQuery<Lead>({
    queryKey: [...LEADS_KEY, id],
    queryFn: () => apiJson<Lead>('GET', `/api/leads/${id}`),
    enabled: id !== null,
    initialData: () => queryClient.getQueryData<Lead[]>(LEADS_KEY)?.find((lead) => lead.id === id),
  });
}

/** GET /api/lead-sources */
export function useLeadSources(enabled = true) {
  return useQuery<LeadSource[]>({ queryKey: LEAD_SOURCES_KEY, enabled });
}

/** GET /api/lead-campaigns */
export function useLeadCampaigns(enabled = true) {
  return useQuery<LeadCampaign[]>({ queryKey: LEAD_CAMPAIGNS_KEY, enabled });
}

/** GET /api/contact-lists, for 'Add to contact list'. */
export function useContactListsForLeads(enabled: boolean) {
  return useQuery<ContactList[]>({ queryKey: CONTACT_LISTS_KEY, enabled });
}

/** GET /api/lead-sources/:id/credits: an enrichment key's searches left, read before spending any. */
export function useLeadSourceCredits(id: number, enabled: boolean) {
  return useQuery<LeadSourceCredits>({
    queryKey: [...LEAD_SOURCES_KEY, id, 'credits'],
    queryFn: () => apiJson<LeadSourceCredits>('GET', `/api/lead-sources/${id}/credits`),
    enabled,
  });
}

/** POST /api/lead-sources: the source, and for a webhook source its address and secret (answered this once). */
export function useCreateLeadSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateLeadSourceBody): Promise<CreatedLeadSource> =>
      createdLeadSourceSchema.parse(await apiJson<unknown>('POST', '/api/lead-sources', body)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LEAD_SOURCES_KEY }),
  });
}

/** PATCH /api/lead-sources/:id */
export function useUpdateLeadSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateLeadSourceBody }) =>
      apiJson<LeadSource>('PATCH', `/api/lead-sources/${id}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LEAD_SOURCES_KEY }),
  });
}

/** POST /api/lead-sources/:id/sample-leads: a sample source's demo businesses for a profession and location. */
export function useLoadSampleLeads() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id: number; body: SampleLeadsBody }): Promise<LeadsLoaded> =>
      leadsLoadedSchema.parse(await apiJson<unknown>('POST', `/api/lead-sources/${id}/sample-leads`, body)),
    onSuccess: () => invalidateLeadData(queryClient),
  });
}

/** POST /api/leads: one lead by hand. */
export function useCreateLead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateLeadBody) => apiJson<Lead>('POST', '/api/leads', body),
    onSuccess: () => invalidateLeadData(queryClient),
  });
}

/** PATCH /api/leads/:id: status, notes, lawful basis, campaign. */
export function useUpdateLead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateLeadBody }) =>
      apiJson<Lead>('PATCH', `/api/leads/${id}`, body),
    onSuccess: (lead) => {
      queryClient.setQueryData([...LEADS_KEY, lead.id], lead);
      return invalidateLeadData(queryClient);
    },
  });
}

/** POST /api/leads/:id/convert: adds the lead to a contact list (its contact is created or updated). */
export function useConvertLead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, listId }: { id: number; listId: number }) =>
      apiJson<ConvertLeadResult>('POST', `/api/leads/${id}/convert`, { listId }),
    onSuccess: (result) => {
      queryClient.setQueryData([...LEADS_KEY, result.lead.id], result.lead);
      return Promise.all([
        invalidateLeadData(queryClient),
        queryClient.invalidateQueries({ queryKey: CONTACTS_KEY }),
        queryClient.invalidateQueries({ queryKey: CONTACT_LISTS_KEY }),
      ]).then(() => undefined);
    },
  });
}

/** POST /api/lead-campaigns */
export function useCreateLeadCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateLeadCampaignBody) => apiJson<LeadCampaign>('POST', '/api/lead-campaigns', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LEAD_CAMPAIGNS_KEY }),
  });
}

/** POST /api/leads/generate: starts a run (202) that is then polled. */
export function useStartLeadGeneration() {
  return useMutation({
    mutationFn: (body: GenerateLeadsBody) => apiJson<LeadGenerationRunResponse>('POST', '/api/leads/generate', body),
  });
}

/** GET /api/leads/generate/:id, polled until the run is done or failed. */
export function useLeadGenerationRun(id: string | null) {
  return useQuery<LeadGenerationRunResponse>({
    queryKey: ['/api/leads/generate', id],
    queryFn: () => apiJson<LeadGenerationRunResponse>('GET', `/api/leads/generate/${encodeURIComponent(id ?? '')}`),
    enabled: id !== null,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data && runFinished(query.state.data) ? false : GENERATION_POLL_MS),
  });
}

/** Refetches the leads and everything counted from them (after a run finishes). */
export function useRefreshLeadData() {
  const queryClient = useQueryClient();
  return () => invalidateLeadData(queryClient);
}
