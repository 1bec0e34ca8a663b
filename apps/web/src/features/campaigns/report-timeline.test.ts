import { describe, expect, it } from 'vitest';

import { fillTimeline } from './report-timeline';

const at = (day: number, hour: number) => new Date(Date.UTC(2026, 3, day, hour)).toISOString();

describe('fillTimeline', () => {
  it('fills the quiet hours with zeros', () => {
    const { points, step } = fillTimeline([
      { at: at(10, 12), opens: 1, clicks: 0 },
      { at: at(10, 9), opens: 3, clicks: 1 },
    ]);
    expect(step).toBe('hour');
    expect(points).toEqual([
      { at: at(10, 9), opens: 3, clicks: 1 },
      { at: at(10, 10), opens: 0, clicks: 0 },
      { at: at(10, 11), opens: 0, clicks: 0 },
      { at: at(10, 12), opens: 1, clicks: 0 },
    ]);
  });

  it('sums per day over more than three days', () => {
    const { points, step } = fillTimeline([
      { at: at(1, 9), opens: 2, clicks: 1 },
      { at: at(1, 20), opens: 1, clicks: 0 },
      { at: at(5, 8), opens: 4, clicks: 2 },
    ]);
    expect(step).toBe('day');
    expect(points.map((p) => [p.at, p.opens, p.clicks])).toEqual([
      [at(1, 0), 3, 1],
      [at(2, 0), 0, 0],
      [at(3, 0), 0, 0],
      [at(4, 0), 0, 0],
      [at(5, 0), 4, 2],
    ]);
  });

  it('is empty for no activity', () => {
    expect(fillTimeline([])).toEqual({ points: [], step: 'hour' });
  });
});
