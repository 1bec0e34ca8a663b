import { createHash, randomBytes } from 'node:crypto';

/** An unguessable opaque token (256 bits) for cookies and links. */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

const TEMP_PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

/** A readable temporary password (no look-alike characters), from crypto randomness. */
export function newTemporaryPassword(length = 14): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (const byte of bytes) {
    // Rejection sampling keeps the alphabet uniform.
    if (byte >= 256 - (256 % TEMP_PASSWORD_ALPHABET.length)) continue;
    out += TEMP_PASSWORD_ALPHABET[byte % TEMP_PASSWORD_ALPHABET.length];
    if (out.length === length) break;
  }
  return out.length === length ? out : newTemporaryPassword(length);
}
