import { toast } from './use-toast';

/** Delay between the 'Unauthorized' toast and the redirect (spec §9). */
const LOGIN_REDIRECT_DELAY_MS = 500;
/** The login endpoint the browser is sent to; the server redirects it to /login. */
const LOGIN_ENDPOINT = '/api/login';

let redirecting = false;

/** Where the page that lost its session is kept until the next sign-in (this tab only). */
const RETURN_KEY = 'sendwell.returnTo';
/** Pages never returned to: the sign-in pages themselves. */
const NO_RETURN = /^\/(login|signup|forgot-password|reset-password)(\/|\?|$)/;

/**
 * A path of this app worth returning to: same-origin only ('//host' and '/\\host' lead elsewhere),
 * never the home page or the sign-in pages themselves.
 */
function isReturnPath(path: string | null | undefined): path is string {
  return !!path && /^\/(?![/\\])/.test(path) && path !== '/' && !NO_RETURN.test(path);
}

/**
 * Where a sign-in from this page goes next: the `return` a link asked for (a mailed confirmation link
 * that needs its account signed in: /login?return=/confirm-email?token=…), else the page the session
 * ended on, else the dashboard.
 */
export function returnPathAfterSignIn(search = window.location.search): string {
  const asked = new URLSearchParams(search).get('return');
  const remembered = takeReturnPath();
  return isReturnPath(asked) ? asked : remembered;
}

/** Remembers the page being left for sign-in, so signing in again returns to it (first-hour finding 10). */
function rememberReturnPath(path = `${window.location.pathname}${window.location.search}`): void {
  if (!isReturnPath(path)) return;
  try {
    window.sessionStorage.setItem(RETURN_KEY, path);
  } catch {
    // Storage refused (private mode): sign-in goes to the dashboard as before.
  }
}

/** The remembered page (a same-origin path), forgotten once read; '/' when there is none. */
function takeReturnPath(): string {
  try {
    const path = window.sessionStorage.getItem(RETURN_KEY);
    window.sessionStorage.removeItem(RETURN_KEY);
    return isReturnPath(path) ? path : '/';
  } catch {
    return '/';
  }
}

/** Shows the 'Unauthorized' toast, then navigates to /api/login after 500 ms (once, however often called). */
export function redirectToLogin(): void {
  if (redirecting) return;
  redirecting = true;
  rememberReturnPath();
  toast({
    title: 'Unauthorized',
    description: 'You are logged out. Logging in again...',
    variant: 'destructive',
  });
  setTimeout(() => {
    window.location.href = LOGIN_ENDPOINT;
  }, LOGIN_REDIRECT_DELAY_MS);
}
