import { RotateCcw, ScrollText } from 'lucide-react';
import type { WebhookDelivery } from '@sendwell/contract/webhooks';

import { EmptyState } from '@/components/empty-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useReplayWebhookDelivery, useWebhookDeliveries } from '../api/use-webhooks';

const STATUS_LABEL: Record<WebhookDelivery['status'], string> = {
  pending: 'Retrying',
  succeeded: 'Delivered',
  failed: 'Failed',
};

/** The endpoint's newest deliveries: each attempt's status, latency and answer, and Replay. */
export function DeliveryLog({ endpointId, enabled }: { endpointId: number; enabled: boolean }) {
  const log = useWebhookDeliveries(endpointId);
  const replay = useReplayWebhookDelivery(endpointId);

  const onReplay = async (delivery: WebhookDelivery) => {
    try {
      await replay.mutateAsync(delivery.id);
      toast({ title: 'Replay queued', description: `${delivery.eventType} is sent again.` });
    } catch (err) {
      toastError(err, 'Could not replay the delivery');
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Delivery log</CardTitle>
        <CardDescription>The newest 50 deliveries. A failed one is retried for about 3 days.</CardDescription>
      </CardHeader>
      <CardContent>
        {log.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : log.isError ? (
          <p role="alert">Could not load the delivery log.</p>
        ) : log.data.deliveries.length === 0 ? (
          <EmptyState icon={ScrollText} title="No deliveries yet">
            Events appear here as they are sent. Send a test event to try the endpoint.
          </EmptyState>
        ) : (
          <ul aria-label="Deliveries" className="divide-y">
            {log.data.deliveries.map((delivery) => {
              const last = delivery.tries[0];
              return (
                <li key={delivery.id} className="space-y-2 py-3">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-mono text-sm font-medium">{delivery.eventType}</span>
                    <Badge
                      variant={
                        delivery.status === 'failed'
                          ? 'destructive'
                          : delivery.status === 'succeeded'
                            ? 'outline'
                            : 'secondary'
                      }
                    >
                      {STATUS_LABEL[delivery.status]}
                    </Badge>
                    <span className="text-muted-foreground text-sm">
                      {new Date(delivery.createdAt).toLocaleString()} · {delivery.attempts}{' '}
                      {delivery.attempts === 1 ? 'attempt' : 'attempts'}
                      {last && ` · ${last.statusCode ?? 'no answer'}`}
                      {last?.latencyMs != null && ` · ${last.latencyMs} ms`}
                    </span>
                    <Button
                      variant="outline"
                      size="sm"
                      className="ml-auto"
                      disabled={!enabled || replay.isPending}
                      onClick={() => void onReplay(delivery)}
                      aria-label={`Replay ${delivery.eventType} delivery ${delivery.id}`}
                    >
                      <RotateCcw aria-hidden="true" />
                      Replay
                    </Button>
                  </div>
                  {delivery.tries.length > 0 && (
                    <details className="text-sm">
                      <summary className="text-muted-foreground cursor-pointer">Attempts</summary>
                      <ol className="mt-2 space-y-2">
                        {delivery.tries.map((attempt) => (
                          <li key={attempt.attempt} className="bg-muted rounded-md p-2">
                            <p>
                              Attempt {attempt.attempt} · {attempt.statusCode ?? 'no answer'}
                              {attempt.latencyMs != null && ` · ${attempt.latencyMs} ms`} ·{' '}
                              {new Date(attempt.createdAt).toLocaleString()}
                            </p>
                            {attempt.response && (
                              <pre className="mt-1 font-mono text-xs break-all whitespace-pre-wrap">
                                {attempt.response}
                              </pre>
                            )}
                          </li>
                        ))}
                      </ol>
                    </details>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
