export const SCHEDULE_REQUIRED = 'Choose a date and time';
/** The server's own text for a time that is not in the future. */
export const SCHEDULE_IN_PAST = 'Choose a time in the future to schedule this campaign';

const pad = (n: number) => String(n).padStart(2, '0');

/** A date as a datetime-local input value ('YYYY-MM-DDTHH:mm') in the browser's time zone. */
export function toLocalInputValue(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The picker's starting value: tomorrow at 09:00 local time. */
export function defaultScheduleValue(now: Date = new Date()): string {
  const next = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 9, 0, 0, 0);
  return toLocalInputValue(next);
}

/**
 * Reads a datetime-local value as a time in the browser's time zone and checks it is in the
 * future; gives the ISO instant the API stores, or the message to show.
 */
export function parseScheduleInput(
  value: string,
  now: Date = new Date(),
): { ok: true; iso: string; date: Date } | { ok: false; message: string } {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return { ok: false, message: SCHEDULE_REQUIRED };
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, number, number, number, number, number, number];
  const date = new Date(y, mo - 1, d, h, mi, Number.isNaN(s) ? 0 : s, 0);
  // new Date() rolls invalid parts over (Feb 31 → Mar 3); refuse those instead.
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d)
    return { ok: false, message: SCHEDULE_REQUIRED };
  if (date.getTime() <= now.getTime()) return { ok: false, message: SCHEDULE_IN_PAST };
  return { ok: true, iso: date.toISOString(), date };
}

/** The browser's IANA time zone ('Europe/Berlin'), or 'your local time' when the browser will not say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'your local time';
  } catch {
    return 'your local time';
  }
}

/** 'Friday, May 1, 2026 at 9:00 AM' in the browser's time zone. */
export function formatScheduleTime(date: Date): string {
  return date.toLocaleString('en-US', { dateStyle: 'full', timeStyle: 'short' });
}
