import type { ContactTimelineEvent } from '@sendwell/contract/contacts';

import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate, formatDollars } from '@/lib/format';
import { useContactTimeline } from '../api/use-contacts';

const REASON_WORDS: Record<string, string> = {
  'user-unknown': 'mailbox does not exist',
  'host-unknown': 'domain does not exist',
  'has-moved': 'address has moved',
  'not-accepting-mail': 'domain accepts no mail',
  'mailbox-full': 'mailbox full',
  'message-too-big': 'message too big',
  blocked: 'blocked',
  'policy-violation': 'refused by policy',
  'spam-detected': 'judged spam',
  'content-error': 'content refused',
  'security-error': 'authentication failed',
  'rate-limited': 'rate limited',
  expired: 'expired in the queue',
  'system-error': 'receiver system error',
  'network-error': 'network error',
  suspended: 'mailbox suspended',
  filtered: 'filtered by the recipient',
  undetermined: 'reason unknown',
};

/** What happened, in words. */
function describe(event: ContactTimelineEvent): string {
  switch (event.type) {
    case 'sent':
      return event.sequenceName ? 'Sequence email sent' : 'Campaign email sent';
    case 'open':
      return event.machine ? 'Opened by a machine (privacy proxy or pre-fetch)' : 'Opened';
    case 'click':
      return event.machine ? 'Link followed by a scanner' : 'Clicked a link';
    case 'bounce':
      return `${event.hard ? 'Hard bounce' : 'Soft bounce'}: ${REASON_WORDS[event.reason ?? 'undetermined'] ?? event.reason}`;
    case 'complaint':
      return 'Marked as spam (complaint)';
    case 'unsubscribe':
      return 'Unsubscribed';
    case 'auto-reply':
      return 'Auto-reply';
    case 'delivered':
      return 'Delivery confirmed';
    case 'sequence-entered':
      return 'Entered a sequence';
    case 'sequence-left':
      return `Left a sequence (${event.detail ?? 'finished'})`;
    case 'form':
      return event.detail === 'confirmed' ? 'Confirmed a form sign-up' : 'Submitted a form (awaiting confirmation)';
    case 'lead':
      return 'Captured as a lead';
    case 'purchase':
      return `Purchase of ${formatDollars(Number(event.detail ?? 0) / 100)}`;
  }
}

/** Where it happened: the campaign, sequence or lead source. */
function context(event: ContactTimelineEvent): string | null {
  return event.campaignName ?? event.sequenceName ?? event.sourceName;
}

/**
 * The contact's timeline (GET /api/contacts/:id/timeline): mail sent, opens (human or machine),
 * clicks, bounces, complaints, unsubscribes, sequences, forms and lead captures, newest first, a page
 * at a time.
 */
export function ContactTimeline({ contactId }: { contactId: number }) {
  const timeline = useContactTimeline(contactId, true);
  const pages = timeline.data?.pages ?? [];
  const events = pages.flatMap((page) => page.events);
  const suppression = pages[0]?.suppression ?? null;
  return (
    <section aria-labelledby="contact-timeline-title" className="space-y-2">
      <h3 id="contact-timeline-title" className="text-sm font-semibold">
        Timeline
      </h3>
      {!timeline.data ? (
        <Skeleton className="h-10 w-full" />
      ) : (
        <>
          {suppression && (
            <p className="text-sm" role="note">
              Suppressed since {formatDate(suppression.since)} ({suppression.reason}): no campaign mails this address.
            </p>
          )}
          {events.length === 0 ? (
            <p className="text-muted-foreground text-sm">Nothing has happened with this contact yet.</p>
          ) : (
            <ol className="divide-y rounded-lg border text-sm">
              {events.map((event, index) => (
                <li key={`${event.at}-${event.type}-${index}`} className="space-y-0.5 p-2">
                  <p className="font-medium">{describe(event)}</p>
                  <p className="text-muted-foreground text-xs">
                    <time dateTime={event.at}>
                      {new Date(event.at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}
                    </time>
                    {context(event) ? ` · ${context(event)}` : ''}
                  </p>
                  {event.url && <p className="text-muted-foreground text-xs break-all">{event.url}</p>}
                  {event.detail && event.type === 'bounce' && (
                    <p className="text-muted-foreground text-xs break-all">{event.detail.replace(/^soft: /, '')}</p>
                  )}
                </li>
              ))}
            </ol>
          )}
          {timeline.hasNextPage && (
            <Button
              variant="outline"
              size="sm"
              className="w-full"
              disabled={timeline.isFetchingNextPage}
              onClick={() => void timeline.fetchNextPage()}
            >
              {timeline.isFetchingNextPage ? 'Loading…' : 'Show older'}
            </Button>
          )}
        </>
      )}
    </section>
  );
}
