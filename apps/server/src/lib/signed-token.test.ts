import { createHmac, hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signIds, verifyIds } from './signed-token.ts';

const secret = 'a-session-secret-of-enough-length-0123456789';

describe('signed id tokens', () => {
  it('are base64url(ids).base64url(first 16 bytes of HMAC-SHA-256 under the purpose key)', () => {
    const key = Buffer.from(hkdfSync('sha256', secret, 'sendwell-tokens', 'sendwell click token', 32));
    const payload = Buffer.from('1000001.5001').toString('base64url');
    const mac = createHmac('sha256', key).update(payload).digest().subarray(0, 16).toString('base64url');
    expect(signIds(secret, 'click', [1000001, 5001])).toBe(`${payload}.${mac}`);
  });

  it('verify for their purpose only, and not once altered', () => {
    for (const ids of [[1], [42, 7], [Number.MAX_SAFE_INTEGER, 1]]) {
      const token = signIds(secret, 'click', ids);
      expect(verifyIds(secret, 'click', token, ids.length)).toEqual(ids);
      expect(verifyIds(secret, 'open', token, ids.length)).toBeNull();
      expect(verifyIds(`${secret}x`, 'click', token, ids.length)).toBeNull();
      expect(verifyIds(secret, 'click', `${token.slice(0, -2)}AA`, ids.length)).toBeNull();
    }
  });
});

/**
 * Tokens as the hand-written HMAC (lib/hmac-sha256.ts, via signIds) made them, captured from that
 * code: [secret, purpose, ids, token]. Mail already sent carries tokens like these, so they must
 * verify with node:crypto's HMAC for as long as such mail can be clicked.
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

/** The old token format computed with node:crypto alone: base64url(ids).base64url(HMAC-SHA-256 under the purpose key, 16 bytes). */
function sentTokenByNodeCrypto(secret: string, purpose: string, ids: number[]): string {
  const key = Buffer.from(hkdfSync('sha256', secret, 'sendwell-tokens', `sendwell ${purpose} token`, 32));
  const payload = Buffer.from(ids.join('.')).toString('base64url');
  return `${payload}.${createHmac('sha256', key).update(payload).digest().subarray(0, 16).toString('base64url')}`;
}

describe('tokens in mail already sent', () => {
  it('are what the hand-written HMAC signs, and what node:crypto computes', () => {
    for (const [s, purpose, ids, token] of SENT_TOKENS) {
      const secretUsed = SECRETS[s] as string;
      expect(signIds(secretUsed, purpose, ids)).toBe(token);
      expect(sentTokenByNodeCrypto(secretUsed, purpose, ids)).toBe(token);
    }
  });

  it('verify for their own purpose and secret only', () => {
    for (const [s, purpose, ids, token] of SENT_TOKENS) {
      const secretUsed = SECRETS[s] as string;
      expect(verifyIds(secretUsed, purpose, token, ids.length)).toEqual(ids);
      expect(verifyIds(SECRETS[1 - s] as string, purpose, token, ids.length)).toBeNull();
      for (const other of ['open', 'click', 'unsubscribe'] as const)
        if (other !== purpose) expect(verifyIds(secretUsed, other, token, ids.length)).toBeNull();
    }
  });
});
