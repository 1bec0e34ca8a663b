import * as React from 'react';
import { ALIAS_DELETE_FAILED, ALIAS_DELETE_FAILED_TITLE, type EmailAlias } from '@sendwell/contract/aliases';

import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useDeleteAlias, useResendAliasConfirmation } from '../api/use-aliases';

/** Delete (after its confirmation dialog) and Resend confirmation of an alias, with their toasts (§8). */
export function useAliasActions({ onDeleted }: { onDeleted?: (alias: EmailAlias) => void } = {}) {
  const remove = useDeleteAlias();
  const resend = useResendAliasConfirmation();
  const [deleting, setDeleting] = React.useState<EmailAlias | null>(null);

  const confirmDelete = () => {
    const alias = deleting;
    if (!alias) return;
    remove.mutate(alias.id, {
      onSuccess: () => {
        setDeleting(null);
        onDeleted?.(alias);
        toast({ title: 'Alias Deleted', description: `${alias.address} no longer receives mail.` });
      },
      onError: (error) => {
        setDeleting(null);
        toastError(error, ALIAS_DELETE_FAILED, { title: ALIAS_DELETE_FAILED_TITLE, serverMessage: 'never' });
      },
    });
  };

  const resendConfirmation = (alias: EmailAlias) =>
    resend.mutate(alias.id, {
      onSuccess: (answer) =>
        toast(
          answer.sent
            ? { title: 'Confirmation Link Sent', description: `We emailed a new link to ${answer.email}.` }
            : { title: 'Already Confirmed', description: `${answer.email} is already confirmed.` },
        ),
      onError: (error) =>
        toastError(error, 'Failed to send the link. Please try again.', { serverMessage: 'client-error' }),
    });

  return {
    deleting,
    askDelete: setDeleting,
    cancelDelete: () => setDeleting(null),
    confirmDelete,
    deletePending: remove.isPending,
    resendConfirmation,
    resendingId: resend.isPending ? (resend.variables ?? null) : null,
  };
}
