import { AtSign, CircleCheck, CircleDashed, Send, Trash2 } from 'lucide-react';
import type { SenderAddressStatus } from '@sendwell/contract/sender-addresses';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useDeleteSenderAddress, useResendSenderConfirmation, useSenderOverview } from '../api/use-sender-addresses';
import { AddSenderAddressForm } from './add-sender-address-form';

const STATUS_STYLES: Record<SenderAddressStatus, string> = {
  confirmed: 'border-transparent bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  pending: 'border-transparent bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
};

function StatusBadge({ status }: { status: SenderAddressStatus }) {
  return (
    <Badge className={STATUS_STYLES[status]} data-status={status}>
      {status === 'confirmed' ? <CircleCheck aria-hidden="true" /> : <CircleDashed aria-hidden="true" />}
      {status === 'confirmed' ? 'Confirmed' : 'Awaiting confirmation'}
    </Badge>
  );
}

/**
 * Domain Settings → Sender Addresses: what the account may send from. Any address on a verified
 * domain; its own address once confirmed; single addresses confirmed by the link mailed to each
 * (for users without a domain yet), which can be added, sent their link again, or removed.
 */
export function SenderAddressesTab() {
  const overview = useSenderOverview(true);
  const resend = useResendSenderConfirmation();
  const remove = useDeleteSenderAddress();

  if (overview.isLoading) {
    return (
      <Card aria-busy="true" aria-label="Loading sender addresses">
        <CardContent className="space-y-3 py-6">
          <Skeleton className="h-4 w-64" />
          <Skeleton className="h-4 w-48" />
        </CardContent>
      </Card>
    );
  }
  if (overview.isError || !overview.data) {
    return (
      <p className="text-destructive text-sm" role="alert">
        Could not load your sender addresses. Please refresh the page.
      </p>
    );
  }
  const { accountEmail, verifiedDomains, addresses } = overview.data;

  const onResend = (id: number, email: string) =>
    resend.mutate(id, {
      onSuccess: () => toast({ title: 'Confirmation Link Sent', description: `We emailed a new link to ${email}.` }),
      onError: (error) =>
        toastError(error, 'Failed to send the link. Please try again.', { serverMessage: 'client-error' }),
    });
  const onRemove = (id: number, email: string) =>
    remove.mutate(id, {
      onSuccess: () => toast({ title: 'Sender Address Removed', description: `${email} is no longer a sender.` }),
      onError: (error) => toastError(error, 'Failed to remove the address. Please try again.'),
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Sender Addresses</CardTitle>
        <CardDescription>
          Campaigns can come from any address on a verified domain, or from a single address you confirm by the link we
          email to it. Mail from a single address is not signed by your own domain, so verify a domain for the best
          delivery.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <div className="space-y-1 text-sm">
          <h3 className="font-medium">Verified domains</h3>
          {verifiedDomains.length > 0 ? (
            <p>
              Any address at{' '}
              {verifiedDomains.map((domain, i) => (
                <span key={domain}>
                  {i > 0 && ', '}
                  <span className="font-medium">{domain}</span>
                </span>
              ))}{' '}
              (and their subdomains).
            </p>
          ) : (
            <p className="text-muted-foreground">
              None yet: add a domain on the Domains tab and publish its DNS records.
            </p>
          )}
        </div>

        <ul className="divide-y rounded-lg border" aria-label="Your sender addresses">
          <li className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center">
            <div className="flex min-w-0 flex-1 items-center gap-3">
              <AtSign className="text-muted-foreground size-4 shrink-0" aria-hidden="true" />
              <span className="truncate font-medium">{accountEmail.email}</span>
              <span className="text-muted-foreground text-xs">Your sign-up address</span>
            </div>
            <StatusBadge status={accountEmail.confirmed ? 'confirmed' : 'pending'} />
          </li>
          {addresses.map((address) => (
            <li
              key={address.id}
              className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center"
              data-address={address.email}
            >
              <div className="flex min-w-0 flex-1 items-center gap-3">
                <AtSign className="text-muted-foreground size-4 shrink-0" aria-hidden="true" />
                <span className="truncate font-medium">{address.email}</span>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <StatusBadge status={address.status} />
                {address.status === 'pending' && (
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => onResend(address.id, address.email)}
                    disabled={resend.isPending}
                    aria-label={`Resend link to ${address.email}`}
                  >
                    <Send aria-hidden="true" />
                    Resend link
                  </Button>
                )}
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => onRemove(address.id, address.email)}
                  disabled={remove.isPending}
                  aria-label={`Remove ${address.email}`}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
            </li>
          ))}
        </ul>

        <AddSenderAddressForm />
      </CardContent>
    </Card>
  );
}
