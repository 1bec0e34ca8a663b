import { createHmac, hkdfSync } from 'node:crypto';

/**
 * A token as mail signed before per-recipient tokens carries it, computed with node:crypto alone:
 * base64url(ids joined by '.') '.' base64url(first 16 bytes of HMAC-SHA-256 under the purpose's
 * HKDF key). The app verifies such tokens but no longer signs them; tests make them here.
 */
export function legacyToken(secret: string, purpose: 'open' | 'click' | 'unsubscribe', ids: number[]): string {
  const key = Buffer.from(hkdfSync('sha256', secret, 'sendwell-tokens', `sendwell ${purpose} token`, 32));
  const payload = Buffer.from(ids.join('.')).toString('base64url');
  return `${payload}.${createHmac('sha256', key).update(payload).digest().subarray(0, 16).toString('base64url')}`;
}
