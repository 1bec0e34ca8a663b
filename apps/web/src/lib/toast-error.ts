import { getApiErrorMessage, getApiErrorStatus, isUnauthorizedError } from './api';
import { redirectToLogin } from './unauthorized';
import { toast } from './use-toast';

/**
 * Which failures may show the server's own `{ message }` instead of the screen's fallback text:
 * - `'any'`: any answer that has one (the server's messages are written for users);
 * - `'client-error'`: 4xx only, where the server explains a refusal (plan limit, duplicate, no
 *   recipients); a 5xx carries the server's generic text and the screen's own fallback says more;
 * - `'never'`: the spec fixes the text whatever the server says;
 * - a status such as 409: that status only.
 */
export type ServerMessageRule = 'any' | 'client-error' | 'never' | number;

export interface ToastErrorOptions {
  /** The toast's title; 'Error' unless the spec names another ('Login Failed', 'Import failed'…). */
  title?: string;
  /** When the server's message replaces the fallback; `'any'` when not given. */
  serverMessage?: ServerMessageRule;
}

/** The text shown for a failed call (a toast description, a field message): the server's message where `rule` allows it, else `fallback`. */
export function apiErrorText(error: unknown, fallback: string, rule: ServerMessageRule = 'any'): string {
  if (rule === 'never') return fallback;
  const status = getApiErrorStatus(error);
  if (status === null) return fallback;
  const allowed = rule === 'any' ? true : rule === 'client-error' ? status >= 400 && status < 500 : status === rule;
  return (allowed ? getApiErrorMessage(error) : undefined) ?? fallback;
}

/**
 * The one way a failed call is shown: a destructive toast with the server's message or `fallback`.
 * A 401 Unauthorized shows the spec's 'Unauthorized' toast and goes to the login instead (§8); the
 * query client has usually done so already, and at most one toast is visible, so another would hide it.
 */
export function toastError(error: unknown, fallback: string, options: ToastErrorOptions = {}): void {
  if (isUnauthorizedError(error)) {
    redirectToLogin();
    return;
  }
  toast({
    title: options.title ?? 'Error',
    description: apiErrorText(error, fallback, options.serverMessage),
    variant: 'destructive',
  });
}
