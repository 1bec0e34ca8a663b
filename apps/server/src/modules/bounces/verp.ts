import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * Per-message return paths (VERP): `bounces+<ledger letter><send id>-<mac>@<bounce host>`, the
 * letter naming the ledger the row is in: 's' a campaign send (campaign_sends, the first and
 * still valid form), 'q' a sequence send (sequence_sends). A bounce that comes
 * back to such an address names the send row it is about, whatever the notice itself says (or fails
 * to say). The MAC (HMAC-SHA-256 under a key derived from the session secret, first 8 bytes, hex) is
 * checked on the way back, so a forged or altered address names nothing.
 *
 * Everything in the local part is lower-case letters, digits and '-', because some mail systems
 * lower-case the addresses they bounce to. 64 bits of MAC are plenty against guessing over SMTP.
 */

const VERP_PREFIX = 'bounces';
const MAC_BYTES = 8;
/** Which send ledger a return path's row is in, and the letter that says so in the local part. */
export type VerpLedger = 'campaign' | 'sequence';
const LETTER: Record<VerpLedger, string> = { campaign: 's', sequence: 'q' };
const LOCAL_PART = new RegExp(`^${VERP_PREFIX}\\+([sq])([0-9a-z]{1,12})-([0-9a-f]{${MAC_BYTES * 2}})$`);

const keys = new Map<string, Buffer>();
function keyFor(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'sendwell-tokens', 'sendwell verp return path', 32));
    keys.set(secret, key);
  }
  return key;
}

function mac(secret: string, payload: string): Buffer {
  return createHmac('sha256', keyFor(secret)).update(payload).digest().subarray(0, MAC_BYTES);
}

/** The local part of the return path of send row `sendId` of the ledger (a campaign send unless told). */
export function verpLocalPart(secret: string, sendId: number, ledger: VerpLedger = 'campaign'): string {
  const payload = `${LETTER[ledger]}${sendId.toString(36)}`;
  return `${VERP_PREFIX}+${payload}-${mac(secret, payload).toString('hex')}`;
}

/** The return path of send row `sendId` at `host`. */
export function verpAddress(secret: string, sendId: number, host: string, ledger: VerpLedger = 'campaign'): string {
  return `${verpLocalPart(secret, sendId, ledger)}@${host.toLowerCase()}`;
}

/**
 * The send row a return path names and its ledger, or null when the address is no VERP address of
 * ours or its MAC does not match (compared in constant time; the MAC covers the ledger letter, so
 * a campaign send's address cannot be turned into a sequence send's). Any host: the token alone
 * proves it is ours.
 */
export function sendOfVerpAddress(
  secret: string,
  address: string | null | undefined,
): { ledger: VerpLedger; sendId: number } | null {
  if (!address) return null;
  const trimmed = address.trim().replace(/^<|>$/g, '').toLowerCase();
  const at = trimmed.lastIndexOf('@');
  if (at <= 0) return null;
  const match = LOCAL_PART.exec(trimmed.slice(0, at));
  if (!match?.[1] || !match[2] || !match[3]) return null;
  const given = Buffer.from(match[3], 'hex');
  const expected = mac(secret, `${match[1]}${match[2]}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const sendId = parseInt(match[2], 36);
  if (!Number.isSafeInteger(sendId) || sendId <= 0) return null;
  return { ledger: match[1] === 'q' ? 'sequence' : 'campaign', sendId };
}

/** The campaign send row a return path names, or null (also for a sequence send's return path). */
export function sendIdOfVerpAddress(secret: string, address: string | null | undefined): number | null {
  const send = sendOfVerpAddress(secret, address);
  return send?.ledger === 'campaign' ? send.sendId : null;
}

/**
 * Mailed unsubscribes (the mailto of List-Unsubscribe): `unsubscribe+<ledger letter><send id>-<mac>`
 * at the message's return-path host, which receives our bounces, so mail to it reaches our inbound
 * server too. The same form as a VERP return path, with its own MAC ('u' is in the MACed payload),
 * so a return path cannot be turned into an unsubscribe address or the other way round.
 */
const UNSUBSCRIBE_PREFIX = 'unsubscribe';
const UNSUBSCRIBE_LOCAL_PART = new RegExp(
  `^${UNSUBSCRIBE_PREFIX}\\+([sq])([0-9a-z]{1,12})-([0-9a-f]{${MAC_BYTES * 2}})$`,
);

/** The local part of the mailed-unsubscribe address of send row `sendId` of the ledger. */
export function unsubscribeLocalPart(secret: string, sendId: number, ledger: VerpLedger): string {
  const payload = `${LETTER[ledger]}${sendId.toString(36)}`;
  return `${UNSUBSCRIBE_PREFIX}+${payload}-${mac(secret, `u${payload}`).toString('hex')}`;
}

/**
 * The send row a mailed-unsubscribe address names, or null when it is not one of ours or its MAC
 * does not match (a forged or garbled address names nothing). Any host, as for return paths.
 */
export function sendOfUnsubscribeAddress(
  secret: string,
  address: string | null | undefined,
): { ledger: VerpLedger; sendId: number } | null {
  if (!address) return null;
  const trimmed = address.trim().replace(/^<|>$/g, '').toLowerCase();
  const at = trimmed.lastIndexOf('@');
  if (at <= 0) return null;
  const match = UNSUBSCRIBE_LOCAL_PART.exec(trimmed.slice(0, at));
  if (!match?.[1] || !match[2] || !match[3]) return null;
  const given = Buffer.from(match[3], 'hex');
  const expected = mac(secret, `u${match[1]}${match[2]}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const sendId = parseInt(match[2], 36);
  if (!Number.isSafeInteger(sendId) || sendId <= 0) return null;
  return { ledger: match[1] === 'q' ? 'sequence' : 'campaign', sendId };
}

/**
 * Whether mail to this address is a bounce for us to read: the inbound SMTP server's RCPT check
 * asks here (a valid VERP return path only; forged ones are refused at RCPT).
 */
export function isBounceAddress(config: { sessionSecret: string }, address: string): boolean {
  return sendOfVerpAddress(config.sessionSecret, address) !== null;
}
