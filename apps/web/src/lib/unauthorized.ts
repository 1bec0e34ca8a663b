import { toast } from './use-toast';

/** Delay between the 'Unauthorized' toast and the redirect (spec §9). */
export const LOGIN_REDIRECT_DELAY_MS = 500;
/** The login endpoint the browser is sent to; the server redirects it to /login. */
export const LOGIN_ENDPOINT = '/api/login';

let redirecting = false;

/** Shows the 'Unauthorized' toast, then navigates to /api/login after 500 ms (once, however often called). */
export function redirectToLogin(): void {
  if (redirecting) return;
  redirecting = true;
  toast({
    title: 'Unauthorized',
    description: 'You are logged out. Logging in again...',
    variant: 'destructive',
  });
  setTimeout(() => {
    window.location.href = LOGIN_ENDPOINT;
  }, LOGIN_REDIRECT_DELAY_MS);
}
