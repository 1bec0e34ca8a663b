import * as React from 'react';
import { useLocation } from 'wouter';
import { ListPlus, Send, Trash2 } from 'lucide-react';
import type { ContactList } from '@sendwell/contract/contacts';

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
import { useBulkDeleteContacts, type BulkTarget } from '../api/use-contacts';
import { pluralContacts, selectionListName } from '../contact-rules';
import { AddToListDialog } from './add-to-list-dialog';

/**
 * The bulk actions on the selected contacts (shown while any are selected): Add to List, Send
 * Campaign (the campaign editor with the selection as a recipient; its list is made on save) and Delete (confirmed).
 * Once the whole page is selected it offers "Select all N matching": the actions then run on the
 * server over every contact the filters match (issue 34).
 */
export function ContactsBulkActions({
  target,
  exact,
  total,
  selectAllMatching,
  lists,
  onClearSelection,
}: {
  target: BulkTarget | null;
  /** False when the server stopped counting: `total` is a lower bound. */
  exact: boolean;
  total: number;
  /** Selects every matching contact; null when not offered (page not all selected, or nothing more matches). */
  selectAllMatching: (() => void) | null;
  lists: readonly ContactList[];
  onClearSelection: () => void;
}) {
  const [, navigate] = useLocation();
  const [addToListOpen, setAddToListOpen] = React.useState(false);
  const [confirmDelete, setConfirmDelete] = React.useState(false);
  const bulkDelete = useBulkDeleteContacts();
  const matchingAll = target !== null && 'matching' in target;
  const count = target?.count ?? 0;
  const countText = matchingAll && !exact ? `${count.toLocaleString('en-US')}+ contacts` : pluralContacts(count);
  const totalText = exact ? total.toLocaleString('en-US') : `${total.toLocaleString('en-US')}+`;

  const onBulkDelete = async () => {
    if (!target) return;
    try {
      const { affected } = await bulkDelete.mutateAsync(target);
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
    target &&
    'contactIds' in target &&
    navigate('/campaigns?new=1', {
      state: { selection: { contactIds: target.contactIds, listName: selectionListName(new Date()) } },
    });

  return (
    <>
      {target && (
        <div
          role="region"
          aria-label="Bulk actions"
          className="bg-muted/60 flex flex-col gap-2 rounded-lg border p-2 sm:flex-row sm:items-center sm:justify-between"
        >
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1 px-2 text-sm" aria-live="polite">
            <p className="font-medium" data-testid="bulk-selection-count">
              {matchingAll ? `All ${countText} matching selected` : `${countText} selected`}
            </p>
            {selectAllMatching && (
              <Button size="sm" variant="link" className="h-auto p-0" onClick={selectAllMatching}>
                Select all {totalText} matching
              </Button>
            )}
            {matchingAll && (
              // Full foreground: muted text on this muted strip fell under 4.5:1 (axe, issue 34 walk).
              <p className="text-xs">Send to them through a list: Add to List, then choose it in the campaign.</p>
            )}
          </div>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="outline" onClick={() => setAddToListOpen(true)}>
              <ListPlus aria-hidden="true" />
              Add to List
            </Button>
            {!matchingAll && (
              <Button size="sm" variant="outline" onClick={onSendCampaign}>
                <Send aria-hidden="true" />
                Send Campaign
              </Button>
            )}
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

      {target && (
        <AddToListDialog
          open={addToListOpen}
          onOpenChange={setAddToListOpen}
          target={target}
          lists={lists}
          onAdded={onClearSelection}
        />
      )}

      <AlertDialog open={confirmDelete} onOpenChange={setConfirmDelete}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete {countText}?</AlertDialogTitle>
            <AlertDialogDescription>
              {matchingAll
                ? 'Every contact matching your search and filters will be removed from your contacts and from every list, not only those on this page. This cannot be undone.'
                : 'The selected contacts will be removed from your contacts and from every list. This cannot be undone.'}
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
              {bulkDelete.isPending ? 'Deleting...' : `Delete ${countText}`}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}
