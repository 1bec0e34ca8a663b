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
