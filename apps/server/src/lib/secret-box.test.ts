import { describe, expect, it } from 'vitest';
import { openSecret, sealSecret } from './secret-box.ts';

const SECRET = 'a-server-secret-of-at-least-32-characters';

describe('secret box', () => {
  it('round-trips and uses a fresh IV each time', () => {
    const a = sealSecret(SECRET, 'dkim', 'private key');
    const b = sealSecret(SECRET, 'dkim', 'private key');
    expect(a).not.toBe(b);
    expect(a).not.toContain('private key');
    expect(a.split(':')).toHaveLength(3);
    expect(openSecret(SECRET, 'dkim', a)).toBe('private key');
  });

  it('refuses another secret, another purpose and altered ciphertext', () => {
    const sealed = sealSecret(SECRET, 'dkim', 'private key');
    expect(() => openSecret(`${SECRET}x`, 'dkim', sealed)).toThrow();
    expect(() => openSecret(SECRET, 'other', sealed)).toThrow();
    const [iv, tag, data] = sealed.split(':') as [string, string, string];
    const flipped = Buffer.from(data, 'base64');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => openSecret(SECRET, 'dkim', [iv, tag, flipped.toString('base64')].join(':'))).toThrow();
    expect(() => openSecret(SECRET, 'dkim', 'garbage')).toThrow('malformed');
  });
});
