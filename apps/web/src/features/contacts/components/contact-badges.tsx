import type { Contact } from '@sendwell/contract/contacts';
import type { ContactSunset } from '@sendwell/contract/sunset';

import { Badge } from '@/components/ui/badge';
import { formatDate } from '@/lib/format';
import { cn } from '@/lib/utils';
import { contactStatusLabel } from '../contact-rules';

/** The engagement badge lives in components/: the segment preview shows the same one. */
export { EngagementScore } from '@/components/engagement-score';

/** Active or Unsubscribed, by isActive (spec §4). */
export function ContactStatusBadge({ contact }: { contact: Pick<Contact, 'isActive'> }) {
  return (
    <Badge
      variant="outline"
      className={cn(
        'border-transparent',
        contact.isActive
          ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300'
          : 'bg-secondary text-secondary-foreground',
      )}
    >
      {contactStatusLabel(contact)}
    </Badge>
  );
}

/**
 * Where the contact stands under the sunset policy: nothing while engaged; "Re-engaging" with the
 * day it is suppressed unless it opens or clicks; "Unengaged" once the policy suppressed it.
 */
export function ContactSunsetNote({ sunset }: { sunset: ContactSunset | undefined }) {
  if (!sunset || sunset.state === 'engaged') return null;
  if (sunset.state === 'unengaged')
    return (
      <span className="inline-flex items-center gap-2 text-sm" data-testid="contact-sunset">
        <Badge variant="outline">Unengaged</Badge>
        <span className="text-muted-foreground">Suppressed: no human open or click after many messages.</span>
      </span>
    );
  return (
    <span className="inline-flex flex-wrap items-center gap-2 text-sm" data-testid="contact-sunset">
      <Badge
        variant="outline"
        className="border-transparent bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200"
      >
        Re-engaging
      </Badge>
      <span className="text-muted-foreground">
        Suppressed on {formatDate(sunset.suppressesAt)} unless they open or click.
      </span>
    </span>
  );
}

/** A contact's tags as small badges; after `max` of them, "+N". */
export function TagList({ tags, max = Infinity }: { tags: readonly string[]; max?: number }) {
  if (tags.length === 0) return <span className="text-foreground/70">—</span>;
  const shown = tags.slice(0, max);
  const rest = tags.length - shown.length;
  return (
    <span className="flex flex-wrap gap-1">
      {shown.map((tag) => (
        <Badge key={tag} variant="secondary" className="font-normal">
          {tag}
        </Badge>
      ))}
      {rest > 0 && (
        <Badge variant="outline" className="font-normal" title={tags.slice(max).join(', ')}>
          +{rest}
        </Badge>
      )}
    </span>
  );
}
