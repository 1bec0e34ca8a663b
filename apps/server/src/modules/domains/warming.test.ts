import { describe, expect, it } from 'vitest';
import {
  dailyLimit,
  nextIncreaseInDays,
  nextUtcDayStart,
  remainingToday,
  utcDay,
  WARMING_DAYS,
  warmingDay,
  warmingProgress,
  warmingState,
  warmingWeek,
} from './warming.ts';

const START = new Date('2026-06-01T18:30:00Z');
const onDay = (day: number, time = '09:00:00') => new Date(`${utcDay(new Date(Date.UTC(2026, 5, 1 + day)))}T${time}Z`);

describe('warming schedule', () => {
  it('rises 1,000 → 2,500 → 5,000 → 10,000 a day over four weeks, then has no warming cap', () => {
    const limits = Array.from({ length: 30 }, (_, day) => dailyLimit(START, onDay(day)));
    expect(limits.slice(0, 7)).toEqual(Array(7).fill(1_000));
    expect(limits.slice(7, 14)).toEqual(Array(7).fill(2_500));
    expect(limits.slice(14, 21)).toEqual(Array(7).fill(5_000));
    expect(limits.slice(21, 28)).toEqual(Array(7).fill(10_000));
    expect(limits.slice(28)).toEqual([null, null]);
    expect(WARMING_DAYS).toBe(28);
  });

  it('counts UTC calendar days from the day of the first verification', () => {
    expect(warmingDay(START, new Date('2026-06-01T23:59:59Z'))).toBe(0);
    expect(warmingDay(START, new Date('2026-06-02T00:00:00Z'))).toBe(1);
    // A clock behind the start never gives a negative day.
    expect(warmingDay(START, new Date('2026-05-30T00:00:00Z'))).toBe(0);
  });

  it('reports week N of 4, progress and the next increase', () => {
    expect(warmingState(START, onDay(0))).toEqual({
      status: 'warming',
      week: 1,
      progress: 0,
      dailyLimit: 1_000,
      nextIncreaseInDays: 7,
    });
    expect(warmingState(START, onDay(6))).toMatchObject({ week: 1, nextIncreaseInDays: 1, progress: 21 });
    expect(warmingState(START, onDay(7))).toMatchObject({ week: 2, nextIncreaseInDays: 7, progress: 25 });
    expect(warmingState(START, onDay(17))).toMatchObject({ week: 3, nextIncreaseInDays: 4, progress: 61 });
    expect(warmingState(START, onDay(27))).toMatchObject({
      week: 4,
      nextIncreaseInDays: 1,
      progress: 96,
      status: 'warming',
    });
    expect(warmingState(START, onDay(28))).toEqual({
      status: 'complete',
      week: 4,
      progress: 100,
      dailyLimit: null,
      nextIncreaseInDays: null,
    });
    expect(warmingProgress(START, onDay(14))).toBe(50);
    expect(warmingWeek(START, onDay(20))).toBe(3);
    expect(nextIncreaseInDays(START, onDay(21))).toBe(7);
  });

  it('holds an unverified domain to the first week’s cap without starting the clock', () => {
    expect(warmingState(null, onDay(40))).toEqual({
      status: 'not_started',
      week: 1,
      progress: 0,
      dailyLimit: 1_000,
      nextIncreaseInDays: null,
    });
  });

  it('answers what is left today', () => {
    expect(remainingToday({ warmingStartedAt: START }, 0, onDay(0))).toBe(1_000);
    expect(remainingToday({ warmingStartedAt: START }, 999, onDay(0))).toBe(1);
    expect(remainingToday({ warmingStartedAt: START }, 1_500, onDay(0))).toBe(0);
    expect(remainingToday({ warmingStartedAt: START }, 1_500, onDay(8))).toBe(1_000);
    expect(remainingToday({ warmingStartedAt: START }, 50_000, onDay(30))).toBeNull();
  });

  it('resets at the next UTC midnight', () => {
    expect(nextUtcDayStart(new Date('2026-06-30T23:10:00Z')).toISOString()).toBe('2026-07-01T00:00:00.000Z');
    expect(utcDay(new Date('2026-06-30T23:10:00-05:00'))).toBe('2026-07-01');
  });
});
