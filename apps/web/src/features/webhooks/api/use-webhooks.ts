import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreateWebhookEndpointBody,
  UpdateWebhookEndpointBody,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookSecret,
} from '@sendwell/contract/webhooks';

import { apiJson, apiRequest } from '@/lib/api';

/** Every webhooks query starts with this key, so a change refreshes the list, the detail and the log. */
const WEBHOOKS_KEY = ['/api/webhooks'] as const;

export function useWebhookEndpoints() {
  return useQuery<WebhookEndpointList>({
    queryKey: WEBHOOKS_KEY,
    queryFn: () => apiJson<WebhookEndpointList>('GET', '/api/webhooks'),
  });
}

export function useWebhookEndpoint(id: number) {
  return useQuery<WebhookEndpoint>({
    queryKey: [...WEBHOOKS_KEY, id],
    queryFn: () => apiJson<WebhookEndpoint>('GET', `/api/webhooks/${id}`),
  });
}

/** The delivery log; refreshed every few seconds while a delivery waits for its next attempt. */
export function useWebhookDeliveries(id: number) {
  return useQuery<WebhookDeliveryList>({
    queryKey: [...WEBHOOKS_KEY, id, 'deliveries'],
    queryFn: () => apiJson<WebhookDeliveryList>('GET', `/api/webhooks/${id}/deliveries`),
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((delivery) => delivery.status === 'pending') ? 2000 : false,
  });
}

function useWebhookMutation<Input, Output>(run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
}

export function useCreateWebhookEndpoint() {
  return useWebhookMutation((body: CreateWebhookEndpointBody) =>
    apiJson<WebhookEndpoint & { secret: string }>('POST', '/api/webhooks', body),
  );
}

export function useUpdateWebhookEndpoint(id: number) {
  return useWebhookMutation((body: UpdateWebhookEndpointBody) =>
    apiJson<WebhookEndpoint>('PATCH', `/api/webhooks/${id}`, body),
  );
}

export function useDeleteWebhookEndpoint(id: number) {
  return useWebhookMutation(() => apiRequest('DELETE', `/api/webhooks/${id}`));
}

export function useSendTestWebhook(id: number) {
  return useWebhookMutation(() => apiRequest('POST', `/api/webhooks/${id}/test`));
}

export function useReplayWebhookDelivery(id: number) {
  return useWebhookMutation((deliveryId: number) =>
    apiRequest('POST', `/api/webhooks/${id}/deliveries/${deliveryId}/replay`),
  );
}

export function useRevealWebhookSecret(id: number) {
  return useMutation({ mutationFn: () => apiJson<WebhookSecret>('GET', `/api/webhooks/${id}/secret`) });
}

export function useRotateWebhookSecret(id: number) {
  return useWebhookMutation(() => apiJson<WebhookSecret>('POST', `/api/webhooks/${id}/rotate-secret`));
}
