import { describe, expect, it } from 'vitest';
import { legacyToken } from '../../../test/legacy-tokens.ts';
import { signRecipientToken } from '../../lib/signed-token.ts';
import { legacyClick, parseLinkIndex, sendOfOpenToken, sendOfUnsubscribeToken } from './tracking-tokens.ts';

const secret = 'a-session-secret-of-enough-length-0123456789';

describe('tracking tokens', () => {
  it('accept a recipient token for the pixel and the unsubscribe page', () => {
    const token = signRecipientToken(secret, 31);
    expect(sendOfOpenToken(secret, token)).toBe(31);
    expect(sendOfUnsubscribeToken(secret, token)).toBe(31);
    expect(legacyClick(secret, token)).toBeNull();
    expect(sendOfOpenToken('another-secret-another-secret-another-1', token)).toBeNull();
  });

  it('accept an older token only for the purpose it was signed for', () => {
    expect(sendOfOpenToken(secret, legacyToken(secret, 'open', [5]))).toBe(5);
    expect(sendOfUnsubscribeToken(secret, legacyToken(secret, 'open', [5]))).toBeNull();
    expect(sendOfUnsubscribeToken(secret, legacyToken(secret, 'unsubscribe', [5]))).toBe(5);
    expect(sendOfOpenToken(secret, legacyToken(secret, 'unsubscribe', [5]))).toBeNull();
    expect(legacyClick(secret, legacyToken(secret, 'click', [5, 9]))).toEqual({ sendId: 5, linkId: 9 });
    expect(legacyClick(secret, legacyToken(secret, 'click', [5]))).toBeNull();
    expect(sendOfOpenToken(secret, legacyToken(secret, 'click', [5, 9]))).toBeNull();
  });

  it('read a link index as a plain decimal number only', () => {
    expect(['0', '1', '42', '999999'].map(parseLinkIndex)).toEqual([0, 1, 42, 999999]);
    for (const bad of ['', '-1', '01', '1.0', '1e2', '0x1', ' 1', '1 ', '+1', '1000000', 'x'])
      expect(parseLinkIndex(bad), bad).toBeNull();
  });
});
