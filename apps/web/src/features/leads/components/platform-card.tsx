import { Check } from 'lucide-react';
import type { LeadPlatform, LeadSource } from '@sendwell/contract/leads';

import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import { platformCardLines } from '../lead-display';

/** One catalogue platform: a toggle button saying what it can do here and whether the account has it connected. */
export function PlatformCard({
  platform,
  sources,
  selected,
  onToggle,
}: {
  platform: LeadPlatform;
  sources: readonly LeadSource[];
  selected: boolean;
  onToggle: () => void;
}) {
  const { capability, connection } = platformCardLines(platform, sources);
  return (
    <button
      type="button"
      aria-pressed={selected}
      onClick={onToggle}
      data-testid={`platform-${platform.id}`}
      className={cn(
        'bg-card hover:bg-accent/50 focus-visible:ring-ring/50 flex min-h-20 flex-col gap-1 rounded-lg border p-3 text-left transition-colors outline-none focus-visible:ring-[3px]',
        selected && 'ring-primary border-primary ring-2',
      )}
    >
      <span className="flex w-full items-start justify-between gap-2">
        <span className="font-medium">{platform.name}</span>
        {selected && (
          <Badge>
            <Check aria-hidden="true" />
            Selected
          </Badge>
        )}
      </span>
      <span className="text-muted-foreground text-xs">{capability}</span>
      {connection && (
        <span
          className={cn(
            'text-xs font-medium',
            connection === 'Connected' ? 'text-emerald-700 dark:text-emerald-400' : 'text-muted-foreground',
          )}
        >
          {connection}
        </span>
      )}
    </button>
  );
}
