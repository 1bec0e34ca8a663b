export interface TimelinePoint {
  at: string;
  opens: number;
  clicks: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Up to three days are drawn hour by hour; longer spans day by day, so the chart stays readable. */
const HOURLY_SPAN_LIMIT_MS = 72 * HOUR_MS;

/**
 * The server's hourly counts, with the quiet hours (which it leaves out) as zeros, so the chart
 * does not draw a line through hours that had no activity. Longer spans are summed per UTC day.
 */
export function fillTimeline(points: readonly TimelinePoint[]): { points: TimelinePoint[]; step: 'hour' | 'day' } {
  if (points.length === 0) return { points: [], step: 'hour' };
  const sorted = [...points].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const first = Date.parse(sorted[0]?.at ?? '');
  const last = Date.parse(sorted.at(-1)?.at ?? '');
  const step = last - first > HOURLY_SPAN_LIMIT_MS ? 'day' : 'hour';
  const size = step === 'day' ? DAY_MS : HOUR_MS;
  const bucketOf = (time: number) => Math.floor(time / size) * size;
  const sums = new Map<number, TimelinePoint>();
  for (const point of sorted) {
    const bucket = bucketOf(Date.parse(point.at));
    const current = sums.get(bucket) ?? { at: new Date(bucket).toISOString(), opens: 0, clicks: 0 };
    sums.set(bucket, { ...current, opens: current.opens + point.opens, clicks: current.clicks + point.clicks });
  }
  const filled: TimelinePoint[] = [];
  for (let bucket = bucketOf(first); bucket <= bucketOf(last); bucket += size) {
    filled.push(sums.get(bucket) ?? { at: new Date(bucket).toISOString(), opens: 0, clicks: 0 });
  }
  return { points: filled, step };
}
