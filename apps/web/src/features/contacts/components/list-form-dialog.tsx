import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
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
import { Textarea } from '@/components/ui/textarea';
import { getApiErrorFields, getApiErrorMessage, getApiErrorStatus } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useCreateContactList, useUpdateContactList } from '../api/use-contacts';

const listFormSchema = createContactListBodySchema.omit({ contactIds: true });

/** New List (no `list`) or Edit list (rename and describe); a duplicate name is shown under the name field. */
export function ListFormDialog({
  open,
  onOpenChange,
  list,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  list?: ContactList;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{list ? 'Edit List' : 'New List'}</DialogTitle>
          <DialogDescription>
            {list
              ? 'Rename the list or change its description.'
              : 'Create a list to group contacts for your campaigns.'}
          </DialogDescription>
        </DialogHeader>
        {open && <ListForm list={list} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function ListForm({ list, onDone }: { list?: ContactList; onDone: () => void }) {
  const createList = useCreateContactList();
  const updateList = useUpdateContactList();
  const form = useForm({
    resolver: zodResolver(listFormSchema),
    defaultValues: { name: list?.name ?? '', description: list?.description ?? '' },
  });
  const { errors, isSubmitting } = form.formState;
  const prefix = list ? `edit-list-${list.id}` : 'new-list';

  const submit = form.handleSubmit(async (body) => {
    try {
      if (list) {
        const saved = await updateList.mutateAsync({ id: list.id, body });
        toast({ title: 'List updated', description: `“${saved.name}” was saved.` });
      } else {
        const saved = await createList.mutateAsync(body);
        toast({ title: 'List created', description: `“${saved.name}” is ready for contacts.` });
      }
      onDone();
    } catch (error) {
      const fields = getApiErrorFields(error);
      const message = getApiErrorMessage(error);
      if (fields.name || getApiErrorStatus(error) === 409) {
        form.setError('name', { message: fields.name ?? message ?? 'A contact list with this name already exists' });
        return;
      }
      if (fields.description) form.setError('description', { message: fields.description });
      toastError(error, list ? 'Failed to update contact list' : 'Failed to create contact list');
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="space-y-2">
        <Label htmlFor={`${prefix}-name`}>Name</Label>
        <Input
          id={`${prefix}-name`}
          autoComplete="off"
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? `${prefix}-name-error` : undefined}
          {...form.register('name')}
        />
        <FieldError id={`${prefix}-name-error`} message={errors.name?.message} />
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${prefix}-description`}>Description</Label>
        <Textarea
          id={`${prefix}-description`}
          rows={3}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={errors.description ? `${prefix}-description-error` : undefined}
          {...form.register('description')}
        />
        <FieldError id={`${prefix}-description-error`} message={errors.description?.message} />
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Saving...' : list ? 'Save Changes' : 'Create List'}
        </Button>
      </DialogFooter>
    </form>
  );
}
