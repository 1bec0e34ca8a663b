import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { OverviewDay, OverviewListDay } from '@sendwell/contract/analytics';

import { formatDay } from '../overview-range';

/*
 * The charts of /analytics (recharts, loaded with this module only when the page has figures to
 * draw). Each is hidden from assistive technology: the table behind it ("Show as table") carries
 * the same figures.
 */

const axisTick = { fontSize: 12, fill: 'var(--muted-foreground)' };
const tooltipStyle = {
  background: 'var(--popover)',
  color: 'var(--popover-foreground)',
  border: '1px solid var(--border)',
  borderRadius: 8,
  fontSize: 12,
};
const legendText = (value: string) => <span className="text-foreground">{value}</span>;

function Frame({ children }: { children: React.ReactElement }) {
  return (
    <div className="h-64 w-full" aria-hidden="true">
      <ResponsiveContainer width="100%" height="100%">
        {children}
      </ResponsiveContainer>
    </div>
  );
}

function Axes() {
  return (
    <>
      <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
      <XAxis dataKey="label" tick={axisTick} tickLine={false} axisLine={false} minTickGap={24} />
      <YAxis allowDecimals={false} tick={axisTick} tickLine={false} axisLine={false} width={40} />
      <Tooltip contentStyle={tooltipStyle} />
      <Legend iconType="circle" wrapperStyle={{ fontSize: 12 }} formatter={legendText} />
    </>
  );
}

/** Sent, delivered, human opens, machine opens and human clicks per day. */
function MailChart({ days }: { days: OverviewDay[] }) {
  const data = days.map((day) => ({ ...day, label: formatDay(day.day) }));
  const line = (key: keyof OverviewDay, name: string, color: string, dashed = false) => (
    <Line
      type="monotone"
      dataKey={key}
      name={name}
      stroke={color}
      strokeWidth={2}
      strokeDasharray={dashed ? '4 4' : undefined}
      dot={days.length <= 31 ? { r: 2 } : false}
      isAnimationActive={false}
    />
  );
  return (
    <Frame>
      <LineChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -8 }} accessibilityLayer={false}>
        {Axes()}
        {line('sent', 'Sent', 'var(--chart-3)')}
        {line('delivered', 'Delivered', 'var(--chart-2)')}
        {line('opened', 'Human opens', 'var(--chart-1)')}
        {line('machineOpened', 'Machine opens', 'var(--muted-foreground)', true)}
        {line('clicked', 'Clicks', 'var(--chart-5)')}
      </LineChart>
    </Frame>
  );
}

/** Hard bounces, complaints and unsubscribes per day. */
function ProblemsChart({ days }: { days: OverviewDay[] }) {
  const data = days.map((day) => ({ ...day, label: formatDay(day.day) }));
  return (
    <Frame>
      <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -8 }} accessibilityLayer={false}>
        {Axes()}
        <Bar dataKey="bounced" name="Bounces" stackId="p" fill="var(--chart-1)" isAnimationActive={false} />
        <Bar dataKey="complaints" name="Complaints" stackId="p" fill="var(--chart-4)" isAnimationActive={false} />
        <Bar dataKey="unsubscribes" name="Unsubscribes" stackId="p" fill="var(--chart-3)" isAnimationActive={false} />
      </BarChart>
    </Frame>
  );
}

/** Contacts added (up) and lost (down) per day. */
function ListGrowthChart({ days }: { days: OverviewListDay[] }) {
  const data = days.map((day) => ({
    label: formatDay(day.day),
    added: day.added,
    lost: -(day.unsubscribed + day.bounced + day.complained),
  }));
  return (
    <Frame>
      <BarChart
        data={data}
        margin={{ top: 8, right: 8, bottom: 0, left: -8 }}
        stackOffset="sign"
        accessibilityLayer={false}
      >
        {Axes()}
        <ReferenceLine y={0} stroke="var(--border)" />
        <Bar dataKey="added" name="Added" stackId="l" fill="var(--chart-2)" isAnimationActive={false} />
        <Bar dataKey="lost" name="Lost" stackId="l" fill="var(--chart-1)" isAnimationActive={false} />
      </BarChart>
    </Frame>
  );
}

/** One of the charts above, by name (the page loads this module lazily, through its default export). */
export default function OverviewChart(
  props:
    | { kind: 'mail'; days: OverviewDay[] }
    | { kind: 'problems'; days: OverviewDay[] }
    | { kind: 'list'; days: OverviewListDay[] },
) {
  if (props.kind === 'list') return <ListGrowthChart days={props.days} />;
  return props.kind === 'mail' ? <MailChart days={props.days} /> : <ProblemsChart days={props.days} />;
}
