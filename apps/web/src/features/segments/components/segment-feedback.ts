import { toast } from '@/lib/use-toast';

/** Spec §8 texts of failed segment calls; the spec fixes them, so the server's message is not shown. */
export const SEGMENT_FAILURE = {
  create: 'Failed to create contact segment',
  update: 'Failed to update contact segment',
  delete: 'Failed to delete contact segment',
  refresh: 'Failed to refresh segment membership',
} as const;

/** A success toast for a segment action. */
export function toastSegmentSuccess(description: string): void {
  toast({ title: 'Success', description });
}
