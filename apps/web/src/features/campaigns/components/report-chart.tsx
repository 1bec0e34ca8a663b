import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { CampaignReport } from '@sendwell/contract/campaigns';

import { formatNumber } from '@/lib/format';
import { fillTimeline } from '../report-timeline';

type Point = CampaignReport['timeline'][number];

/** 'Apr 9, 3 PM' (or 'Apr 9' per day) in the browser's time zone; the server counts per UTC hour. */
function formatBucket(iso: string, step: 'hour' | 'day'): string {
  const date = new Date(iso);
  return step === 'day'
    ? date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })
    : date.toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric' });
}

/**
 * Opens and clicks per hour (per day over longer spans) since sending started (recharts). Loaded on its own, with recharts,
 * only when a report has something to draw. A table with the same figures follows for screen readers.
 */
export default function ReportChart({ timeline }: { timeline: Point[] }) {
  const { points, step } = fillTimeline(timeline);
  const data = points.map((point) => ({ ...point, label: formatBucket(point.at, step) }));
  const totalOpens = timeline.reduce((sum, point) => sum + point.opens, 0);
  const totalClicks = timeline.reduce((sum, point) => sum + point.clicks, 0);
  return (
    <figure className="space-y-2">
      <div className="h-64 w-full" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <AreaChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }} accessibilityLayer={false}>
            <defs>
              <linearGradient id="report-opens" x1="0" y1="0" x2="0" y2="1">
                <stop offset="5%" stopColor="var(--chart-2)" stopOpacity={0.35} />
                <stop offset="95%" stopColor="var(--chart-2)" stopOpacity={0} />
              </linearGradient>
              <linearGradient id="report-clicks" x1="0" y1="0" x2="0" y2="1">
                <stop offset="5%" stopColor="var(--chart-1)" stopOpacity={0.35} />
                <stop offset="95%" stopColor="var(--chart-1)" stopOpacity={0} />
              </linearGradient>
            </defs>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
            <XAxis
              dataKey="label"
              tick={{ fontSize: 12, fill: 'var(--muted-foreground)' }}
              tickLine={false}
              axisLine={false}
              minTickGap={24}
            />
            <YAxis
              allowDecimals={false}
              tick={{ fontSize: 12, fill: 'var(--muted-foreground)' }}
              tickLine={false}
              axisLine={false}
            />
            <Tooltip
              contentStyle={{
                background: 'var(--popover)',
                color: 'var(--popover-foreground)',
                border: '1px solid var(--border)',
                borderRadius: 8,
                fontSize: 12,
              }}
            />
            <Legend
              iconType="circle"
              wrapperStyle={{ fontSize: 12 }}
              formatter={(value: string) => <span className="text-foreground">{value}</span>}
            />
            <Area
              type="monotone"
              dataKey="opens"
              name="Opens"
              stroke="var(--chart-2)"
              strokeWidth={2}
              fill="url(#report-opens)"
            />
            <Area
              type="monotone"
              dataKey="clicks"
              name="Clicks"
              stroke="var(--chart-1)"
              strokeWidth={2}
              fill="url(#report-clicks)"
            />
          </AreaChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="text-muted-foreground text-xs">
        {formatNumber(totalOpens)} opens and {formatNumber(totalClicks)} clicks,{' '}
        {step === 'day' ? 'per day (UTC)' : 'per hour, in your time zone'}.
      </figcaption>
      <table className="sr-only">
        <caption>Opens and clicks per {step}</caption>
        <thead>
          <tr>
            <th scope="col">{step === 'day' ? 'Day' : 'Hour'}</th>
            <th scope="col">Opens</th>
            <th scope="col">Clicks</th>
          </tr>
        </thead>
        <tbody>
          {data.map((point) => (
            <tr key={point.at}>
              <th scope="row">{point.label}</th>
              <td>{point.opens}</td>
              <td>{point.clicks}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
