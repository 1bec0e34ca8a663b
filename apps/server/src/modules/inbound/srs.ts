import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * Sender Rewriting Scheme (Shevek's SRS0/SRS1) for the envelope sender of forwarded mail, so SPF
 * checks the forwarding domain (ours) and a bounce comes back to us, who can send it on to the
 * original sender:
 *
 *   SRS0=HHHHHH=TT=example.com=alice@alias-domain              (first hop: alice@example.com)
 *   SRS1=HHHHHH=fwd.example==GGGGGG=TT=example.com=alice@alias-domain  (already SRS0 from fwd.example)
 *
 * HHHHHH is the first 30 bits of HMAC-SHA-256 (key derived from the installation secret with HKDF),
 * in base32, over the lower-cased rest; TT the day (days since the epoch modulo 1024, base32). An
 * SRS0 address older than MAX_AGE_DAYS or with a wrong hash is refused, so the scheme never turns
 * into an open relay: only addresses we made, recently, reverse.
 */

export const SRS_MAX_AGE_DAYS = 21;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const HASH_CHARS = 6;
const DAY_MS = 86_400_000;

const keys = new Map<string, Buffer>();
function keyFor(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'sendwell-srs', 'sendwell srs hash', 32));
    keys.set(secret, key);
  }
  return key;
}

function base32(bytes: Buffer, chars: number): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < chars) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    if (out.length >= chars) break;
  }
  return out;
}

function hash(secret: string, ...parts: string[]): string {
  return base32(createHmac('sha256', keyFor(secret)).update(parts.join('=').toLowerCase()).digest(), HASH_CHARS);
}

function hashMatches(secret: string, given: string, ...parts: string[]): boolean {
  const expected = Buffer.from(hash(secret, ...parts));
  const actual = Buffer.from(given.toUpperCase());
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

function timestamp(now: Date): string {
  const day = Math.floor(now.getTime() / DAY_MS) % 1024;
  return `${BASE32[day >> 5]}${BASE32[day & 31]}`;
}

/** Days since the timestamp was made (modulo 1024), or null when it is not one. */
function ageInDays(stamp: string, now: Date): number | null {
  const upper = stamp.toUpperCase();
  if (upper.length !== 2) return null;
  const high = BASE32.indexOf(upper[0] as string);
  const low = BASE32.indexOf(upper[1] as string);
  if (high < 0 || low < 0) return null;
  const today = Math.floor(now.getTime() / DAY_MS) % 1024;
  return (today - ((high << 5) | low) + 1024) % 1024;
}

function split(address: string): { local: string; domain: string } | null {
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return null;
  return { local: address.slice(0, at), domain: address.slice(at + 1).toLowerCase() };
}

/** The SRS envelope sender for forwarding mail from `sender` through `forwardDomain`. */
export function srsForward(secret: string, sender: string, forwardDomain: string, now = new Date()): string {
  const parts = split(sender);
  if (!parts) throw new Error(`not an address: ${sender}`);
  const { local, domain } = parts;
  if (/^SRS0[=+-]/i.test(local)) {
    // Already rewritten by forwarder `domain`: keep their part and name them as the first hop.
    const rest = local.slice(4);
    return `SRS1=${hash(secret, domain, rest)}=${domain}=${rest}@${forwardDomain}`;
  }
  if (/^SRS1[=+-]/i.test(local)) {
    // SRS1=hash=firsthop==rest: keep the first hop, re-sign for us.
    const match = /^SRS1[=+-][^=]*=([^=]+)=(=.*)$/i.exec(local);
    if (match) {
      const [, firstHop = '', rest = ''] = match;
      return `SRS1=${hash(secret, firstHop, rest)}=${firstHop}=${rest}@${forwardDomain}`;
    }
  }
  const stamp = timestamp(now);
  return `SRS0=${hash(secret, stamp, domain, local)}=${stamp}=${domain}=${local}@${forwardDomain}`;
}

export type SrsReverse = { status: 'valid'; address: string } | { status: 'invalid' | 'expired' | 'not-srs' };

/** Whether a local part looks like one of our SRS addresses (the SMTP server accepts those for bounces). */
export function looksLikeSrs(address: string): boolean {
  return /^SRS[01][=+-]/i.test(address);
}

/**
 * The address an SRS address of ours stands for (SRS0: the original sender; SRS1: the previous
 * forwarder's SRS0 address), after checking its hash and, for SRS0, its age.
 */
export function srsReverse(secret: string, address: string, now = new Date()): SrsReverse {
  const parts = split(address);
  if (!parts || !looksLikeSrs(parts.local)) return { status: 'not-srs' };
  const { local } = parts;
  if (/^SRS0/i.test(local)) {
    const match = /^SRS0[=+-]([^=]+)=([^=]+)=([^=]+)=(.+)$/i.exec(local);
    if (!match) return { status: 'invalid' };
    const [, given = '', stamp = '', domain = '', original = ''] = match;
    if (!hashMatches(secret, given, stamp, domain, original)) return { status: 'invalid' };
    const age = ageInDays(stamp, now);
    if (age === null) return { status: 'invalid' };
    if (age > SRS_MAX_AGE_DAYS) return { status: 'expired' };
    return { status: 'valid', address: `${original}@${domain}` };
  }
  const match = /^SRS1[=+-]([^=]+)=([^=]+)=(=.+)$/i.exec(local);
  if (!match) return { status: 'invalid' };
  const [, given = '', firstHop = '', rest = ''] = match;
  if (!hashMatches(secret, given, firstHop, rest)) return { status: 'invalid' };
  return { status: 'valid', address: `SRS0${rest}@${firstHop}` };
}
