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
  onConnect,
}: {
  platform: LeadPlatform;
  sources: readonly LeadSource[];
  selected: boolean;
  onToggle: () => void;
  /** Opens the source form for this platform's provider (shown as 'Connect' while not connected). */
  onConnect?: () => void;
}) {
  const { capability, connection } = platformCardLines(platform, sources);
  // The toggle and the Connect link are siblings: a button cannot hold another control.
  return (
    <div className="relative">
      <button
        type="button"
        aria-pressed={selected}
        onClick={onToggle}
        data-testid={`platform-${platform.id}`}
        className={cn(
          'bg-card hover:bg-accent/50 focus-visible:ring-ring/50 flex min-h-20 w-full flex-col gap-1 rounded-lg border p-3 text-left transition-colors outline-none focus-visible:ring-[3px]',
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
              connection === 'Not connected' && onConnect && 'pr-16',
            )}
          >
            {connection}
          </span>
        )}
      </button>
      {connection === 'Not connected' && onConnect && (
        <button
          type="button"
          onClick={onConnect}
          className="text-primary absolute right-3 bottom-3 text-xs font-medium underline underline-offset-2 hover:no-underline"
          aria-label={`Connect ${platform.name}: add your API key`}
        >
          Connect
        </button>
      )}
    </div>
  );
}
