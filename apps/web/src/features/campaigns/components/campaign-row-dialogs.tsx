import * as React from 'react';
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
import { useDeleteCampaign, useRecipientCount, useSendCampaign } from '../api/use-campaigns';
import { SEND_FAILED } from '../campaign-toasts';
import { useSavedCampaignChecks } from './pre-send-summary';
import { SendConfirmDialog } from './send-confirm-dialog';

/** Send from the list (spec §4): confirms with the recipient count, then POST /api/campaigns/:id/send. */
export function ListSendDialog({
  campaign,
  postalAddress,
  onClose,
}: {
  campaign: CampaignListItem | null;
  /** The account's postal address, for the pre-send checklist. */
  postalAddress: string | undefined;
  onClose: () => void;
}) {
  const shown = useLastCampaign(campaign);
  const recipients = useRecipientCount(campaign?.id ?? null, campaign !== null);
  const send = useSendCampaign();
  const checks = useSavedCampaignChecks(campaign?.id ?? null, postalAddress);

  const confirm = () => {
    if (!campaign) return;
    send.mutate(campaign.id, {
      onSuccess: (sent) => {
        toast({
          title: 'Campaign Sending',
          description: `“${sent.name}” is on its way to ${formatNumber(sent.totalRecipients)} ${sent.totalRecipients === 1 ? 'recipient' : 'recipients'}.`,
        });
        onClose();
      },
      onError: (error) => {
        toastError(error, SEND_FAILED, { serverMessage: 'client-error' });
        onClose();
      },
    });
  };

  return (
    <SendConfirmDialog
      open={campaign !== null}
      onOpenChange={(open) => !open && onClose()}
      campaignName={shown?.name ?? ''}
      count={recipients.data?.count ?? null}
      countError={recipients.isError}
      pending={send.isPending}
      onConfirm={confirm}
      checks={checks}
    />
  );
}

/** Delete a draft, after a confirmation. */
export function DeleteCampaignDialog({
  campaign,
  onClose,
}: {
  campaign: CampaignListItem | null;
  onClose: () => void;
}) {
  const shown = useLastCampaign(campaign);
  const remove = useDeleteCampaign();
  const confirm = () => {
    if (!campaign) return;
    remove.mutate(campaign.id, {
      onSuccess: () => {
        toast({ title: 'Campaign Deleted', description: `“${campaign.name}” was deleted.` });
        onClose();
      },
      onError: (error) => {
        toastError(error, 'Failed to delete campaign. Please try again.', { serverMessage: 'client-error' });
        onClose();
      },
    });
  };
  return (
    <AlertDialog open={campaign !== null} onOpenChange={(open) => !open && !remove.isPending && onClose()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete this draft?</AlertDialogTitle>
          <AlertDialogDescription>
            “{shown?.name}” and its design will be deleted. This cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={remove.isPending}>Cancel</AlertDialogCancel>
          <Button variant="destructive" onClick={confirm} disabled={remove.isPending}>
            {remove.isPending && <Spinner className="size-4" label="Deleting" />}
            Delete
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** The last campaign a dialog showed, so its text stays while the dialog animates closed. */
function useLastCampaign(campaign: CampaignListItem | null): CampaignListItem | null {
  const [last, setLast] = React.useState(campaign);
  if (campaign !== null && campaign !== last) setLast(campaign);
  return campaign ?? last;
}
