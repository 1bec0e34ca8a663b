import { History } from 'lucide-react';
import type { EmailAlias } from '@sendwell/contract/aliases';

import { Skeleton } from '@/components/ui/skeleton';
import { OutcomeBadge } from './alias-badges';
import { useAliasActivity } from '../api/use-aliases';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** The alias's activity log: its last 100 messages, newest first (from, subject, outcome, when). */
export function ActivityLog({ alias }: { alias: EmailAlias }) {
  const activity = useAliasActivity(alias.id);
  const list = activity.data ?? [];
  return (
    <section aria-labelledby={`activity-${alias.id}`} className="space-y-3">
      <h3 id={`activity-${alias.id}`} className="flex items-center gap-2 font-semibold">
        <History className="size-4" aria-hidden="true" />
        Recent activity
      </h3>
      {activity.isLoading ? (
        <Skeleton className="h-16 w-full" />
      ) : activity.isError ? (
        <p className="text-destructive text-sm" role="alert">
          Could not load the activity log.
        </p>
      ) : list.length === 0 ? (
        <p className="text-muted-foreground rounded-lg border border-dashed p-4 text-center text-sm">
          No messages yet. Send one to {alias.address}, or press Test.
        </p>
      ) : (
        <ol className="divide-y rounded-lg border" aria-label={`Messages to ${alias.address}`}>
          {list.map((entry) => (
            <li key={entry.id} className="flex flex-col gap-1 p-3 sm:flex-row sm:items-start sm:gap-3">
              <OutcomeBadge outcome={entry.outcome} className="sm:mt-0.5 sm:w-24" />
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium">{entry.subject || '(no subject)'}</p>
                <p className="text-muted-foreground truncate text-xs">From {entry.from || '(null sender)'}</p>
                <p className="text-muted-foreground text-xs break-words">{entry.detail}</p>
              </div>
              <time dateTime={entry.receivedAt} className="text-muted-foreground shrink-0 text-xs">
                {when(entry.receivedAt)}
              </time>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
