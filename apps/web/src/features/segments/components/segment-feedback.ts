import { isUnauthorizedError } from '@/lib/api';
import { redirectToLogin } from '@/lib/unauthorized';
import { toast } from '@/lib/use-toast';

/** Spec §8 texts of failed segment calls. */
export const SEGMENT_FAILURE = {
  create: 'Failed to create contact segment',
  update: 'Failed to update contact segment',
  delete: 'Failed to delete contact segment',
  refresh: 'Failed to refresh segment membership',
} as const;

/** A failed segment mutation: the Unauthorized rule for a 401 (toast, then /api/login), else the spec's error toast. */
export function toastSegmentFailure(error: unknown, action: keyof typeof SEGMENT_FAILURE): void {
  if (isUnauthorizedError(error)) {
    redirectToLogin();
    return;
  }
  toast({ title: 'Error', description: SEGMENT_FAILURE[action], variant: 'destructive' });
}

/** A success toast for a segment action. */
export function toastSegmentSuccess(description: string): void {
  toast({ title: 'Success', description });
}
