import { describe, expect, it } from 'vitest';
import { instantToWallTime, isTimeZone, timeZoneNames, timeZoneSchema, wallTimeToInstant } from './time-zones.ts';

describe('time zones', () => {
  it('reads 09:00 in New York as the right instant on either side of a DST change', () => {
    // US clocks went forward on 8 March 2026 and go back on 1 November 2026.
    expect(wallTimeToInstant('2026-03-07T09:00', 'America/New_York')?.toISOString()).toBe('2026-03-07T14:00:00.000Z');
    expect(wallTimeToInstant('2026-03-09T09:00', 'America/New_York')?.toISOString()).toBe('2026-03-09T13:00:00.000Z');
    expect(wallTimeToInstant('2026-10-31T09:00', 'America/New_York')?.toISOString()).toBe('2026-10-31T13:00:00.000Z');
    expect(wallTimeToInstant('2026-11-02T09:00', 'America/New_York')?.toISOString()).toBe('2026-11-02T14:00:00.000Z');
    expect(wallTimeToInstant('2026-07-01T09:00:30', 'Asia/Kolkata')?.toISOString()).toBe('2026-07-01T03:30:30.000Z');
    expect(wallTimeToInstant('2026-07-01T09:00', 'UTC')?.toISOString()).toBe('2026-07-01T09:00:00.000Z');
  });

  it('lands a skipped time just after the jump and a repeated time on its first occurrence', () => {
    expect(wallTimeToInstant('2026-03-08T02:30', 'America/New_York')?.toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(wallTimeToInstant('2026-11-01T01:30', 'America/New_York')?.toISOString()).toBe('2026-11-01T05:30:00.000Z');
    expect(wallTimeToInstant('2026-03-29T02:30', 'Europe/Berlin')?.toISOString()).toBe('2026-03-29T01:30:00.000Z');
  });

  it('refuses dates that do not exist and anything that is not a wall time', () => {
    expect(wallTimeToInstant('2026-02-30T09:00', 'UTC')).toBeNull();
    expect(wallTimeToInstant('2026-02-01T24:00', 'UTC')).toBeNull();
    expect(wallTimeToInstant('2026-02-01T09:00Z', 'UTC')).toBeNull();
    expect(wallTimeToInstant('tomorrow', 'UTC')).toBeNull();
  });

  it('shows an instant back as the zone’s wall time', () => {
    expect(instantToWallTime(new Date('2026-11-02T14:00:00Z'), 'America/New_York')).toBe('2026-11-02T09:00');
    expect(instantToWallTime(new Date('2026-06-30T22:15:00Z'), 'Pacific/Auckland')).toBe('2026-07-01T10:15');
  });

  it('knows IANA names and refuses others', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(timeZoneSchema.safeParse('Nowhere').success).toBe(false);
    expect(timeZoneNames()[0]).toBe('UTC');
    expect(timeZoneNames()).toContain('America/New_York');
  });
});
