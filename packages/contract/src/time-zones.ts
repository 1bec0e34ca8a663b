import { z } from 'zod';

/**
 * Time zones by their IANA names ('America/New_York'), converted with Intl alone: the browser and
 * Node both carry the tz database, so no date library is needed. Scheduling reads a wall-clock time
 * ("09:00") in a zone and stores the instant it names; screens show instants back in that zone.
 */

export const TIME_ZONE_INVALID = 'Choose a time zone from the list (for example Europe/Berlin or America/New_York)';

/** Whether Intl knows the zone (an IANA name, or 'UTC'). */
export function isTimeZone(value: string): boolean {
  if (!value || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** A time zone an account or campaign may choose. */
export const timeZoneSchema = z
  .string({ error: TIME_ZONE_INVALID })
  .trim()
  .refine(isTimeZone, { message: TIME_ZONE_INVALID });

/** The zones a picker offers: Intl's list, with UTC first (Node's list leaves it out). */
export function timeZoneNames(): string[] {
  const names = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...names.filter((name) => name !== 'UTC')];
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

type WallTime = { year: number; month: number; day: number; hour: number; minute: number; second: number };

/** The wall-clock time an instant shows in a zone. */
function wallTimeAt(ms: number, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const part of partsFormatter(timeZone).formatToParts(new Date(ms)))
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

const asUtcMs = (t: WallTime) => Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);

/** How far the zone's clocks are ahead of UTC at an instant, in ms. */
function offsetAt(ms: number, timeZone: string): number {
  return asUtcMs(wallTimeAt(ms, timeZone)) - Math.floor(ms / 1000) * 1000;
}

/** 'YYYY-MM-DDTHH:mm' or with ':ss': a time without a zone (a datetime-local input's value). */
const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/** Whether a string is a wall-clock time without a zone (as opposed to an ISO instant with Z or an offset). */
export function isWallTime(value: string): boolean {
  return WALL_TIME.test(value.trim());
}

/**
 * The instant a wall-clock time names in a zone ('2026-11-02T09:00' in America/New_York is
 * 14:00 UTC), or null for a date that does not exist (Feb 30). A time the zone skips when its
 * clocks go forward (02:30 on a spring-forward night) is read with the offset from before the jump,
 * so it lands just after it (03:30), as calendar apps do; a time that happens twice when clocks go
 * back is the first of the two.
 */
export function wallTimeToInstant(value: string, timeZone: string): Date | null {
  const match = WALL_TIME.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const wall: WallTime = { year, month, day, hour, minute, second };
  const guess = asUtcMs(wall);
  const check = new Date(guess);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  // The offset a day either side of the guess covers every transition; try the earlier first.
  const offsets = [offsetAt(guess - 86_400_000, timeZone), offsetAt(guess + 86_400_000, timeZone)];
  for (const offset of offsets) {
    const ms = guess - offset;
    if (asUtcMs(wallTimeAt(ms, timeZone)) === guess) return new Date(ms);
  }
  // In a gap: the offset from before the jump.
  return new Date(guess - (offsets[0] ?? 0));
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The wall-clock time ('YYYY-MM-DDTHH:mm') an instant shows in a zone: a datetime-local input's value. */
export function instantToWallTime(date: Date, timeZone: string): string {
  const t = wallTimeAt(date.getTime(), timeZone);
  return `${t.year}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}`;
}
