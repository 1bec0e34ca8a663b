import { overviewQuerySchema, type OverviewQuery } from '@sendwell/contract/analytics';

const DAY_MS = 24 * 60 * 60 * 1000;

/** 'YYYY-MM-DD' of a moment's UTC day (the overview counts UTC days). */
function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The last `days` UTC days up to and including today's. */
export function presetRange(days: number, now = new Date()): OverviewQuery {
  return { from: utcDay(new Date(now.getTime() - (days - 1) * DAY_MS)), to: utcDay(now) };
}

/**
 * A custom range checked with the contract's own rules (the server applies the same ones): the
 * range, or the first field's message.
 */
export function checkCustomRange(
  from: string,
  to: string,
): { range: OverviewQuery; error: null } | { range: null; error: { field: 'from' | 'to'; message: string } } {
  const parsed = overviewQuerySchema.safeParse({ from, to });
  if (parsed.success) return { range: parsed.data, error: null };
  const issue = parsed.error.issues[0];
  return {
    range: null,
    error: { field: issue?.path[0] === 'to' ? 'to' : 'from', message: issue?.message ?? 'Invalid range' },
  };
}

/** 'Mar 4' for a 'YYYY-MM-DD' day (UTC, so the label is the day counted). */
export function formatDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}
