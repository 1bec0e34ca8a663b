import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AliasActivity,
  AliasTestResult,
  CreateAliasBody,
  CreateDestinationBody,
  CreateRuleBody,
  EmailAlias,
  ForwardingDestination,
  ForwardingRule,
  ForwardingStats,
  ResendConfirmationResponse,
  TestAliasBody,
  TestForwardingBody,
  UpdateAliasBody,
  UpdateDestinationBody,
  UpdateRuleBody,
} from '@sendwell/contract/aliases';

import { apiJson, apiRequest } from '@/lib/api';

/** GET /api/domains/:id/aliases, keyed under the domains prefix so a domain change refreshes it too. */
const aliasesKey = (domainId: number) => ['/api/domains', domainId, 'aliases'] as const;
const rulesKey = (aliasId: number) => ['/api/forwarding-rules', aliasId] as const;
const destinationsKey = (aliasId: number) => ['/api/forwarding-destinations', aliasId] as const;
const statsKey = (aliasId: number) => ['/api/forwarding-stats', aliasId] as const;
const activityKey = (aliasId: number) => ['/api/email-aliases', aliasId, 'activity'] as const;

/** Everything shown about one alias: its rules, destinations, stats and activity. */
function useRefreshAlias() {
  const queryClient = useQueryClient();
  return (aliasId: number) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['/api/domains'] }),
      queryClient.invalidateQueries({ queryKey: rulesKey(aliasId) }),
      queryClient.invalidateQueries({ queryKey: destinationsKey(aliasId) }),
      queryClient.invalidateQueries({ queryKey: statsKey(aliasId) }),
      queryClient.invalidateQueries({ queryKey: activityKey(aliasId) }),
    ]);
}

/** The aliases of one domain (its real id). */
export function useAliases(domainId: number | null) {
  return useQuery<EmailAlias[]>({
    queryKey: aliasesKey(domainId ?? 0),
    queryFn: () => apiJson<EmailAlias[]>('GET', `/api/domains/${domainId}/aliases`),
    enabled: domainId !== null,
  });
}

/** POST /api/domains/:id/aliases (simple form: alias and destination; advanced: also forwardingType…). */
export function useCreateAlias(domainId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateAliasBody) => apiJson<EmailAlias>('POST', `/api/domains/${domainId}/aliases`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: aliasesKey(domainId) }),
  });
}

/** PATCH /api/email-aliases/:id: the Overview tab's settings. */
export function useUpdateAlias() {
  const refresh = useRefreshAlias();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateAliasBody }) =>
      apiJson<EmailAlias>('PATCH', `/api/email-aliases/${id}`, body),
    onSuccess: (alias) => refresh(alias.id),
  });
}

/** DELETE /api/email-aliases/:id (its rules, destinations and log go with it). */
export function useDeleteAlias() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiRequest('DELETE', `/api/email-aliases/${id}`);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['/api/domains'] }),
  });
}

/** POST /api/email-aliases/:id/resend-confirmation: the destination's link again. */
export function useResendAliasConfirmation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiJson<ResendConfirmationResponse>('POST', `/api/email-aliases/${id}/resend-confirmation`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['/api/domains'] }),
  });
}

/** GET /api/forwarding-rules?aliasId= */
export function useForwardingRules(aliasId: number) {
  return useQuery<ForwardingRule[]>({
    queryKey: rulesKey(aliasId),
    queryFn: () => apiJson<ForwardingRule[]>('GET', `/api/forwarding-rules?aliasId=${aliasId}`),
  });
}

/** POST /api/forwarding-rules */
export function useCreateRule() {
  const refresh = useRefreshAlias();
  return useMutation({
    mutationFn: (body: CreateRuleBody) => apiJson<ForwardingRule>('POST', '/api/forwarding-rules', body),
    onSuccess: (rule) => refresh(rule.aliasId),
  });
}

/** PATCH /api/forwarding-rules/:id: on/off, or the whole rule from the edit form. */
export function useUpdateRule() {
  const refresh = useRefreshAlias();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateRuleBody }) =>
      apiJson<ForwardingRule>('PATCH', `/api/forwarding-rules/${id}`, body),
    onSuccess: (rule) => refresh(rule.aliasId),
  });
}

/** DELETE /api/forwarding-rules/:id */
export function useDeleteRule() {
  const refresh = useRefreshAlias();
  return useMutation({
    mutationFn: async (rule: ForwardingRule) => {
      await apiRequest('DELETE', `/api/forwarding-rules/${rule.id}`);
    },
    onSuccess: (_, rule) => refresh(rule.aliasId),
  });
}

/** GET /api/forwarding-destinations?aliasId= */
export function useDestinations(aliasId: number) {
  return useQuery<ForwardingDestination[]>({
    queryKey: destinationsKey(aliasId),
    queryFn: () => apiJson<ForwardingDestination[]>('GET', `/api/forwarding-destinations?aliasId=${aliasId}`),
  });
}

/** POST /api/forwarding-destinations (Pending until its link is followed). */
export function useCreateDestination() {
  const refresh = useRefreshAlias();
  return useMutation({
    mutationFn: (body: CreateDestinationBody) =>
      apiJson<ForwardingDestination>('POST', '/api/forwarding-destinations', body),
    onSuccess: (destination) => refresh(destination.aliasId),
  });
}

/** PATCH /api/forwarding-destinations/:id: weight, on/off. */
export function useUpdateDestination() {
  const refresh = useRefreshAlias();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateDestinationBody }) =>
      apiJson<ForwardingDestination>('PATCH', `/api/forwarding-destinations/${id}`, body),
    onSuccess: (destination) => refresh(destination.aliasId),
  });
}

/** DELETE /api/forwarding-destinations/:id */
export function useDeleteDestination() {
  const refresh = useRefreshAlias();
  return useMutation({
    mutationFn: async (destination: ForwardingDestination) => {
      await apiRequest('DELETE', `/api/forwarding-destinations/${destination.id}`);
    },
    onSuccess: (_, destination) => refresh(destination.aliasId),
  });
}

/** POST /api/forwarding-destinations/:id/resend-confirmation */
export function useResendDestinationConfirmation() {
  const refresh = useRefreshAlias();
  return useMutation({
    mutationFn: (destination: ForwardingDestination) =>
      apiJson<ResendConfirmationResponse>('POST', `/api/forwarding-destinations/${destination.id}/resend-confirmation`),
    onSuccess: (_, destination) => refresh(destination.aliasId),
  });
}

/** GET /api/forwarding-stats?aliasId= (recorded events; the last 30 days for the chart). */
export function useForwardingStats(aliasId: number) {
  return useQuery<ForwardingStats>({
    queryKey: statsKey(aliasId),
    queryFn: () => apiJson<ForwardingStats>('GET', `/api/forwarding-stats?aliasId=${aliasId}`),
  });
}

/** GET /api/email-aliases/:id/activity: the last 100 messages, newest first. */
export function useAliasActivity(aliasId: number) {
  return useQuery<AliasActivity[]>({
    queryKey: activityKey(aliasId),
    queryFn: () => apiJson<AliasActivity[]>('GET', `/api/email-aliases/${aliasId}/activity`),
  });
}

/**
 * Reads an alias's figures again a few times after a test: the forward is a queued job, so the
 * outcome and the stats move a moment after the test answers.
 */
function useRefreshAfterTest() {
  const refresh = useRefreshAlias();
  return (aliasId: number) => {
    void refresh(aliasId);
    for (const delay of [1500, 4000, 8000]) setTimeout(() => void refresh(aliasId), delay);
  };
}

/** POST /api/test-alias: a real test message through the pipeline; answers what happened. */
export function useTestAlias() {
  const refreshLater = useRefreshAfterTest();
  return useMutation({
    mutationFn: (body: TestAliasBody) => apiJson<AliasTestResult>('POST', '/api/test-alias', body),
    onSuccess: (_, body) => refreshLater(body.aliasId),
  });
}

/** POST /api/test-forwarding: the same, with the sender, subject and content the user chose. */
export function useTestForwarding() {
  const refreshLater = useRefreshAfterTest();
  return useMutation({
    mutationFn: (body: TestForwardingBody) => apiJson<AliasTestResult>('POST', '/api/test-forwarding', body),
    onSuccess: (_, body) => {
      if (typeof body.aliasId === 'number') refreshLater(body.aliasId);
    },
  });
}
