import * as React from 'react';
import { createContactListBodySchema, type ContactList } from '@sendwell/contract/contacts';

import { FieldError } from '@/components/field-error';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectSeparator, SelectTrigger, SelectValue } from '@/components/ui/select';
import { isUnauthorizedError } from '@/lib/api';
import { apiErrorText, toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useBulkAddToList, useCreateContactList, type BulkTarget } from '../api/use-contacts';
import { pluralContacts } from '../contact-rules';

const NEW_LIST = 'new';
const ADD_FAILED = 'Failed to add contacts to the list';

/** Bulk 'Add to List': an existing list (POST bulk-add-to-list) or a new list created with the selection. */
export function AddToListDialog({
  open,
  onOpenChange,
  target,
  lists,
  onAdded,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  target: BulkTarget;
  lists: readonly ContactList[];
  onAdded: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add to List</DialogTitle>
          <DialogDescription>
            {'matching' in target
              ? `Add all ${pluralContacts(target.count)} matching your search and filters to a list.`
              : `Add the ${pluralContacts(target.count)} you selected to a list.`}
          </DialogDescription>
        </DialogHeader>
        {open && (
          <AddToListForm
            target={target}
            lists={lists}
            onCancel={() => onOpenChange(false)}
            onAdded={() => {
              onOpenChange(false);
              onAdded();
            }}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function AddToListForm({
  target,
  lists,
  onCancel,
  onAdded,
}: {
  target: BulkTarget;
  lists: readonly ContactList[];
  onCancel: () => void;
  onAdded: () => void;
}) {
  const addToList = useBulkAddToList();
  const createList = useCreateContactList();
  const [choice, setChoice] = React.useState<string>(lists.length === 0 ? NEW_LIST : '');
  const [newName, setNewName] = React.useState('');
  const [error, setError] = React.useState<{ field: 'list' | 'name'; message: string } | null>(null);
  const pending = addToList.isPending || createList.isPending;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      if (choice === NEW_LIST) {
        // All matching: the list is made empty, then the server adds every match with the same filters.
        const parsed = createContactListBodySchema.safeParse({
          name: newName,
          ...('contactIds' in target ? { contactIds: target.contactIds } : {}),
        });
        if (!parsed.success) {
          setError({ field: 'name', message: parsed.error.issues[0]?.message ?? 'Check the list name' });
          return;
        }
        const list = await createList.mutateAsync(parsed.data);
        const added =
          'matching' in target
            ? (await addToList.mutateAsync({ target, listId: list.id })).affected
            : list.subscriberCount;
        toast({
          title: 'Added to list',
          description: `${pluralContacts(added)} added to “${list.name}”.`,
        });
      } else {
        const list = lists.find((l) => String(l.id) === choice);
        if (!list) {
          setError({ field: 'list', message: 'Choose a list' });
          return;
        }
        const { affected } = await addToList.mutateAsync({ target, listId: list.id });
        const already = 'contactIds' in target ? target.contactIds.length - affected : 0;
        toast({
          title: 'Added to list',
          description:
            `${pluralContacts(affected)} added to “${list.name}”.` +
            (already > 0 ? ` ${already.toLocaleString('en-US')} already belonged to it.` : ''),
        });
      }
      onAdded();
    } catch (err) {
      // A refused new list name is shown under the name field; anything else is a toast.
      if (choice === NEW_LIST && !isUnauthorizedError(err))
        setError({ field: 'name', message: apiErrorText(err, ADD_FAILED) });
      else toastError(err, ADD_FAILED);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="space-y-2">
        <Label htmlFor="add-to-list-choice">List</Label>
        <Select
          value={choice}
          onValueChange={(value) => {
            setChoice(value);
            setError(null);
          }}
        >
          <SelectTrigger
            id="add-to-list-choice"
            className="w-full"
            aria-invalid={error?.field === 'list' ? true : undefined}
            aria-describedby={error?.field === 'list' ? 'add-to-list-choice-error' : undefined}
          >
            <SelectValue placeholder="Choose a list" />
          </SelectTrigger>
          <SelectContent>
            {lists.map((list) => (
              <SelectItem key={list.id} value={String(list.id)}>
                {list.name}
              </SelectItem>
            ))}
            {lists.length > 0 && <SelectSeparator />}
            <SelectItem value={NEW_LIST}>Create new list</SelectItem>
          </SelectContent>
        </Select>
        <FieldError id="add-to-list-choice-error" message={error?.field === 'list' ? error.message : undefined} />
      </div>
      {choice === NEW_LIST && (
        <div className="space-y-2">
          <Label htmlFor="add-to-list-new-name">New list name</Label>
          <Input
            id="add-to-list-new-name"
            autoComplete="off"
            value={newName}
            onChange={(event) => setNewName(event.target.value)}
            aria-invalid={error?.field === 'name' ? true : undefined}
            aria-describedby={error?.field === 'name' ? 'add-to-list-new-name-error' : undefined}
          />
          <FieldError id="add-to-list-new-name-error" message={error?.field === 'name' ? error.message : undefined} />
        </div>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? 'Adding...' : 'Add to List'}
        </Button>
      </DialogFooter>
    </form>
  );
}
