import * as React from 'react';
import { Check, Copy, Eye, RefreshCw } from 'lucide-react';

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
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toastError } from '@/lib/toast-error';
import { useCopyToClipboard } from '@/lib/use-copy-to-clipboard';
import { toast } from '@/lib/use-toast';
import { useRevealWebhookSecret, useRotateWebhookSecret } from '../api/use-webhooks';

/** The signing secret: hidden until revealed, copy, and rotate (the old one signs beside the new for 24 h). */
export function EndpointSecretCard({
  endpointId,
  previousSecretExpiresAt,
}: {
  endpointId: number;
  previousSecretExpiresAt: string | null;
}) {
  const [secret, setSecret] = React.useState<string | null>(null);
  const reveal = useRevealWebhookSecret(endpointId);
  const rotate = useRotateWebhookSecret(endpointId);
  const { copied, copy } = useCopyToClipboard();

  const onReveal = async () => {
    try {
      setSecret((await reveal.mutateAsync()).secret);
    } catch (err) {
      toastError(err, 'Could not reveal the secret');
    }
  };
  const onRotate = async () => {
    try {
      setSecret((await rotate.mutateAsync()).secret);
      toast({ title: 'Secret rotated', description: 'The previous secret keeps signing for 24 hours.' });
    } catch (err) {
      toastError(err, 'Could not rotate the secret');
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Signing secret</CardTitle>
        <CardDescription>
          Verify each request&apos;s <code>webhook-signature</code> with this secret (any Standard Webhooks library does
          it).
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <div
          className="bg-muted flex min-h-10 items-center rounded-md px-3 py-2 font-mono text-sm break-all"
          aria-live="polite"
        >
          {secret ?? 'whsec_••••••••••••••••••••••••••••••••'}
        </div>
        {previousSecretExpiresAt && new Date(previousSecretExpiresAt) > new Date() && (
          <p className="text-muted-foreground text-sm">
            The previous secret also signs until {new Date(previousSecretExpiresAt).toLocaleString()}.
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          {secret === null ? (
            <Button variant="outline" onClick={onReveal} disabled={reveal.isPending}>
              <Eye aria-hidden="true" />
              Reveal secret
            </Button>
          ) : (
            <Button variant="outline" onClick={() => void copy(secret)}>
              {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
              {copied ? 'Copied' : 'Copy secret'}
            </Button>
          )}
          <AlertDialog>
            <AlertDialogTrigger asChild>
              <Button variant="outline" disabled={rotate.isPending}>
                <RefreshCw aria-hidden="true" />
                Rotate secret
              </Button>
            </AlertDialogTrigger>
            <AlertDialogContent>
              <AlertDialogHeader>
                <AlertDialogTitle>Rotate the signing secret?</AlertDialogTitle>
                <AlertDialogDescription>
                  A new secret signs from now on. For 24 hours each request carries a signature from the old secret too,
                  so your receiver keeps working while you switch it over.
                </AlertDialogDescription>
              </AlertDialogHeader>
              <AlertDialogFooter>
                <AlertDialogCancel>Cancel</AlertDialogCancel>
                <AlertDialogAction onClick={() => void onRotate()}>Rotate secret</AlertDialogAction>
              </AlertDialogFooter>
            </AlertDialogContent>
          </AlertDialog>
        </div>
      </CardContent>
    </Card>
  );
}
