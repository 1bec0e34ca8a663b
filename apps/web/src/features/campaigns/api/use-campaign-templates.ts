import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CampaignTemplate,
  CreateCampaignTemplateBody,
  RenameCampaignTemplateBody,
} from '@sendwell/contract/campaign-templates';

import { apiJson, apiRequest } from '@/lib/api';

/** GET /api/campaign-templates: the account's saved templates, newest first. */
const TEMPLATES_KEY = ['/api/campaign-templates'] as const;

export function useCampaignTemplates(enabled: boolean) {
  return useQuery<CampaignTemplate[]>({ queryKey: TEMPLATES_KEY, enabled });
}

/** POST /api/campaign-templates: saves a campaign's content as a template. */
export function useCreateCampaignTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateCampaignTemplateBody) =>
      apiJson<CampaignTemplate>('POST', '/api/campaign-templates', body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: TEMPLATES_KEY }),
  });
}

/** PATCH /api/campaign-templates/:id {name}. */
export function useRenameCampaignTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: RenameCampaignTemplateBody }) =>
      apiJson<CampaignTemplate>('PATCH', `/api/campaign-templates/${id}`, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: TEMPLATES_KEY }),
  });
}

/** DELETE /api/campaign-templates/:id. */
export function useDeleteCampaignTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest('DELETE', `/api/campaign-templates/${id}`).then(() => undefined),
    onSettled: () => queryClient.invalidateQueries({ queryKey: TEMPLATES_KEY }),
  });
}
