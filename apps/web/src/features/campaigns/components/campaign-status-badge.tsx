import type { CampaignStatus } from '@sendwell/contract/campaigns';

import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

const STATUS_STYLES: Record<CampaignStatus, string> = {
  draft: 'bg-secondary text-secondary-foreground border-transparent',
  scheduled: 'bg-blue-100 text-blue-800 border-transparent dark:bg-blue-950 dark:text-blue-200',
  sending: 'bg-amber-100 text-amber-900 border-transparent dark:bg-amber-950 dark:text-amber-200',
  sent: 'bg-emerald-100 text-emerald-800 border-transparent dark:bg-emerald-950 dark:text-emerald-200',
  paused: 'bg-secondary text-secondary-foreground border-transparent',
  canceled: 'bg-secondary text-secondary-foreground border-transparent',
  failed: 'bg-red-100 text-red-800 border-transparent dark:bg-red-950 dark:text-red-200',
};

/** A campaign's status as a coloured badge. */
export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  return (
    <Badge variant="outline" className={cn('capitalize', STATUS_STYLES[status])}>
      {status}
    </Badge>
  );
}
