import type { ForwardingDay } from '@sendwell/contract/aliases';

import { formatNumber } from '@/lib/format';

/** The series stacked in each day's bar, bottom first, with their colours (light and dark). */
const SERIES = [
  { key: 'forwarded', label: 'Forwarded', color: 'bg-emerald-500 dark:bg-emerald-400' },
  { key: 'autoReplied', label: 'Auto-replied', color: 'bg-violet-500 dark:bg-violet-400' },
  { key: 'blocked', label: 'Blocked', color: 'bg-zinc-400 dark:bg-zinc-500' },
  { key: 'failed', label: 'Failed', color: 'bg-red-500 dark:bg-red-400' },
] as const;

const dayLabel = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

function describeDay(day: ForwardingDay): string {
  return `${dayLabel(day.date)}: ${day.received} received, ${SERIES.map((s) => `${day[s.key]} ${s.label.toLowerCase()}`).join(', ')}`;
}

/**
 * The last 30 days of an alias as stacked CSS bars (one per UTC day, oldest first). Each bar says
 * its figures as a tooltip; screen readers get one sentence per day with figures instead.
 */
export function ForwardingChart({ days }: { days: readonly ForwardingDay[] }) {
  const tallest = Math.max(1, ...days.map((d) => SERIES.reduce((sum, s) => sum + d[s.key], 0)));
  const total = days.reduce((sum, d) => sum + d.received, 0);
  const active = days.filter((d) => d.received > 0);
  return (
    <figure className="space-y-3">
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span className="font-medium">Last {days.length} days</span>
        <span className="text-muted-foreground">{formatNumber(total)} received</span>
      </figcaption>
      <div className="flex h-32 items-end gap-[2px] border-b" aria-hidden="true" data-testid="forwarding-chart">
        {days.map((day) => (
          <div
            key={day.date}
            className="bg-muted/60 flex h-full min-w-0 flex-1 flex-col-reverse overflow-hidden rounded-t-sm"
            title={describeDay(day)}
          >
            {SERIES.map((s) =>
              day[s.key] > 0 ? (
                <div
                  key={s.key}
                  className={`${s.color} w-full last:rounded-t-sm`}
                  style={{ height: `${(day[s.key] / tallest) * 100}%` }}
                />
              ) : null,
            )}
          </div>
        ))}
      </div>
      <div className="text-muted-foreground flex justify-between text-xs" aria-hidden="true">
        <span>{days[0] ? dayLabel(days[0].date) : ''}</span>
        <span>{days.at(-1) ? dayLabel(days.at(-1)!.date) : ''}</span>
      </div>
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-label="Legend">
        {SERIES.map((s) => (
          <li key={s.key} className="flex items-center gap-1.5">
            <span className={`${s.color} size-2.5 rounded-sm`} aria-hidden="true" />
            {s.label}
          </li>
        ))}
      </ul>
      <ul className="sr-only">
        {active.length === 0 ? (
          <li>No messages in these days.</li>
        ) : (
          active.map((day) => <li key={day.date}>{describeDay(day)}</li>)
        )}
      </ul>
    </figure>
  );
}
