import { instantToWallTime, wallTimeToInstant } from '@sendwell/contract/time-zones';

export const SCHEDULE_REQUIRED = 'Choose a date and time';
/** The server's own text for a time that is not in the future. */
export const SCHEDULE_IN_PAST = 'Choose a time in the future to schedule this campaign';

const DAY_MS = 86_400_000;

/** A date as a datetime-local input value ('YYYY-MM-DDTHH:mm'), as the clocks of a time zone show it. */
export function toLocalInputValue(date: Date, timeZone: string): string {
  return instantToWallTime(date, timeZone);
}

/** The picker's starting value: tomorrow at 09:00 in the time zone. */
export function defaultScheduleValue(timeZone: string, now: Date = new Date()): string {
  const tomorrow = instantToWallTime(new Date(now.getTime() + DAY_MS), timeZone);
  return `${tomorrow.slice(0, 10)}T09:00`;
}

/**
 * Reads a datetime-local value as a time in the time zone (the same reading the server makes,
 * across daylight-saving changes) and checks it is in the future; gives the ISO instant the API
 * stores, or the message to show.
 */
export function parseScheduleInput(
  value: string,
  timeZone: string,
  now: Date = new Date(),
): { ok: true; iso: string; date: Date } | { ok: false; message: string } {
  const date = wallTimeToInstant(value, timeZone);
  if (!date) return { ok: false, message: SCHEDULE_REQUIRED };
  if (date.getTime() <= now.getTime()) return { ok: false, message: SCHEDULE_IN_PAST };
  return { ok: true, iso: date.toISOString(), date };
}

/** 'Friday, May 1, 2026 at 9:00 AM EDT' in the time zone. */
export function formatScheduleTime(date: Date, timeZone: string): string {
  // timeStyle 'long' is the one that names the zone; its seconds are dropped (schedules are to the minute).
  return date
    .toLocaleString('en-US', { dateStyle: 'full', timeStyle: 'long', timeZone })
    .replace(/(\d{1,2}:\d{2}):\d{2}/, '$1');
}
