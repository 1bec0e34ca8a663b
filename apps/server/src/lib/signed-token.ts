import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** What a token is for; each purpose has its own key, so a token for one cannot be used as another. */
export type TokenPurpose = 'open' | 'click' | 'unsubscribe';

const keys = new Map<string, Buffer>();
function keyFor(secret: string, purpose: TokenPurpose): Buffer {
  const id = `${purpose}:${secret}`;
  let key = keys.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'sendwell-tokens', `sendwell ${purpose} token`, 32));
    keys.set(id, key);
  }
  return key;
}

function mac(secret: string, purpose: TokenPurpose, payload: string): Buffer {
  return createHmac('sha256', keyFor(secret, purpose)).update(payload).digest().subarray(0, 16);
}

/** An opaque token for numeric ids (no email or other personal data): base64url(ids).base64url(hmac). */
export function signIds(secret: string, purpose: TokenPurpose, ids: number[]): string {
  const payload = Buffer.from(ids.join('.')).toString('base64url');
  return `${payload}.${mac(secret, purpose, payload).toString('base64url')}`;
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
