import { Link, useLocation } from 'wouter';
import { ArrowLeft, Power, Send, Trash2 } from 'lucide-react';

import { PageHeader } from '@/components/page-header';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import {
  useDeleteWebhookEndpoint,
  useSendTestWebhook,
  useUpdateWebhookEndpoint,
  useWebhookEndpoint,
} from '../api/use-webhooks';
import { DeliveryLog } from './delivery-log';
import { eventsText } from './endpoint-list';
import { EndpointSecretCard } from './endpoint-secret-card';
import { EndpointStatusBadge } from './endpoint-status-badge';

/** One endpoint: what it receives, test, enable/disable, delete, its secret and its delivery log. */
export function EndpointDetail({ id }: { id: number }) {
  const [, navigate] = useLocation();
  const endpoint = useWebhookEndpoint(id);
  const update = useUpdateWebhookEndpoint(id);
  const remove = useDeleteWebhookEndpoint(id);
  const sendTest = useSendTestWebhook(id);

  const back = (
    <Button variant="ghost" size="sm" className="-ml-2" asChild>
      <Link href="/webhooks">
        <ArrowLeft aria-hidden="true" />
        Webhooks
      </Link>
    </Button>
  );
  if (endpoint.isPending) return <Skeleton className="h-40 w-full" />;
  if (endpoint.isError)
    return (
      <div className="space-y-4">
        {back}
        <p role="alert">This endpoint does not exist, or it is not yours.</p>
      </div>
    );
  const data = endpoint.data;
  const enabled = data.status === 'enabled';

  const run = async (action: () => Promise<unknown>, done: string, failed: string) => {
    try {
      await action();
      toast({ title: done });
    } catch (err) {
      toastError(err, failed);
    }
  };

  return (
    <div className="space-y-6">
      {back}
      <PageHeader
        title="Webhook endpoint"
        description={data.description || 'No description'}
        actions={
          <div className="flex flex-wrap gap-2">
            <Button
              variant="outline"
              disabled={!enabled || sendTest.isPending}
              onClick={() => void run(() => sendTest.mutateAsync(), 'Test event sent', 'Could not send a test event')}
            >
              <Send aria-hidden="true" />
              Send test event
            </Button>
            <Button
              variant="outline"
              disabled={update.isPending}
              onClick={() =>
                void run(
                  () => update.mutateAsync({ enabled: !enabled }),
                  enabled ? 'Endpoint disabled' : 'Endpoint enabled',
                  'Could not change the endpoint',
                )
              }
            >
              <Power aria-hidden="true" />
              {enabled ? 'Disable' : 'Enable'}
            </Button>
            <AlertDialog>
              <AlertDialogTrigger asChild>
                <Button variant="outline">
                  <Trash2 aria-hidden="true" />
                  Delete
                </Button>
              </AlertDialogTrigger>
              <AlertDialogContent>
                <AlertDialogHeader>
                  <AlertDialogTitle>Delete this endpoint?</AlertDialogTitle>
                  <AlertDialogDescription>
                    No more events go to {data.url}, and its delivery log is deleted with it.
                  </AlertDialogDescription>
                </AlertDialogHeader>
                <AlertDialogFooter>
                  <AlertDialogCancel>Cancel</AlertDialogCancel>
                  <AlertDialogAction
                    onClick={() =>
                      void run(
                        async () => {
                          await remove.mutateAsync();
                          navigate('/webhooks');
                        },
                        'Endpoint deleted',
                        'Could not delete the endpoint',
                      )
                    }
                  >
                    Delete endpoint
                  </AlertDialogAction>
                </AlertDialogFooter>
              </AlertDialogContent>
            </AlertDialog>
          </div>
        }
      />
      <dl className="grid gap-3 text-sm sm:grid-cols-[10rem_1fr]">
        <dt className="text-muted-foreground">URL</dt>
        <dd className="font-mono break-all">{data.url}</dd>
        <dt className="text-muted-foreground">Status</dt>
        <dd className="flex flex-wrap items-center gap-2">
          <EndpointStatusBadge endpoint={data} />
          {data.disabledReason && <span>{data.disabledReason}</span>}
          {enabled && data.failingSince && (
            <span>Every delivery has failed since {new Date(data.failingSince).toLocaleString()}</span>
          )}
        </dd>
        <dt className="text-muted-foreground">Events</dt>
        <dd className="font-mono break-all">
          {data.eventTypes.length === 0 ? eventsText(data) : data.eventTypes.join(', ')}
        </dd>
      </dl>
      <EndpointSecretCard endpointId={id} previousSecretExpiresAt={data.previousSecretExpiresAt} />
      <DeliveryLog endpointId={id} enabled={enabled} />
    </div>
  );
}
