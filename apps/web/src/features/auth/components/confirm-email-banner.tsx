import { MailWarning } from 'lucide-react';
import { CONFIRM_EMAIL_BANNER } from '@sendwell/contract/auth';

import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useResendConfirmation } from '../api/use-auth-mutations';

/**
 * Shown above every signed-in page until the account's own address is confirmed: the account can
 * build everything but send nothing. Resend link mails another confirmation link (one a minute).
 */
export function ConfirmEmailBanner({ email }: { email: string }) {
  const resend = useResendConfirmation();
  const onResend = () =>
    resend.mutate(undefined, {
      onSuccess: () =>
        toast({ title: 'Confirmation Link Sent', description: `Check ${email} for the link (and the spam folder).` }),
      onError: (error) =>
        toastError(error, 'Failed to send the link. Please try again.', { serverMessage: 'client-error' }),
    });

  return (
    <div
      role="status"
      className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 sm:flex-row sm:items-center sm:justify-between dark:border-amber-900 dark:bg-amber-950/50 dark:text-amber-100"
    >
      <p className="flex items-start gap-2">
        <MailWarning className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>
          <span className="font-medium">{CONFIRM_EMAIL_BANNER}</span> — we sent a link to {email}. You can build
          campaigns meanwhile; nothing is sent until you follow it.
        </span>
      </p>
      <Button size="sm" variant="outline" className="shrink-0" onClick={onResend} disabled={resend.isPending}>
        {resend.isPending && <Spinner className="size-4" label="Sending the link" />}
        Resend link
      </Button>
    </div>
  );
}
