import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HmacSha256Key } from './hmac-sha256.ts';

describe('HmacSha256Key', () => {
  it('matches the RFC 4231 test vectors', () => {
    expect(new HmacSha256Key(Buffer.alloc(20, 0x0b)).sign('Hi There').toString('hex')).toBe(
      'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
    );
    expect(new HmacSha256Key(Buffer.from('Jefe')).sign('what do ya want for nothing?').toString('hex')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('equals node:crypto for any key up to 64 bytes and any ASCII message, across block boundaries', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 64 }),
        fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)), maxLength: 200 }),
        fc.integer({ min: 1, max: 32 }),
        (key, message, bytes) => {
          const expected = createHmac('sha256', key).update(message, 'latin1').digest().subarray(0, bytes);
          expect(new HmacSha256Key(key).sign(message, bytes).equals(expected)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
    // Lengths around the padding boundaries (55, 56, 63, 64 bytes) explicitly.
    const key = new HmacSha256Key(Buffer.alloc(32, 7));
    for (const length of [0, 1, 54, 55, 56, 57, 63, 64, 65, 119, 120, 128]) {
      const message = 'a'.repeat(length);
      expect(key.sign(message).equals(createHmac('sha256', Buffer.alloc(32, 7)).update(message).digest())).toBe(true);
    }
  });

  it('refuses what it does not implement rather than answer a wrong MAC', () => {
    expect(() => new HmacSha256Key(Buffer.alloc(65))).toThrow(RangeError);
    expect(() => new HmacSha256Key(Buffer.alloc(32)).sign('é')).toThrow(RangeError);
  });
});
