import { getApiErrorMessage, getApiErrorStatus, isUnauthorizedError } from '@/lib/api';
import { redirectToLogin } from '@/lib/unauthorized';
import { toast } from '@/lib/use-toast';

/**
 * A failed domain call: the Unauthorized rule for a 401 (toast, then /api/login); the server's own
 * message where it explains the refusal (403 plan limit, 409 duplicate, 404, 400); else `fallback`.
 */
export function toastDomainFailure(error: unknown, fallback: string): void {
  if (isUnauthorizedError(error)) {
    redirectToLogin();
    return;
  }
  const status = getApiErrorStatus(error);
  const message = status !== null && status >= 400 && status < 500 ? getApiErrorMessage(error) : undefined;
  toast({ title: 'Error', description: message ?? fallback, variant: 'destructive' });
}
