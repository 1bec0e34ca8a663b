import { useState } from 'react';
import { Inbox, RefreshCw } from 'lucide-react';
import { INBOUND_WEBHOOK_PATH } from '@sendwell/contract/domains';
import { INBOUND_TOKEN_HEADER } from '@sendwell/contract/inbound';

import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { publicUrl } from '@/lib/public-url';
import { toastError } from '@/lib/toast-error';
import { useInboundAddress, useRegenerateInboundAddress } from '../api/use-inbound-address';
import { CopyButton } from './copy-button';

/**
 * The inbound webhook address (spec §2: this origin + /api/webhook/email), with the account's own
 * token: what is posted with it only touches this account's mail. Regenerating it retires the old one.
 */
export function InboundWebhookCard() {
  const address = useInboundAddress();
  const regenerate = useRegenerateInboundAddress();
  const [confirming, setConfirming] = useState(false);
  const token = address.data?.token;
  const webhook = token ? `${publicUrl()}${INBOUND_WEBHOOK_PATH}?token=${token}` : null;

  const renew = async () => {
    try {
      await regenerate.mutateAsync();
      setConfirming(false);
    } catch (error) {
      toastError(error, 'Could not regenerate the webhook address. Please try again.');
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="flex items-center gap-2">
            <Inbox className="size-4" aria-hidden="true" />
            Inbound webhook
          </h2>
        </CardTitle>
        <CardDescription>
          Your inbound mail service posts each received message here; Sendwell forwards it by your alias rules.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <div className="flex items-center gap-2">
          {webhook ? (
            <code
              className="bg-muted min-w-0 flex-1 rounded-md px-3 py-2 font-mono text-sm break-all"
              data-testid="inbound-webhook"
            >
              {webhook}
            </code>
          ) : (
            <Skeleton className="h-9 min-w-0 flex-1" />
          )}
          <CopyButton value={webhook ?? ''} label="Copy webhook address" className="size-9 shrink-0" />
        </div>
        <p className="text-muted-foreground text-sm">
          The address is your account&apos;s own: keep it secret. A service that can send headers may use{' '}
          <code className="font-mono">{INBOUND_WEBHOOK_PATH}</code> and send the token as{' '}
          <code className="font-mono">{INBOUND_TOKEN_HEADER}</code> instead.
        </p>
        <Button type="button" variant="outline" size="sm" disabled={!webhook} onClick={() => setConfirming(true)}>
          <RefreshCw aria-hidden="true" />
          Regenerate address
        </Button>
      </CardContent>
      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Regenerate the webhook address?</AlertDialogTitle>
            <AlertDialogDescription>
              The current address stops working at once: give your inbound mail service the new one.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              disabled={regenerate.isPending}
              onClick={(event) => {
                // Keep the confirmation open until the call answers.
                event.preventDefault();
                void renew();
              }}
            >
              {regenerate.isPending ? 'Regenerating...' : 'Regenerate'}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}
