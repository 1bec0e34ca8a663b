import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * Signed tokens for the links in campaign mail: base64url(ids joined by '.') '.' base64url(MAC),
 * where MAC is the first 16 bytes of HMAC-SHA-256 (node:crypto) under a key derived from the
 * session secret with HKDF, one key per kind of token. Tokens carry numeric ids only, no email or
 * other personal data.
 *
 * Mail signed now carries one recipient token (the send row's id) in all of its URLs; see
 * modules/rendering/tracked-links.ts for why one token may serve the open pixel, the clicks and the
 * unsubscribe page. Mail signed before that carries one token per purpose ('open' [sendId],
 * 'click' [sendId, linkId], 'unsubscribe' [sendId]), each under its own key; those keep verifying
 * (`verifyLegacyIds`) and are never signed again. Because every kind has its own key, no token of
 * one kind verifies as another.
 */

/** What a token signed before per-recipient tokens was for; each purpose had its own key. */
export type LegacyTokenPurpose = 'open' | 'click' | 'unsubscribe';
type KeyName = LegacyTokenPurpose | 'recipient' | 'sequence';

const MAC_BYTES = 16;
const MAX_TOKEN_LENGTH = 200;

const keys = new Map<string, Map<KeyName, Buffer>>();
function keyFor(secret: string, name: KeyName): Buffer {
  let bySecret = keys.get(secret);
  if (!bySecret) keys.set(secret, (bySecret = new Map()));
  let key = bySecret.get(name);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'sendwell-tokens', `sendwell ${name} token`, 32));
    bySecret.set(name, key);
  }
  return key;
}

function mac(secret: string, name: KeyName, payload: string): Buffer {
  return createHmac('sha256', keyFor(secret, name)).update(payload).digest().subarray(0, MAC_BYTES);
}

function signIds(secret: string, name: KeyName, ids: readonly number[]): string {
  const payload = Buffer.from(ids.join('.'), 'latin1').toString('base64url');
  return `${payload}.${mac(secret, name, payload).toString('base64url')}`;
}

/** The ids in a token, or null when it is malformed or its MAC does not match (compared in constant time). */
function verifyIds(secret: string, name: KeyName, token: string, count: number): number[] | null {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const given = Buffer.from(signature, 'base64url');
  // Only the canonical spelling: no other characters that decode to the same bytes.
  if (given.toString('base64url') !== signature) return null;
  const expected = mac(secret, name, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const ids = Buffer.from(payload, 'base64url').toString('latin1').split('.').map(Number);
  return ids.length === count && ids.every((id) => Number.isSafeInteger(id) && id > 0) ? ids : null;
}

/** The one token of a recipient's message: it names the send row (one recipient of one campaign). */
export function signRecipientToken(secret: string, sendId: number): string {
  return signIds(secret, 'recipient', [sendId]);
}

/** The send row a recipient token names, or null when the token is not one this secret signed. */
export function verifyRecipientToken(secret: string, token: string): number | null {
  return verifyIds(secret, 'recipient', token, 1)?.[0] ?? null;
}

/**
 * The token of a sequence email: it names the sequence send row (sequence_sends.id), under its own
 * key, so it never verifies as a campaign send's token nor the other way round.
 */
export function signSequenceToken(secret: string, sequenceSendId: number): string {
  return signIds(secret, 'sequence', [sequenceSendId]);
}

/** The sequence send a sequence token names, or null. */
export function verifySequenceToken(secret: string, token: string): number | null {
  return verifyIds(secret, 'sequence', token, 1)?.[0] ?? null;
}

/** The ids in a token signed before per-recipient tokens, for its own purpose only; null otherwise. */
export function verifyLegacyIds(
  secret: string,
  purpose: LegacyTokenPurpose,
  token: string,
  count: number,
): number[] | null {
  return verifyIds(secret, purpose, token, count);
}
