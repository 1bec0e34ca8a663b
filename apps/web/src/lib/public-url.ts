/**
 * The one base every address the app shows or mails is built from: the server's PUBLIC_URL, as the
 * session probe (GET /api/auth/session) reports it. Until the probe answers (and outside a browser)
 * it is the page's own origin. Kept here, not only in the query cache, so plain helpers (the
 * editor's sample image) build the same addresses as the screens do (issue 34, finding 1).
 */
let reportedPublicUrl: string | null = null;

/** Remembers the server's PUBLIC_URL (without a trailing slash). */
export function rememberPublicUrl(url: string): void {
  reportedPublicUrl = url.replace(/\/+$/, '');
}

/** PUBLIC_URL as the server reported it, else this page's origin. */
export function publicUrl(): string {
  return reportedPublicUrl ?? globalThis.location?.origin ?? 'http://localhost';
}

/** The origin of a URL (scheme, host, port), or null when it is not one. */
function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * PUBLIC_URL when the browser has the app open at another origin (links in mail and on screens then
 * point elsewhere than this tab), else null.
 */
export function mismatchedPublicUrl(pageOrigin: string = globalThis.location?.origin ?? ''): string | null {
  if (reportedPublicUrl === null) return null;
  const expected = originOf(reportedPublicUrl);
  return expected !== null && expected !== originOf(pageOrigin) ? reportedPublicUrl : null;
}
