import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { HmacSha256Key } from './hmac-sha256.ts';

/** What a token is for; each purpose has its own key, so a token for one cannot be used as another. */
export type TokenPurpose = 'open' | 'click' | 'unsubscribe';

type PurposeKey = { raw: Buffer; signer: HmacSha256Key };
const keys = new Map<string, Map<TokenPurpose, PurposeKey>>();
function keyFor(secret: string, purpose: TokenPurpose): PurposeKey {
  let bySecret = keys.get(secret);
  if (!bySecret) keys.set(secret, (bySecret = new Map()));
  let key = bySecret.get(purpose);
  if (!key) {
    const raw = Buffer.from(hkdfSync('sha256', secret, 'sendwell-tokens', `sendwell ${purpose} token`, 32));
    key = { raw, signer: new HmacSha256Key(raw) };
    bySecret.set(purpose, key);
  }
  return key;
}

const MAC_BYTES = 16;

/** The (truncated) HMAC of a payload; node:crypto's, used to verify what `signIds` made. */
function mac(secret: string, purpose: TokenPurpose, payload: string): Buffer {
  return createHmac('sha256', keyFor(secret, purpose).raw).update(payload).digest().subarray(0, MAC_BYTES);
}

/**
 * An opaque token for numeric ids (no email or other personal data): base64url(ids).base64url(hmac).
 * Signed with the midstate HMAC (the send path signs ~6 per recipient); the same MAC as `mac`.
 */
export function signIds(secret: string, purpose: TokenPurpose, ids: number[]): string {
  const payload = Buffer.from(ids.join('.'), 'latin1').toString('base64url');
  return `${payload}.${keyFor(secret, purpose).signer.sign(payload, MAC_BYTES).toString('base64url')}`;
}

/** The ids in a token, or null when it is malformed or its signature does not match (constant-time). */
export function verifyIds(secret: string, purpose: TokenPurpose, token: string, count: number): number[] | null {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined || token.length > 200) return null;
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(secret, purpose, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const ids = Buffer.from(payload, 'base64url').toString().split('.').map(Number);
  return ids.length === count && ids.every((id) => Number.isSafeInteger(id) && id > 0) ? ids : null;
}
