import type { Contact } from '@sendwell/contract/contacts';

import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import { contactStatusLabel, engagementBand, type EngagementBand } from '../contact-rules';

// Text and background pairs chosen for at least 4.5:1 contrast in both themes.
const BAND_STYLES: Record<EngagementBand, string> = {
  high: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  medium: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-300',
  low: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
};

/**
 * The engagement score, coloured by band (spec §9: ≥70 green, ≥40 yellow, below 40 red). A contact
 * with no activity yet has no score to judge: a neutral "New" rather than a red 0.
 */
export function EngagementScore({
  score,
  lastActivityAt,
  className,
}: {
  score: number;
  lastActivityAt: string | null;
  className?: string;
}) {
  if (score === 0 && lastActivityAt === null) {
    return (
      <Badge variant="secondary" className={className} title="No opens or clicks yet">
        New
      </Badge>
    );
  }
  const band = engagementBand(score);
  return (
    <Badge variant="outline" className={cn('border-transparent tabular-nums', BAND_STYLES[band], className)}>
      {score}
    </Badge>
  );
}

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
