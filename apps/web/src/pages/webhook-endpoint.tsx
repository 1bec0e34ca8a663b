import { useRoute } from 'wouter';

import { EndpointDetail } from '@/features/webhooks/components/endpoint-detail';
import NotFoundPage from '@/pages/not-found';

/** /webhooks/:id: one endpoint, its secret and its delivery log. */
export default function WebhookEndpointPage() {
  const [, params] = useRoute('/webhooks/:id');
  const endpointId = Number(params?.id);
  if (!Number.isSafeInteger(endpointId) || endpointId <= 0) return <NotFoundPage />;
  return <EndpointDetail key={endpointId} id={endpointId} />;
}
