import { Link } from 'wouter';
import { ChevronRight, Webhook } from 'lucide-react';
import type { WebhookEndpoint } from '@sendwell/contract/webhooks';

import { EmptyState } from '@/components/empty-state';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useWebhookEndpoints } from '../api/use-webhooks';
import { EndpointStatusBadge } from './endpoint-status-badge';

/** The account's endpoints, each a link to its page (secret, delivery log). */
export function EndpointList() {
  const list = useWebhookEndpoints();
  if (list.isPending) return <Skeleton className="h-32 w-full" />;
  if (list.isError) return <p role="alert">Could not load your webhook endpoints.</p>;
  const endpoints = list.data.endpoints;
  if (endpoints.length === 0)
    return (
      <EmptyState icon={Webhook} title="No endpoints yet">
        Add an endpoint to receive contact, email, lead and inbound events as they happen.
      </EmptyState>
    );
  return (
    <Card className="divide-y p-0">
      <ul aria-label="Webhook endpoints" className="divide-y">
        {endpoints.map((endpoint) => (
          <li key={endpoint.id}>
            <Link
              href={`/webhooks/${endpoint.id}`}
              className="hover:bg-muted/50 focus-visible:ring-ring flex items-center gap-4 p-4 focus-visible:ring-2 focus-visible:outline-none"
            >
              <div className="min-w-0 flex-1 space-y-1">
                <p className="truncate font-mono text-sm font-medium">{endpoint.url}</p>
                <p className="text-muted-foreground truncate text-sm">
                  {endpoint.description || 'No description'} · {eventsText(endpoint)}
                </p>
              </div>
              <EndpointStatusBadge endpoint={endpoint} />
              <ChevronRight className="text-muted-foreground size-4 shrink-0" aria-hidden="true" />
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}

export function eventsText(endpoint: WebhookEndpoint): string {
  if (endpoint.eventTypes.length === 0) return 'All events';
  return endpoint.eventTypes.length === 1 ? '1 event' : `${endpoint.eventTypes.length} events`;
}
