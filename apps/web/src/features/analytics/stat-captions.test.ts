import { describe, expect, it } from 'vitest';
import {
  clickRateCaption,
  NO_CAMPAIGNS_SENT,
  NO_PREVIOUS_DATA,
  NO_RECENT_CAMPAIGNS,
  openRateCaption,
  revenueCaption,
  subscribersCaption,
} from './stat-captions';

describe('dashboard stat captions', () => {
  it('compare subscribers and revenue in percent, and say so when there is nothing to compare with', () => {
    expect(subscribersCaption({ current: 6, previous: 5, changePercent: 20 })).toEqual({
      text: '+20% vs 30 days ago',
      direction: 'up',
    });
    expect(subscribersCaption({ current: 4, previous: 5, changePercent: -20 })).toEqual({
      text: '−20% vs 30 days ago',
      direction: 'down',
    });
    expect(subscribersCaption({ current: 0, previous: 0, changePercent: null })).toEqual({
      text: NO_PREVIOUS_DATA,
      direction: 'none',
    });
    expect(revenueCaption({ current: 25, previous: 10, changePercent: 150 })).toEqual({
      text: '+150% vs previous 30 days',
      direction: 'up',
    });
    expect(revenueCaption({ current: 10, previous: 10, changePercent: 0 })).toEqual({
      text: '0% vs previous 30 days',
      direction: 'flat',
    });
    expect(revenueCaption({ current: 12.5, previous: null, changePercent: null }).text).toBe(
      'No data from the previous 30 days',
    );
  });

  it('put the open rate against the industry average from the real figure', () => {
    expect(openRateCaption({ industryAverage: 25, differencePoints: 9.4 })).toEqual({
      text: '9.4 pts above industry avg (25%)',
      direction: 'up',
    });
    expect(openRateCaption({ industryAverage: 25, differencePoints: -5 })).toEqual({
      text: '5.0 pts below industry avg (25%)',
      direction: 'down',
    });
    expect(openRateCaption({ industryAverage: 25, differencePoints: 0 })).toEqual({
      text: 'At the industry avg (25%)',
      direction: 'flat',
    });
    expect(openRateCaption(null)).toEqual({ text: NO_CAMPAIGNS_SENT, direction: 'none' });
  });

  it('compare click rates in percentage points', () => {
    expect(clickRateCaption({ current: 5, previous: 2, changePoints: 3 }, true)).toEqual({
      text: '+3.0 pts vs previous 30 days',
      direction: 'up',
    });
    expect(clickRateCaption({ current: 1.5, previous: 2, changePoints: -0.5 }, true)).toEqual({
      text: '−0.5 pts vs previous 30 days',
      direction: 'down',
    });
    expect(clickRateCaption({ current: 2, previous: null, changePoints: null }, true).text).toBe(NO_PREVIOUS_DATA);
    expect(clickRateCaption({ current: null, previous: 2, changePoints: null }, true).text).toBe(NO_RECENT_CAMPAIGNS);
    // Never a campaign: the same words as the Open Rate card beside it.
    expect(clickRateCaption({ current: null, previous: null, changePoints: null }, false).text).toBe(NO_CAMPAIGNS_SENT);
  });
});
