import { toast } from '@/lib/use-toast';

/** Spec §8 texts of failed sequence calls (a destructive 'Error' toast). */
export const SEQUENCE_FAILURE = {
  create: 'Failed to create email sequence',
  update: 'Failed to update email sequence',
  delete: 'Failed to delete email sequence',
  status: 'Failed to update email sequence',
  enrol: 'Failed to enrol contacts',
} as const;

/** Spec §5/§8: the toast for a blank sequence name. */
const NAME_REQUIRED = 'Please enter a sequence name';

/** Spec §5: the delete confirmation's text. */
export const DELETE_CONFIRMATION = 'Are you sure you want to delete this sequence? This action cannot be undone.';

/** A success toast for a sequence action (spec §8: 'Email sequence created successfully', …). */
export function toastSequenceSuccess(description: string): void {
  toast({ title: 'Success', description });
}

/** Spec §8: the blank-name toast. */
export function toastNameRequired(): void {
  toast({ title: 'Validation Error', description: NAME_REQUIRED, variant: 'destructive' });
}
