import { getApiErrorMessage, getApiErrorStatus, isUnauthorizedError } from '../../lib/api';
import { toast } from '../../lib/use-toast';

export const SAVE_FAILED = 'Failed to save campaign. Please try again.';
export const SEND_FAILED = 'Failed to send campaign. Please try again.';

/**
 * The server's own explanation of a 4xx (no postal address, plan limit, no recipients, only
 * drafts…), which says more than a generic text; the fallback for anything else.
 */
export function campaignErrorText(error: unknown, fallback: string): string {
  const status = getApiErrorStatus(error);
  const message = getApiErrorMessage(error);
  return status !== null && status >= 400 && status < 500 && message ? message : fallback;
}

/**
 * Shows a destructive toast for a failed call. A 401 shows nothing here: the query client has
 * already shown 'Unauthorized' and is redirecting to the login (spec §8), and at most one toast
 * is visible, so another would hide it.
 */
export function toastCampaignError(error: unknown, fallback: string, title = 'Error'): void {
  if (isUnauthorizedError(error)) return;
  toast({ title, description: campaignErrorText(error, fallback), variant: 'destructive' });
}
