import { Send } from 'lucide-react';

import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { formatNumber } from '@/lib/format';
import { blockingChecks, type PreSendCheck } from '../editor/pre-send-checks';
import { PreSendSummary } from './pre-send-summary';

/** 'Send to 1 recipient?' / 'Send to 1,240 recipients?' */
function sendQuestion(count: number): string {
  return `Send to ${formatNumber(count)} ${count === 1 ? 'recipient' : 'recipients'}?`;
}

/**
 * The confirmation before a campaign goes out, naming how many recipients it will reach. With no
 * recipients, sending is not offered (the server would refuse it) and the dialog says why.
 */
export function SendConfirmDialog({
  open,
  onOpenChange,
  campaignName,
  count,
  countError,
  pending,
  onConfirm,
  checks,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  campaignName: string;
  /** null while the count loads. */
  count: number | null;
  countError?: boolean;
  pending: boolean;
  onConfirm: () => void;
  /** The pre-send checklist, shown before the last click; a blocked line disables Send Now. */
  checks?: readonly PreSendCheck[];
}) {
  const noRecipients = count === 0;
  const blocked = checks ? blockingChecks(checks).length > 0 : false;
  return (
    <AlertDialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <AlertDialogContent className="flex max-h-[90dvh] flex-col">
        <AlertDialogHeader>
          <AlertDialogTitle>
            {count === null
              ? countError
                ? 'Send this campaign?'
                : 'Counting recipients…'
              : noRecipients
                ? 'No recipients yet'
                : sendQuestion(count)}
          </AlertDialogTitle>
          <AlertDialogDescription asChild>
            <div className="space-y-2">
              {count === null && !countError ? (
                <Skeleton className="h-4 w-3/4" />
              ) : noRecipients ? (
                <p>
                  “{campaignName}” has no recipients: choose at least one list or segment with active contacts, then
                  send it.
                </p>
              ) : (
                <p>
                  “{campaignName}” will be sent now
                  {count === null ? '' : ` to ${formatNumber(count)} active ${count === 1 ? 'contact' : 'contacts'}`}.
                  Sent emails cannot be recalled.
                </p>
              )}
            </div>
          </AlertDialogDescription>
        </AlertDialogHeader>
        {/* The checks scroll on their own, so Cancel and Send Now stay on screen on a phone. */}
        {checks && (
          <div
            className="-mx-1 min-h-0 flex-1 overflow-y-auto px-1"
            role="region"
            aria-label="Checks before sending"
            tabIndex={0}
          >
            <PreSendSummary checks={checks} />
          </div>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>{noRecipients ? 'Close' : 'Cancel'}</AlertDialogCancel>
          {!noRecipients && (
            <Button onClick={onConfirm} disabled={pending || blocked || (count === null && !countError)}>
              {pending ? <Spinner className="size-4" /> : <Send aria-hidden="true" />}
              {pending ? 'Sending...' : 'Send Now'}
            </Button>
          )}
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
