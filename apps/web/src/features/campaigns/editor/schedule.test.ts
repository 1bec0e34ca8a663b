import { describe, expect, it } from 'vitest';

import {
  defaultScheduleValue,
  formatScheduleTime,
  parseScheduleInput,
  SCHEDULE_IN_PAST,
  SCHEDULE_REQUIRED,
  toLocalInputValue,
} from './schedule';

const now = new Date('2026-04-10T14:30:00Z');

describe('schedule validation', () => {
  it('reads the input in the chosen time zone and gives the ISO instant', () => {
    const result = parseScheduleInput('2026-04-11T09:00', 'America/New_York', now);
    expect(result).toMatchObject({ ok: true, iso: '2026-04-11T13:00:00.000Z' });
    expect(parseScheduleInput('2026-04-11T09:00', 'Asia/Tokyo', now)).toMatchObject({
      ok: true,
      iso: '2026-04-11T00:00:00.000Z',
    });
  });

  it('must be in the future', () => {
    expect(parseScheduleInput('2026-04-10T14:30', 'UTC', now)).toEqual({ ok: false, message: SCHEDULE_IN_PAST });
    expect(parseScheduleInput('2025-01-01T10:00', 'UTC', now)).toEqual({ ok: false, message: SCHEDULE_IN_PAST });
    expect(parseScheduleInput('2026-04-10T14:31', 'UTC', now).ok).toBe(true);
    // 10:31 in New York is 14:31 UTC: a minute ahead.
    expect(parseScheduleInput('2026-04-10T10:31', 'America/New_York', now).ok).toBe(true);
  });

  it('refuses empty and impossible dates', () => {
    expect(parseScheduleInput('', 'UTC', now)).toEqual({ ok: false, message: SCHEDULE_REQUIRED });
    expect(parseScheduleInput('2027-02-31T10:00', 'UTC', now)).toEqual({ ok: false, message: SCHEDULE_REQUIRED });
    expect(parseScheduleInput('tomorrow', 'UTC', now)).toEqual({ ok: false, message: SCHEDULE_REQUIRED });
  });

  it('starts the picker at tomorrow 09:00 in the zone, which is valid', () => {
    expect(defaultScheduleValue('UTC', now)).toBe('2026-04-11T09:00');
    expect(parseScheduleInput(defaultScheduleValue('Pacific/Auckland', now), 'Pacific/Auckland', now).ok).toBe(true);
    // Already 11 April in Auckland: tomorrow there is the 12th.
    expect(defaultScheduleValue('Pacific/Auckland', now)).toBe('2026-04-12T09:00');
    expect(toLocalInputValue(new Date('2026-01-05T12:03:00Z'), 'America/New_York')).toBe('2026-01-05T07:03');
  });

  it('names the zone in the confirmation', () => {
    expect(formatScheduleTime(new Date('2026-05-01T13:00:00Z'), 'America/New_York')).toBe(
      'Friday, May 1, 2026 at 9:00 AM EDT',
    );
  });
});
