import { Badge } from '@/components/ui/badge';
import { engagementBand, type EngagementBand } from '@/lib/engagement';
import { cn } from '@/lib/utils';

// Text and background pairs chosen for at least 4.5:1 contrast in both themes.
const BAND_STYLES: Record<Exclude<EngagementBand, 'new'>, string> = {
  high: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  medium: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-300',
  low: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
};

/**
 * The engagement score, coloured by band (spec §9: ≥70 green, ≥40 yellow, below 40 red). A contact
 * with no activity yet has no score to judge: a neutral "New" rather than a red 0. Shared by the
 * contacts table, cards and detail and the segment preview, so one contact reads the same everywhere.
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
  const band = engagementBand(score, lastActivityAt);
  if (band === 'new') {
    return (
      <Badge variant="secondary" className={className} title="No opens or clicks yet">
        New
      </Badge>
    );
  }
  return (
    <Badge variant="outline" className={cn('border-transparent tabular-nums', BAND_STYLES[band], className)}>
      {score}
    </Badge>
  );
}
