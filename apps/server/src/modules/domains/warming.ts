/**
 * Domain warming: a new sending domain earns trust with mailbox providers by sending a little at
 * first and more each week. Sendwell enforces a 4-week schedule of daily caps per domain, rising
 * to 10,000 messages a day in week 4 (the landing page's "up to 10,000 emails per day"):
 *
 *   days  0– 6  week 1   1,000 a day
 *   days  7–13  week 2   2,500 a day
 *   days 14–20  week 3   5,000 a day
 *   days 21–27  week 4  10,000 a day
 *   day  28 on  complete: no warming cap (the plan's monthly allowance still applies)
 *
 * Day 0 is the UTC calendar day on which the domain was first verified (warmingStartedAt); days
 * are UTC calendar days, the same days domain_daily_sends counts in, so a cap never changes in
 * the middle of a counting day. Before its first verification a domain is held to week 1's cap.
 * Everything here is pure: callers pass `now`.
 */

const WARMING_SCHEDULE = [
  { week: 1, dailyLimit: 1_000 },
  { week: 2, dailyLimit: 2_500 },
  { week: 3, dailyLimit: 5_000 },
  { week: 4, dailyLimit: 10_000 },
] as const;
const WARMING_WEEKS = WARMING_SCHEDULE.length;
export const WARMING_DAYS = WARMING_WEEKS * 7;

const DAY_MS = 24 * 60 * 60 * 1000;

type WarmingStatus = 'not_started' | 'warming' | 'complete';

export type WarmingState = {
  status: WarmingStatus;
  /** 1–4 (4 once complete; 1 before warming starts). */
  week: number;
  /** 0–100. */
  progress: number;
  /** Today's cap; null once warming is complete. */
  dailyLimit: number | null;
  /** Days until the cap next rises (or warming completes); null when not started or complete. */
  nextIncreaseInDays: number | null;
};

/** The UTC calendar day of an instant as 'YYYY-MM-DD' (the key of domain_daily_sends). */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The start of the next UTC day: when a day's cap resets. */
export function nextUtcDayStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** Whole UTC calendar days from the day warming started to the day of `now` (never negative). */
export function warmingDay(startedAt: Date, now: Date): number {
  const start = Date.UTC(startedAt.getUTCFullYear(), startedAt.getUTCMonth(), startedAt.getUTCDate());
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.max(0, Math.round((today - start) / DAY_MS));
}

/** Where a domain stands in the schedule at `now`. */
export function warmingState(startedAt: Date | null, now: Date): WarmingState {
  const first = WARMING_SCHEDULE[0];
  if (!startedAt)
    return { status: 'not_started', week: 1, progress: 0, dailyLimit: first.dailyLimit, nextIncreaseInDays: null };
  const day = warmingDay(startedAt, now);
  if (day >= WARMING_DAYS)
    return { status: 'complete', week: WARMING_WEEKS, progress: 100, dailyLimit: null, nextIncreaseInDays: null };
  const weekIndex = Math.floor(day / 7);
  return {
    status: 'warming',
    week: weekIndex + 1,
    progress: Math.round((day * 100) / WARMING_DAYS),
    dailyLimit: WARMING_SCHEDULE[weekIndex]?.dailyLimit ?? first.dailyLimit,
    nextIncreaseInDays: (weekIndex + 1) * 7 - day,
  };
}

/** 0–100 through the schedule ('percent complete'). */
export function warmingProgress(startedAt: Date | null, now: Date): number {
  return warmingState(startedAt, now).progress;
}

/** 'Week N of 4'. */
export function warmingWeek(startedAt: Date | null, now: Date): number {
  return warmingState(startedAt, now).week;
}

/** Today's cap on messages from the domain; null once warming is complete. */
export function dailyLimit(startedAt: Date | null, now: Date): number | null {
  return warmingState(startedAt, now).dailyLimit;
}

/** 'Next Increase In N days'; null when warming has not started or is complete. */
export function nextIncreaseInDays(startedAt: Date | null, now: Date): number | null {
  return warmingState(startedAt, now).nextIncreaseInDays;
}

/** How many more messages the domain may send today, given what it already sent; null = no cap. */
export function remainingToday(
  domain: { warmingStartedAt: Date | null },
  sentToday: number,
  now: Date = new Date(),
): number | null {
  const limit = dailyLimit(domain.warmingStartedAt, now);
  return limit === null ? null : Math.max(0, limit - sentToday);
}
