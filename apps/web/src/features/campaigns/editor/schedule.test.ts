import { describe, expect, it } from 'vitest';

import {
  defaultScheduleValue,
  parseScheduleInput,
  SCHEDULE_IN_PAST,
  SCHEDULE_REQUIRED,
  toLocalInputValue,
} from './schedule';

const now = new Date(2026, 3, 10, 14, 30); // 10 April 2026, 14:30 local

describe('schedule validation', () => {
  it('reads the input in local time and gives the ISO instant', () => {
    const result = parseScheduleInput('2026-04-11T09:00', now);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.date.getTime()).toBe(new Date(2026, 3, 11, 9, 0).getTime());
      expect(result.iso).toBe(new Date(2026, 3, 11, 9, 0).toISOString());
    }
  });

  it('must be in the future', () => {
    expect(parseScheduleInput('2026-04-10T14:30', now)).toEqual({ ok: false, message: SCHEDULE_IN_PAST });
    expect(parseScheduleInput('2025-01-01T10:00', now)).toEqual({ ok: false, message: SCHEDULE_IN_PAST });
    expect(parseScheduleInput('2026-04-10T14:31', now).ok).toBe(true);
  });

  it('refuses empty and impossible dates', () => {
    expect(parseScheduleInput('', now)).toEqual({ ok: false, message: SCHEDULE_REQUIRED });
    expect(parseScheduleInput('2027-02-31T10:00', now)).toEqual({ ok: false, message: SCHEDULE_REQUIRED });
    expect(parseScheduleInput('tomorrow', now)).toEqual({ ok: false, message: SCHEDULE_REQUIRED });
  });

  it('starts the picker at tomorrow 09:00, which is valid', () => {
    expect(defaultScheduleValue(now)).toBe('2026-04-11T09:00');
    expect(parseScheduleInput(defaultScheduleValue(now), now).ok).toBe(true);
    expect(defaultScheduleValue(new Date(2026, 11, 31, 23, 0))).toBe('2027-01-01T09:00');
    expect(toLocalInputValue(new Date(2026, 0, 5, 7, 3))).toBe('2026-01-05T07:03');
  });
});
