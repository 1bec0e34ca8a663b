import { describe, expect, it } from 'vitest';

import { campaignErrorText, SEND_FAILED } from './campaign-toasts';

describe('campaignErrorText', () => {
  it('shows the server’s message for a 4xx', () => {
    expect(
      campaignErrorText(new Error('403: {"message":"Your plan has 10 emails left this month."}'), SEND_FAILED),
    ).toBe('Your plan has 10 emails left this month.');
    expect(campaignErrorText(new Error('422: {"message":"Add your postal address before sending"}'), SEND_FAILED)).toBe(
      'Add your postal address before sending',
    );
  });
  it('falls back to the spec text for 5xx, network failures and bodies without a message', () => {
    expect(campaignErrorText(new Error('500: {"message":"Something went wrong"}'), SEND_FAILED)).toBe(SEND_FAILED);
    expect(campaignErrorText(new TypeError('Failed to fetch'), SEND_FAILED)).toBe(SEND_FAILED);
    expect(campaignErrorText(new Error('400: Bad Request'), SEND_FAILED)).toBe(SEND_FAILED);
  });
});
