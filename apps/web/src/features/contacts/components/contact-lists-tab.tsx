import * as React from 'react';
import { Download, Eye, List, Pencil, Plus, Trash2 } from 'lucide-react';
import type { ContactList } from '@sendwell/contract/contacts';

import { EmptyState } from '@/components/empty-state';
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
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toastError } from '@/lib/toast-error';
import { formatDate, formatNumber } from '@/lib/format';
import { toast } from '@/lib/use-toast';
import { exportCsvHref, useDeleteContactList } from '../api/use-contacts';
import { ListFormDialog } from './list-form-dialog';

/** Contact Lists: a card per list with View Contacts, Edit, Export and Delete; New List. */
export function ContactListsTab({
  lists,
  isLoading,
  onViewList,
}: {
  lists: readonly ContactList[] | undefined;
  isLoading: boolean;
  onViewList: (list: ContactList) => void;
}) {
  const [formOpen, setFormOpen] = React.useState(false);
  const [editing, setEditing] = React.useState<ContactList | undefined>(undefined);
  const [deleting, setDeleting] = React.useState<ContactList | null>(null);
  const deleteList = useDeleteContactList();

  const openNew = () => {
    setEditing(undefined);
    setFormOpen(true);
  };

  const onDelete = async () => {
    if (!deleting) return;
    try {
      await deleteList.mutateAsync(deleting.id);
      toast({ title: 'List deleted', description: `“${deleting.name}” was deleted. Its contacts were kept.` });
      setDeleting(null);
    } catch (error) {
      toastError(error, 'Failed to delete contact list');
    }
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Contact Lists</h2>
        <Button onClick={openNew}>
          <Plus aria-hidden="true" />
          New List
        </Button>
      </div>

      {isLoading || !lists ? (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-busy="true" aria-label="Loading lists">
          {Array.from({ length: 3 }, (_, i) => (
            <Card key={i}>
              <CardContent className="space-y-3">
                <Skeleton className="h-5 w-1/2" />
                <Skeleton className="h-4 w-3/4" />
                <Skeleton className="h-8 w-24" />
              </CardContent>
            </Card>
          ))}
        </div>
      ) : lists.length === 0 ? (
        <EmptyState
          icon={List}
          title="No lists yet"
          action={
            <Button onClick={openNew}>
              <Plus aria-hidden="true" />
              New List
            </Button>
          }
        >
          Lists group contacts for your campaigns. Create one here, or while importing a CSV file.
        </EmptyState>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {lists.map((list) => (
            <li key={list.id}>
              <Card className="h-full gap-4">
                <CardHeader>
                  <CardTitle className="min-w-0">
                    <h3 className="truncate text-base">{list.name}</h3>
                  </CardTitle>
                  <CardDescription className="line-clamp-2">{list.description || 'No description'}</CardDescription>
                </CardHeader>
                <CardContent className="flex items-end justify-between gap-2">
                  <p>
                    <span className="text-2xl font-bold tabular-nums">{formatNumber(list.subscriberCount)}</span>{' '}
                    <span className="text-muted-foreground text-sm">
                      {list.subscriberCount === 1 ? 'subscriber' : 'subscribers'}
                    </span>
                  </p>
                  <p className="text-muted-foreground text-xs">Created {formatDate(list.createdAt)}</p>
                </CardContent>
                <CardFooter className="mt-auto flex flex-wrap gap-2">
                  <Button size="sm" onClick={() => onViewList(list)}>
                    <Eye aria-hidden="true" />
                    View Contacts
                    <span className="sr-only"> in {list.name}</span>
                  </Button>
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => {
                      setEditing(list);
                      setFormOpen(true);
                    }}
                  >
                    <Pencil aria-hidden="true" />
                    Edit
                    <span className="sr-only"> {list.name}</span>
                  </Button>
                  <Button size="icon" variant="ghost" className="size-8" asChild>
                    <a href={exportCsvHref(list.id)} download aria-label={`Export ${list.name} as CSV`}>
                      <Download aria-hidden="true" />
                    </a>
                  </Button>
                  <Button
                    size="icon"
                    variant="ghost"
                    className="size-8"
                    aria-label={`Delete ${list.name}`}
                    onClick={() => setDeleting(list)}
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                </CardFooter>
              </Card>
            </li>
          ))}
        </ul>
      )}

      <ListFormDialog open={formOpen} onOpenChange={setFormOpen} list={editing} />

      <AlertDialog open={deleting !== null} onOpenChange={(open) => !open && setDeleting(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete “{deleting?.name}”?</AlertDialogTitle>
            <AlertDialogDescription>
              The list is deleted; its {formatNumber(deleting?.subscriberCount ?? 0)} contacts stay in your contacts.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              className={buttonVariants({ variant: 'destructive' })}
              disabled={deleteList.isPending}
              onClick={(event) => {
                event.preventDefault();
                void onDelete();
              }}
            >
              {deleteList.isPending ? 'Deleting...' : 'Delete List'}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
