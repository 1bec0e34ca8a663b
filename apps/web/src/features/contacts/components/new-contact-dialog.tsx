import type { ContactList } from '@sendwell/contract/contacts';

import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useCreateContact } from '../api/use-contacts';
import { contactDisplayName } from '../contact-rules';
import { ContactForm } from './contact-form';

/** Spec §8: the failure toast of contact create; a duplicate email shows the server's message instead. */
const CREATE_CONTACT_FAILED = 'Failed to create contact. Please try again.';

/** The New Contact dialog (spec §2, §5): every contact field, lists as checkboxes. */
export function NewContactDialog({
  open,
  onOpenChange,
  lists,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  lists: readonly ContactList[];
}) {
  const createContact = useCreateContact();

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>New Contact</DialogTitle>
          <DialogDescription>Add one contact to your database. Fields marked * are required.</DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so every opening starts from an empty form. */}
        {open && (
          <ContactForm
            idPrefix="new-contact"
            lists={lists}
            submitLabel="Create Contact"
            pendingLabel="Creating..."
            onCancel={() => onOpenChange(false)}
            onSubmit={async (body) => {
              const contact = await createContact.mutateAsync(body);
              toast({
                title: 'Contact created',
                description: `${contactDisplayName(contact)} was added to your contacts.`,
              });
              onOpenChange(false);
            }}
            onError={(error) => toastError(error, CREATE_CONTACT_FAILED, { serverMessage: 409 })}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}
