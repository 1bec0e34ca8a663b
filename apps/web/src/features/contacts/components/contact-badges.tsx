import type { Contact } from '@sendwell/contract/contacts';

import { Badge } from '@/components/ui/badge';
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
