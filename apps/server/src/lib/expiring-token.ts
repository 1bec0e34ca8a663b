import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * Signed, expiring tokens for the confirmation links Sendwell mails (an account's own address, a
 * sender address): base64url(expiry '.' subject) '.' base64url(MAC), where MAC is the first 16 bytes
 * of HMAC-SHA-256 (node:crypto) under a key derived from the session secret with HKDF, one key per
 * purpose, so a token of one purpose never verifies as another. The subject names what the link
 * confirms, the address included: a link stops working once its address changes or its row is gone.
 * Nothing is stored; a link may be used again, which confirms nothing new.
 */
export type ExpiringTokenPurpose =
  'account-email' | 'sender-address' | 'forward-address' | 'lead-form' | 'password-reset';

export type ReadToken =
  | { status: 'valid'; subject: string; expiresAt: Date }
  | { status: 'expired'; subject: string; expiresAt: Date }
  | { status: 'invalid' };

const MAC_BYTES = 16;
const MAX_TOKEN_LENGTH = 600;

const keys = new Map<string, Buffer>();
function keyFor(secret: string, purpose: ExpiringTokenPurpose): Buffer {
  const cacheKey = `${purpose}\u0000${secret}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'sendwell-expiring-tokens', `sendwell ${purpose} link`, 32));
    keys.set(cacheKey, key);
  }
  return key;
}

const mac = (secret: string, purpose: ExpiringTokenPurpose, payload: string) =>
  createHmac('sha256', keyFor(secret, purpose)).update(payload).digest().subarray(0, MAC_BYTES);

/** A token for `subject` that verifies, for this purpose only, until `expiresAt` (to the second). */
export function signExpiringToken(
  secret: string,
  purpose: ExpiringTokenPurpose,
  subject: string,
  expiresAt: Date,
): string {
  const payload = Buffer.from(`${Math.floor(expiresAt.getTime() / 1000)}.${subject}`, 'utf8').toString('base64url');
  return `${payload}.${mac(secret, purpose, payload).toString('base64url')}`;
}

/**
 * What a token says: its subject while it is valid, 'expired' (the MAC matches, the time has
 * passed) or 'invalid' (malformed, tampered with, another purpose's or another secret's).
 * The MAC is compared in constant time.
 */
export function readExpiringToken(
  secret: string,
  purpose: ExpiringTokenPurpose,
  token: string,
  now: Date = new Date(),
): ReadToken {
  if (token.length > MAX_TOKEN_LENGTH) return { status: 'invalid' };
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return { status: 'invalid' };
  const given = Buffer.from(signature, 'base64url');
  // Only the canonical spelling: no other characters that decode to the same bytes.
  if (given.toString('base64url') !== signature) return { status: 'invalid' };
  const expected = mac(secret, purpose, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { status: 'invalid' };
  const text = Buffer.from(payload, 'base64url').toString('utf8');
  const dot = text.indexOf('.');
  const seconds = Number(text.slice(0, dot));
  if (dot <= 0 || !Number.isSafeInteger(seconds)) return { status: 'invalid' };
  const expiresAt = new Date(seconds * 1000);
  const subject = text.slice(dot + 1);
  return expiresAt.getTime() <= now.getTime()
    ? { status: 'expired', subject, expiresAt }
    : { status: 'valid', subject, expiresAt };
}
