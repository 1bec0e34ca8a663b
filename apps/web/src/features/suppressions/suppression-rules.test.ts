import { describe, expect, it } from 'vitest';
import { suppressionReasonLabel, suppressionsRangeText } from './suppression-rules';

describe('suppression list wording', () => {
  it('names each reason, telling a hard bounce from the soft-bounce threshold', () => {
    expect(suppressionReasonLabel({ reason: 'bounce', detail: 'user-unknown: 5.1.1 no such user' })).toBe(
      'Hard bounce',
    );
    expect(suppressionReasonLabel({ reason: 'bounce', detail: null })).toBe('Hard bounce');
    expect(
      suppressionReasonLabel({ reason: 'bounce', detail: '3 soft bounces within 30 days; last: mailbox-full' }),
    ).toBe('Soft bounces');
    expect(suppressionReasonLabel({ reason: 'complaint', detail: 'abuse' })).toBe('Complaint');
    expect(suppressionReasonLabel({ reason: 'unsubscribe', detail: null })).toBe('Unsubscribed');
    expect(suppressionReasonLabel({ reason: 'unengaged', detail: 'No human open or click in 180 days' })).toBe(
      'Unengaged',
    );
    expect(suppressionReasonLabel({ reason: 'something-new', detail: null })).toBe('something-new');
  });

  it('says which rows are shown', () => {
    expect(suppressionsRangeText(1, 50, 0, 0)).toBe('0 suppressed');
    expect(suppressionsRangeText(2, 50, 120, 50)).toBe('Showing 51–100 of 120');
  });
});
