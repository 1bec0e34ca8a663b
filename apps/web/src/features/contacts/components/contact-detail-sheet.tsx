import * as React from 'react';
import { Pencil, Trash2, X } from 'lucide-react';
import type { ContactDetail } from '@sendwell/contract/contacts';

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
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet';
import { Skeleton } from '@/components/ui/skeleton';
import { toastError } from '@/lib/toast-error';
import { formatDate, formatNumber } from '@/lib/format';
import { toast } from '@/lib/use-toast';
import { cn } from '@/lib/utils';
import {
  useBulkRemoveFromList,
  useContact,
  useContactSunset,
  useDeleteContact,
  useUpdateContact,
} from '../api/use-contacts';
import { contactDisplayName } from '../contact-rules';
import { ContactStatusBadge, ContactSunsetNote, EngagementScore, TagList } from './contact-badges';
import { ContactTimeline } from './contact-timeline';
import { ContactForm, contactToFormValues } from './contact-form';

/** The side panel of one contact: every field, its lists, tags and activity; edit and delete. */
export function ContactDetailSheet({
  contactId,
  onClose,
  enabled,
}: {
  contactId: number | null;
  onClose: () => void;
  enabled: boolean;
}) {
  const contact = useContact(contactId, enabled);
  // The id of the contact being edited: opening another contact leaves edit mode by itself.
  const [editing, setEditing] = React.useState<number | null>(null);
  const detail = contact.data;

  return (
    <Sheet open={contactId !== null} onOpenChange={(open) => !open && onClose()}>
      <SheetContent className="w-full gap-0 overflow-y-auto sm:max-w-lg">
        <SheetHeader className="border-b pr-12">
          <SheetTitle className="text-lg">{detail ? contactDisplayName(detail) : 'Contact'}</SheetTitle>
          <SheetDescription className="break-all">{detail?.email ?? 'Loading contact details'}</SheetDescription>
        </SheetHeader>
        <div className="p-4">
          {contact.isLoading ? (
            <div className="space-y-4" aria-busy="true">
              <Skeleton className="h-6 w-32" />
              <Skeleton className="h-24 w-full" />
              <Skeleton className="h-32 w-full" />
            </div>
          ) : contact.isError || !detail ? (
            <p className="text-destructive text-sm" role="alert">
              This contact could not be loaded. It may have been deleted.
            </p>
          ) : editing === detail.id ? (
            <EditContact detail={detail} onDone={() => setEditing(null)} />
          ) : (
            <ContactSummary detail={detail} onEdit={() => setEditing(detail.id)} onDeleted={onClose} />
          )}
        </div>
      </SheetContent>
    </Sheet>
  );
}

function Field({ label, value, className }: { label: string; value: React.ReactNode; className?: string }) {
  return (
    <div className={cn('min-w-0', className)}>
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="text-sm break-words">{value || <span className="text-muted-foreground">—</span>}</dd>
    </div>
  );
}

function ContactSummary({
  detail,
  onEdit,
  onDeleted,
}: {
  detail: ContactDetail;
  onEdit: () => void;
  onDeleted: () => void;
}) {
  const removeFromList = useBulkRemoveFromList();
  const deleteContact = useDeleteContact();
  const sunset = useContactSunset(detail.id, true);
  const [confirmDelete, setConfirmDelete] = React.useState(false);

  const onRemove = async (list: { id: number; name: string }) => {
    try {
      await removeFromList.mutateAsync({ contactIds: [detail.id], listId: list.id });
      toast({ title: 'Removed from list', description: `${contactDisplayName(detail)} left “${list.name}”.` });
    } catch (error) {
      toastError(error, 'Failed to remove the contact from the list');
    }
  };

  const onDelete = async () => {
    try {
      await deleteContact.mutateAsync(detail.id);
      toast({ title: 'Contact deleted', description: `${contactDisplayName(detail)} was deleted.` });
      setConfirmDelete(false);
      onDeleted();
    } catch (error) {
      toastError(error, 'Failed to delete contact');
    }
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-2">
        <ContactStatusBadge contact={detail} />
        <span className="text-muted-foreground text-sm">Added {formatDate(detail.createdAt)}</span>
        <ContactSunsetNote sunset={sunset.data} />
      </div>

      <section aria-labelledby="contact-activity-title" className="space-y-2">
        <h3 id="contact-activity-title" className="text-sm font-semibold">
          Activity
        </h3>
        <dl className="grid grid-cols-2 gap-3 rounded-lg border p-3 sm:grid-cols-3">
          <Field
            label="Engagement score"
            value={<EngagementScore score={detail.engagementScore} lastActivityAt={detail.lastActivityAt} />}
          />
          <Field label="Emails opened" value={formatNumber(detail.totalEmailsOpened)} />
          <Field label="Emails clicked" value={formatNumber(detail.totalEmailsClicked)} />
          <Field
            label="Last activity"
            value={detail.lastActivityAt ? formatDate(detail.lastActivityAt) : 'No activity yet'}
          />
          <Field label="Subscribed" value={formatDate(detail.subscriptionDate)} />
        </dl>
      </section>

      <ContactTimeline contactId={detail.id} />

      <section aria-labelledby="contact-details-title" className="space-y-2">
        <h3 id="contact-details-title" className="text-sm font-semibold">
          Details
        </h3>
        <dl className="grid grid-cols-2 gap-3">
          <Field label="First name" value={detail.firstName} />
          <Field label="Last name" value={detail.lastName} />
          <Field label="Company" value={detail.company} />
          <Field label="Job title" value={detail.jobTitle} />
          <Field label="Phone" value={detail.phone} />
          <Field label="Location" value={detail.location} />
          <Field
            className="col-span-2"
            label="Notes"
            value={detail.notes && <span className="whitespace-pre-wrap">{detail.notes}</span>}
          />
          <Field className="col-span-2" label="Tags" value={detail.tags.length > 0 && <TagList tags={detail.tags} />} />
        </dl>
      </section>

      <section aria-labelledby="contact-lists-title" className="space-y-2">
        <h3 id="contact-lists-title" className="text-sm font-semibold">
          Lists
        </h3>
        {detail.lists.length === 0 ? (
          <p className="text-muted-foreground text-sm">Not in any list.</p>
        ) : (
          <ul className="divide-y rounded-lg border">
            {detail.lists.map((list) => (
              <li key={list.id} className="flex items-center justify-between gap-2 py-1 pr-1 pl-3 text-sm">
                <span className="min-w-0 truncate">{list.name}</span>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  className="size-8"
                  aria-label={`Remove from ${list.name}`}
                  disabled={removeFromList.isPending}
                  onClick={() => onRemove(list)}
                >
                  <X aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <div className="flex flex-wrap gap-2 border-t pt-4">
        <Button type="button" variant="outline" onClick={onEdit}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        <Button type="button" variant="destructive" onClick={() => setConfirmDelete(true)}>
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </div>

      <AlertDialog open={confirmDelete} onOpenChange={setConfirmDelete}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete this contact?</AlertDialogTitle>
            <AlertDialogDescription>
              {contactDisplayName(detail)} ({detail.email}) will be removed from your contacts and all lists. This
              cannot be undone.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              className={buttonVariants({ variant: 'destructive' })}
              disabled={deleteContact.isPending}
              onClick={(event) => {
                event.preventDefault();
                void onDelete();
              }}
            >
              {deleteContact.isPending ? 'Deleting...' : 'Delete Contact'}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}

function EditContact({ detail, onDone }: { detail: ContactDetail; onDone: () => void }) {
  const updateContact = useUpdateContact();
  return (
    <section aria-labelledby="contact-edit-title" className="space-y-4">
      <h3 id="contact-edit-title" className="text-sm font-semibold">
        Edit contact
      </h3>
      <ContactForm
        idPrefix={`edit-contact-${detail.id}`}
        defaultValues={contactToFormValues(detail)}
        submitLabel="Save Changes"
        pendingLabel="Saving..."
        onCancel={onDone}
        onSubmit={async ({ listIds: _listIds, ...body }) => {
          await updateContact.mutateAsync({ id: detail.id, body });
          toast({ title: 'Contact updated', description: `${body.firstName} ${body.lastName} was saved.` });
          onDone();
        }}
        onError={(error) => {
          toastError(error, 'Failed to update contact');
        }}
      />
    </section>
  );
}
