import { Link2Off } from 'lucide-react';

import { mismatchedPublicUrl } from '@/lib/public-url';

/**
 * Shown above every signed-in page when this tab has the app open at another origin than the
 * server's PUBLIC_URL: every link the app shows or mails (images, tracking, unsubscribe, forms,
 * webhooks) is built from PUBLIC_URL, so they would point where this tab is not (issue 34).
 */
export function PublicUrlBanner() {
  const expected = mismatchedPublicUrl();
  if (!expected) return null;
  return (
    <div
      role="status"
      data-testid="public-url-banner"
      className="flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950/50 dark:text-amber-100"
    >
      <Link2Off className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <p>
        <span className="font-medium">
          This app is open at {window.location.origin}, but its links use {expected}.
        </span>{' '}
        Images, tracking, unsubscribe, form and webhook addresses in your mail and on these screens point to{' '}
        <span className="break-all">{expected}</span>. If that is not where people reach Sendwell, set{' '}
        <code className="font-mono">PUBLIC_URL</code> on the server and restart it.
      </p>
    </div>
  );
}
