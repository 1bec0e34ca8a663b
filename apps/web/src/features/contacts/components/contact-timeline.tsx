import type { ContactTimelineEvent } from '@sendwell/contract/contacts';

import { Skeleton } from '@/components/ui/skeleton';
import { formatDate } from '@/lib/format';
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

function describe(event: ContactTimelineEvent): string {
  switch (event.type) {
    case 'bounce':
      return `${event.hard ? 'Hard bounce' : 'Soft bounce'}: ${REASON_WORDS[event.reason ?? 'undetermined'] ?? event.reason}`;
    case 'complaint':
      return 'Marked as spam (complaint)';
    case 'auto-reply':
      return 'Auto-reply';
    case 'delivered':
      return 'Delivery confirmed';
  }
}

/** The contact's bounces, complaints, auto-replies and delivery reports (GET /api/contacts/:id/timeline). */
export function ContactTimeline({ contactId }: { contactId: number }) {
  const timeline = useContactTimeline(contactId, true);
  return (
    <section aria-labelledby="contact-timeline-title" className="space-y-2">
      <h3 id="contact-timeline-title" className="text-sm font-semibold">
        Bounces and complaints
      </h3>
      {!timeline.data ? (
        <Skeleton className="h-10 w-full" />
      ) : (
        <>
          {timeline.data.suppression && (
            <p className="text-sm" role="note">
              Suppressed since {formatDate(timeline.data.suppression.since)} ({timeline.data.suppression.reason}): no
              campaign mails this address.
            </p>
          )}
          {timeline.data.events.length === 0 ? (
            <p className="text-muted-foreground text-sm">Nothing came back about this contact’s mail.</p>
          ) : (
            <ol className="divide-y rounded-lg border text-sm">
              {timeline.data.events.map((event, index) => (
                <li key={`${event.at}-${index}`} className="space-y-0.5 p-2">
                  <p className="font-medium">{describe(event)}</p>
                  <p className="text-muted-foreground text-xs">
                    {formatDate(event.at)}
                    {event.campaignName ? ` · ${event.campaignName}` : ''}
                  </p>
                  {event.detail && event.type === 'bounce' && (
                    <p className="text-muted-foreground text-xs break-all">{event.detail.replace(/^soft: /, '')}</p>
                  )}
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}
