import * as React from 'react';
import { useLocation } from 'wouter';
import { ListPlus, Send, Trash2 } from 'lucide-react';
import type { Contact, ContactList } from '@sendwell/contract/contacts';

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
import { Button, buttonVariants } from '@/components/ui/button';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useBulkDeleteContacts } from '../api/use-contacts';
import { pluralContacts, selectionListName } from '../contact-rules';
import { AddToListDialog } from './add-to-list-dialog';

/**
 * The bulk actions on the selected contacts (shown while any are selected): Add to List, Send
 * Campaign (the campaign editor with the selection as a recipient; its list is made on save) and Delete (confirmed).
 */
export function ContactsBulkActions({
  selected,
  lists,
  onClearSelection,
}: {
  selected: ReadonlyMap<number, Contact>;
  lists: readonly ContactList[];
  onClearSelection: () => void;
}) {
  const [, navigate] = useLocation();
  const [addToListOpen, setAddToListOpen] = React.useState(false);
  const [confirmDelete, setConfirmDelete] = React.useState(false);
  const bulkDelete = useBulkDeleteContacts();
  const selectedIds = [...selected.keys()];

  const onBulkDelete = async () => {
    try {
      const { affected } = await bulkDelete.mutateAsync(selectedIds);
      toast({ title: 'Contacts deleted', description: `${pluralContacts(affected)} deleted.` });
      setConfirmDelete(false);
      onClearSelection();
    } catch (error) {
      toastError(error, 'Failed to delete contacts');
    }
  };

  // The editor offers the selection as a recipient and makes its list only when the campaign is
  // saved, so a Cancel leaves no "Selected contacts – …" list behind (first-hour finding 9).
  const onSendCampaign = () =>
    navigate('/campaigns?new=1', {
      state: { selection: { contactIds: selectedIds, listName: selectionListName(new Date()) } },
    });

  return (
    <>
      {selected.size > 0 && (
        <div
          role="region"
          aria-label="Bulk actions"
          className="bg-muted/60 flex flex-col gap-2 rounded-lg border p-2 sm:flex-row sm:items-center sm:justify-between"
        >
          <p className="px-2 text-sm font-medium" aria-live="polite">
            {pluralContacts(selected.size)} selected
          </p>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="outline" onClick={() => setAddToListOpen(true)}>
              <ListPlus aria-hidden="true" />
              Add to List
            </Button>
            <Button size="sm" variant="outline" onClick={onSendCampaign}>
              <Send aria-hidden="true" />
              Send Campaign
            </Button>
            <Button size="sm" variant="destructive" onClick={() => setConfirmDelete(true)}>
              <Trash2 aria-hidden="true" />
              Delete
            </Button>
            <Button size="sm" variant="ghost" onClick={onClearSelection}>
              Clear selection
            </Button>
          </div>
        </div>
      )}

      <AddToListDialog
        open={addToListOpen}
        onOpenChange={setAddToListOpen}
        contactIds={selectedIds}
        lists={lists}
        onAdded={onClearSelection}
      />

      <AlertDialog open={confirmDelete} onOpenChange={setConfirmDelete}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete {pluralContacts(selected.size)}?</AlertDialogTitle>
            <AlertDialogDescription>
              The selected contacts will be removed from your contacts and from every list. This cannot be undone.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              className={buttonVariants({ variant: 'destructive' })}
              disabled={bulkDelete.isPending}
              onClick={(event) => {
                event.preventDefault();
                void onBulkDelete();
              }}
            >
              {bulkDelete.isPending ? 'Deleting...' : `Delete ${pluralContacts(selected.size)}`}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}
