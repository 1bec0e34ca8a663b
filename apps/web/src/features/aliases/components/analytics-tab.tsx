import { Ban, CircleCheck, Forward, MessageSquareReply } from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import type { EmailAlias } from '@sendwell/contract/aliases';

import { Skeleton } from '@/components/ui/skeleton';
import { formatNumber, formatPercent } from '@/lib/format';
import { useForwardingStats } from '../api/use-aliases';
import { ActivityLog } from './activity-log';
import { ForwardingChart } from './forwarding-chart';

function Stat({ label, value, icon: Icon, hint }: { label: string; value: string; icon: LucideIcon; hint?: string }) {
  return (
    <div className="rounded-lg border p-3" data-stat={label}>
      <div className="text-muted-foreground flex items-center gap-2 text-xs font-medium">
        <Icon className="size-3.5" aria-hidden="true" />
        {label}
      </div>
      <p className="mt-1 text-2xl font-semibold tabular-nums" data-testid={`stat-${label}`}>
        {value}
      </p>
      {hint && <p className="text-muted-foreground text-xs">{hint}</p>}
    </div>
  );
}

/**
 * The Analytics tab: forwarding statistics from recorded events (spec §3: totalForwarded,
 * totalBlocked, totalAutoReplied, successRate = delivered / attempted), the last 30 days as a
 * chart, and the alias's activity log.
 */
export function AnalyticsTab({ alias }: { alias: EmailAlias }) {
  const stats = useForwardingStats(alias.id);
  const data = stats.data;
  return (
    <div className="space-y-6">
      {stats.isLoading ? (
        <div className="grid grid-cols-2 gap-3 md:grid-cols-4" aria-busy="true" aria-label="Loading statistics">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-20" />
          ))}
        </div>
      ) : stats.isError || !data ? (
        <p className="text-destructive text-sm" role="alert">
          Could not load the statistics. Please refresh the page.
        </p>
      ) : (
        <>
          <section aria-label="Forwarding statistics" className="grid grid-cols-2 gap-3 md:grid-cols-4">
            <Stat label="Forwarded" value={formatNumber(data.totalForwarded)} icon={Forward} />
            <Stat label="Blocked" value={formatNumber(data.totalBlocked)} icon={Ban} />
            <Stat label="Auto-replied" value={formatNumber(data.totalAutoReplied)} icon={MessageSquareReply} />
            <Stat
              label="Success rate"
              value={data.successRate === null ? '—' : formatPercent(data.successRate)}
              icon={CircleCheck}
              hint={
                data.totalAttempted > 0
                  ? `${formatNumber(data.totalForwarded)} of ${formatNumber(data.totalAttempted)} delivered`
                  : 'Nothing forwarded yet'
              }
            />
          </section>
          {data.totalUnrouted > 0 && (
            <p className="text-muted-foreground text-sm">
              {formatNumber(data.totalUnrouted)} message{data.totalUnrouted === 1 ? '' : 's'} had nowhere to go (no
              matching rule or no confirmed destination).
            </p>
          )}
          {data.totalTests > 0 && (
            <p className="text-muted-foreground text-sm" data-testid="alias-test-count">
              {formatNumber(data.totalTests)} test message{data.totalTests === 1 ? '' : 's'} (Test, Test Forwarding) not
              counted in these figures; they are in the activity log below.
            </p>
          )}
          <ForwardingChart days={data.days} />
        </>
      )}
      <ActivityLog alias={alias} />
    </div>
  );
}
