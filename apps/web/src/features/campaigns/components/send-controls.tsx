import * as React from 'react';
import { Ban, Pause, Play } from 'lucide-react';
import type { CampaignListItem } from '@sendwell/contract/campaigns';

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
import { Spinner } from '@/components/ui/spinner';
import { formatNumber } from '@/lib/format';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useSendControl, type SendControl } from '../api/use-campaigns';
import { campaignActions } from '../campaign-stats';

type Controlled = Pick<CampaignListItem, 'id' | 'name' | 'status' | 'totalSent' | 'totalRecipients'>;

const DONE: Record<SendControl, { title: string; body: (name: string) => string }> = {
  pause: {
    title: 'Sending paused',
    body: (name) => `“${name}” stops within seconds. Resume it to send to the recipients left.`,
  },
  resume: { title: 'Sending resumed', body: (name) => `“${name}” goes on with the recipients it has not reached.` },
  cancel: { title: 'Campaign canceled', body: (name) => `“${name}” will not go to anyone it has not reached yet.` },
};
const FAILED: Record<SendControl, string> = {
  pause: 'Could not pause the campaign.',
  resume: 'Could not resume the campaign.',
  cancel: 'Could not cancel the campaign.',
};

/**
 * Pause, resume and cancel with their toasts; `confirmCancel` is the campaign whose cancel awaits
 * confirmation (CancelCampaignDialog), so a cancel is never one click away.
 */
export function useSendControls() {
  const control = useSendControl();
  const [confirmCancel, setConfirmCancel] = React.useState<Controlled | null>(null);
  const run = (campaign: Controlled, action: SendControl, onDone?: () => void) =>
    control.mutate(
      { id: campaign.id, action },
      {
        onSuccess: () => toast({ title: DONE[action].title, description: DONE[action].body(campaign.name) }),
        // A 409 says why (it finished or was paused meanwhile); the list and report then refresh.
        onError: (error) => toastError(error, FAILED[action], { serverMessage: 'client-error' }),
        onSettled: onDone,
      },
    );
  return {
    pending: control.isPending ? (control.variables ?? null) : null,
    pause: (campaign: Controlled) => run(campaign, 'pause'),
    resume: (campaign: Controlled) => run(campaign, 'resume'),
    requestCancel: setConfirmCancel,
    confirmCancel,
    cancel: () => confirmCancel && run(confirmCancel, 'cancel', () => setConfirmCancel(null)),
    closeCancel: () => !control.isPending && setConfirmCancel(null),
  };
}
export type SendControls = ReturnType<typeof useSendControls>;

/** Asks before canceling: what has gone stays gone, the rest never goes, and it cannot be undone. */
export function CancelCampaignDialog({ controls }: { controls: SendControls }) {
  const campaign = controls.confirmCancel;
  const [shown, setShown] = React.useState(campaign);
  // The last campaign stays shown while the dialog animates closed.
  if (campaign !== null && campaign !== shown) setShown(campaign);
  const pending = controls.pending?.action === 'cancel';
  const scheduled = shown?.status === 'scheduled';
  return (
    <AlertDialog open={campaign !== null} onOpenChange={(open) => !open && controls.closeCancel()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Cancel this campaign?</AlertDialogTitle>
          <AlertDialogDescription>
            {scheduled
              ? `“${shown?.name ?? ''}” will not go out at its scheduled time.`
              : `“${shown?.name ?? ''}” stops within seconds: ${formatNumber(shown?.totalSent ?? 0)} of ${formatNumber(shown?.totalRecipients ?? 0)} recipients have it, and the rest will not get it.`}{' '}
            A canceled campaign cannot be resumed; duplicate it to send it again.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>{scheduled ? 'Keep it scheduled' : 'Keep sending'}</AlertDialogCancel>
          <Button variant="destructive" onClick={controls.cancel} disabled={pending}>
            {pending && <Spinner className="size-4" label="Canceling" />}
            Cancel campaign
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** The report's Pause / Resume and Cancel buttons for a campaign still going out (or waiting to). */
export function SendControlButtons({ campaign, controls }: { campaign: Controlled; controls: SendControls }) {
  const actions = campaignActions(campaign.status);
  const busy = controls.pending?.id === campaign.id;
  if (!actions.pause && !actions.resume && !actions.cancel) return null;
  return (
    <div className="flex flex-wrap gap-2">
      {actions.pause && (
        <Button variant="outline" size="sm" onClick={() => controls.pause(campaign)} disabled={busy}>
          {controls.pending?.action === 'pause' && busy ? (
            <Spinner className="size-4" label="Pausing" />
          ) : (
            <Pause aria-hidden="true" />
          )}
          Pause sending
        </Button>
      )}
      {actions.resume && (
        <Button size="sm" onClick={() => controls.resume(campaign)} disabled={busy}>
          {controls.pending?.action === 'resume' && busy ? (
            <Spinner className="size-4" label="Resuming" />
          ) : (
            <Play aria-hidden="true" />
          )}
          Resume sending
        </Button>
      )}
      {actions.cancel && (
        <Button
          variant="outline"
          size="sm"
          className="text-destructive hover:text-destructive"
          onClick={() => controls.requestCancel(campaign)}
          disabled={busy}
        >
          <Ban aria-hidden="true" />
          Cancel campaign
        </Button>
      )}
    </div>
  );
}
