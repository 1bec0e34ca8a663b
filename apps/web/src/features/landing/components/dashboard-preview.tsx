import { DollarSign, Eye, MousePointerClick, Users } from 'lucide-react';

/** Marketing sample figures of the hero's dashboard preview (not data). */
const SAMPLE_STATS = [
  { label: 'Subscribers', value: '12,847', change: '+12%', icon: Users },
  { label: 'Open Rate', value: '34.2%', change: '+9.4%', icon: Eye },
  { label: 'Click Rate', value: '7.8%', change: '+3.1%', icon: MousePointerClick },
  { label: 'Revenue', value: '$24,890', change: '+18%', icon: DollarSign },
];

/** Relative bar heights of the sample chart, in percent. */
const SAMPLE_BARS = [38, 52, 45, 61, 58, 72, 66, 80, 74, 88, 83, 94];

/** A static picture of the dashboard, labelled as sample data. */
export function DashboardPreview() {
  return (
    <figure className="bg-card relative mx-auto w-full max-w-5xl overflow-hidden rounded-xl border shadow-2xl">
      <div className="bg-muted/60 flex items-center gap-2 border-b px-4 py-3">
        <span className="size-3 rounded-full bg-red-400" aria-hidden="true" />
        <span className="size-3 rounded-full bg-amber-400" aria-hidden="true" />
        <span className="size-3 rounded-full bg-emerald-400" aria-hidden="true" />
        <span className="text-muted-foreground ml-3 truncate text-xs">app.sendwell — Dashboard</span>
        <span className="bg-background text-foreground ml-auto rounded-md border px-2 py-0.5 text-xs font-medium">
          Sample data
        </span>
      </div>
      <div className="space-y-4 p-4 sm:p-6">
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          {SAMPLE_STATS.map(({ label, value, change, icon: Icon }) => (
            <div key={label} className="bg-background rounded-lg border p-3 text-left sm:p-4">
              <div className="text-muted-foreground flex items-center justify-between text-xs sm:text-sm">
                <span>{label}</span>
                <Icon className="size-4" aria-hidden="true" />
              </div>
              <p className="mt-1 text-lg font-bold sm:text-2xl">{value}</p>
              <p className="text-xs font-medium text-emerald-700 dark:text-emerald-400">{change} vs last month</p>
            </div>
          ))}
        </div>
        <div className="bg-background rounded-lg border p-4">
          <div className="mb-3 flex items-center justify-between text-sm">
            <span className="font-medium">Opens over time</span>
            <span className="text-muted-foreground text-xs">Last 12 weeks</span>
          </div>
          <div className="flex h-28 items-end gap-1.5 sm:h-36" aria-hidden="true">
            {SAMPLE_BARS.map((height, i) => (
              <div
                key={i}
                className="flex-1 rounded-t bg-gradient-to-t from-indigo-500 to-violet-400"
                style={{ height: `${height}%` }}
              />
            ))}
          </div>
        </div>
      </div>
      <figcaption className="sr-only">
        Sample dashboard preview with illustrative subscribers, open rate, click rate and revenue figures.
      </figcaption>
    </figure>
  );
}
