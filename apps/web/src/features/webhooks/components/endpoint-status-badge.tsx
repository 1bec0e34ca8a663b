import type { WebhookEndpoint } from '@sendwell/contract/webhooks';

import { Badge } from '@/components/ui/badge';

/** Enabled, Failing (enabled, every delivery failing) or Disabled. */
export function EndpointStatusBadge({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.status === 'disabled') return <Badge variant="secondary">Disabled</Badge>;
  if (endpoint.failingSince) return <Badge variant="destructive">Failing</Badge>;
  return <Badge variant="outline">Enabled</Badge>;
}
