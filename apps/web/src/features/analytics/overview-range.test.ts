import { describe, expect, it } from 'vitest';
import { OVERVIEW_DATE_INVALID, OVERVIEW_RANGE_REVERSED, OVERVIEW_RANGE_TOO_LONG } from '@sendwell/contract/analytics';
import { checkCustomRange, formatDay, presetRange } from './overview-range';

describe('the range picker’s ranges', () => {
  it('ends a preset today (UTC) and counts today among its days', () => {
    expect(presetRange(7, new Date('2026-03-10T23:30:00Z'))).toEqual({ from: '2026-03-04', to: '2026-03-10' });
    expect(presetRange(90, new Date('2026-03-10T00:00:00Z'))).toEqual({ from: '2025-12-11', to: '2026-03-10' });
  });

  it('checks a custom range with the contract’s rules', () => {
    expect(checkCustomRange('2026-03-01', '2026-03-01')).toEqual({
      range: { from: '2026-03-01', to: '2026-03-01' },
      error: null,
    });
    expect(checkCustomRange('2026-03-02', '2026-03-01').error).toEqual({
      field: 'from',
      message: OVERVIEW_RANGE_REVERSED,
    });
    expect(checkCustomRange('2025-01-01', '2026-03-01').error).toEqual({
      field: 'to',
      message: OVERVIEW_RANGE_TOO_LONG,
    });
    expect(checkCustomRange('', '2026-03-01').error).toEqual({ field: 'from', message: OVERVIEW_DATE_INVALID });
  });

  it('labels a day as the UTC day it counts', () => {
    expect(formatDay('2026-03-04')).toBe('Mar 4');
  });
});
