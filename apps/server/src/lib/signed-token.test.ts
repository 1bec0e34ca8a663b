import { createHmac, hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { legacyToken } from '../../test/legacy-tokens.ts';
import { signRecipientToken, verifyLegacyIds, verifyRecipientToken } from './signed-token.ts';

const secret = 'a-session-secret-of-enough-length-0123456789';

describe('recipient tokens', () => {
  it('are base64url(send id).base64url(first 16 bytes of HMAC-SHA-256 under the recipient key)', () => {
    const key = Buffer.from(hkdfSync('sha256', secret, 'sendwell-tokens', 'sendwell recipient token', 32));
    const payload = Buffer.from('1000001').toString('base64url');
    const mac = createHmac('sha256', key).update(payload).digest().subarray(0, 16).toString('base64url');
    expect(signRecipientToken(secret, 1000001)).toBe(`${payload}.${mac}`);
    expect(mac).toHaveLength(22);
  });

  it('verify to their send id, for this secret only, and not once altered', () => {
    for (const sendId of [1, 42, 1_000_001, Number.MAX_SAFE_INTEGER]) {
      const token = signRecipientToken(secret, sendId);
      expect(verifyRecipientToken(secret, token)).toBe(sendId);
      expect(verifyRecipientToken(`${secret}x`, token)).toBeNull();
      const [payload, mac] = token.split('.') as [string, string];
      expect(
        verifyRecipientToken(secret, `${payload}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BA' : 'AA'}`),
      ).toBeNull();
      expect(
        verifyRecipientToken(secret, `${Buffer.from(String(sendId + 1)).toString('base64url')}.${mac}`),
      ).toBeNull();
      expect(verifyRecipientToken(secret, `${payload}.${mac.slice(0, -1)}`)).toBeNull();
      expect(verifyRecipientToken(secret, `${token}.x`)).toBeNull();
      expect(verifyRecipientToken(secret, `${token}=`)).toBeNull();
    }
    for (const junk of ['', '.', 'abc', 'a.b', 'not-a-token', `${'A'.repeat(200)}.${'A'.repeat(22)}`])
      expect(verifyRecipientToken(secret, junk)).toBeNull();
  });

  it('are not tokens of another kind, nor the other way round', () => {
    const token = signRecipientToken(secret, 77);
    for (const purpose of ['open', 'click', 'unsubscribe'] as const) {
      expect(verifyLegacyIds(secret, purpose, token, 1)).toBeNull();
      expect(verifyRecipientToken(secret, legacyToken(secret, purpose, [77]))).toBeNull();
    }
  });

  it('name only positive safe integers', () => {
    const key = Buffer.from(hkdfSync('sha256', secret, 'sendwell-tokens', 'sendwell recipient token', 32));
    const signed = (text: string) => {
      const payload = Buffer.from(text).toString('base64url');
      return `${payload}.${createHmac('sha256', key).update(payload).digest().subarray(0, 16).toString('base64url')}`;
    };
    expect(verifyRecipientToken(secret, signed('12'))).toBe(12);
    for (const bad of ['0', '-1', '1.5', '1.2', 'x', '', '9007199254740993'])
      expect(verifyRecipientToken(secret, signed(bad))).toBeNull();
  });
});

/**
 * Tokens as the hand-written HMAC (lib/hmac-sha256.ts, via signIds) made them, captured from that
 * code before it was deleted (commit "Tracking tokens: eight tokens signed by the hand-written
 * HMAC ..."): [secret, purpose, ids, token]. Mail already sent carries tokens like these, so they
 * must verify with node:crypto's HMAC for as long as such mail can be clicked.
 */
const SECRETS = [
  'a-session-secret-of-enough-length-0123456789',
  '3f9c1e7a5b2d48f0a6c4e2b8d0f1a3c5e7b9d1f3a5c7e9b1d3f5a7c9e1b3d5f7',
];
const SENT_TOKENS: [number, 'open' | 'click' | 'unsubscribe', number[], string][] = [
  [0, 'open', [1], 'MQ.OQG-WRqEZEZX3FgcJMvwDA'],
  [0, 'open', [1000001], 'MTAwMDAwMQ.VNX3O-uriQJAUdtBQUGbRg'],
  [0, 'unsubscribe', [1000001], 'MTAwMDAwMQ.sDQWLiE-LY7DLgluch75dQ'],
  [0, 'click', [1000001, 5001], 'MTAwMDAwMS41MDAx.-GRKi6GvmIzARg7rVpOf-g'],
  [0, 'click', [9007199254740991, 1], 'OTAwNzE5OTI1NDc0MDk5MS4x.SMDzYeICM3AvuuHe21rPTg'],
  [1, 'open', [987654321], 'OTg3NjU0MzIx.lGiB7du8T6A-a7LV0S9clA'],
  [1, 'unsubscribe', [42], 'NDI.Kwbos32-TMBgTtcSr7Kf6Q'],
  [1, 'click', [7, 123456], 'Ny4xMjM0NTY.Go53aYhfnc7o2P9fejJQCg'],
];

describe('tokens in mail already sent', () => {
  it('are what node:crypto computes (the test helper that makes old tokens for the other tests)', () => {
    for (const [s, purpose, ids, token] of SENT_TOKENS)
      expect(legacyToken(SECRETS[s] as string, purpose, ids)).toBe(token);
  });

  it('verify with node:crypto for their own purpose and secret only', () => {
    for (const [s, purpose, ids, token] of SENT_TOKENS) {
      const secretUsed = SECRETS[s] as string;
      expect(verifyLegacyIds(secretUsed, purpose, token, ids.length)).toEqual(ids);
      expect(verifyLegacyIds(SECRETS[1 - s] as string, purpose, token, ids.length)).toBeNull();
      expect(verifyLegacyIds(secretUsed, purpose, `${token.slice(0, -2)}AA`, ids.length)).toBeNull();
      expect(verifyRecipientToken(secretUsed, token)).toBeNull();
      for (const other of ['open', 'click', 'unsubscribe'] as const)
        if (other !== purpose) expect(verifyLegacyIds(secretUsed, other, token, ids.length)).toBeNull();
    }
  });
});
