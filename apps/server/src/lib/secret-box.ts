import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encryption at rest for secrets the app must read back (DKIM private keys): AES-256-GCM with a
 * key derived by HKDF-SHA256 from the server secret and a purpose label, so each purpose has its
 * own key and the session secret itself never encrypts anything. Sealed form: `iv:tag:ciphertext`,
 * each part base64. Changing SESSION_SECRET makes sealed values unreadable.
 */
const IV_BYTES = 12;
const SALT = 'sendwell/secret-box/v1';

function deriveKey(serverSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', serverSecret, SALT, purpose, 32));
}

/** Encrypts `plaintext` for `purpose` with a fresh random IV. */
export function sealSecret(serverSecret: string, purpose: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(serverSecret, purpose), iv);
  // The purpose is bound as associated data too: a value sealed for one purpose never opens as another.
  cipher.setAAD(Buffer.from(purpose));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64')).join(':');
}

/** Decrypts a value from sealSecret; throws when it was altered or sealed with another secret or purpose. */
export function openSecret(serverSecret: string, purpose: string, sealed: string): string {
  const parts = sealed.split(':');
  if (parts.length !== 3) throw new Error('sealed secret is malformed');
  const [iv, tag, ciphertext] = parts.map((part) => Buffer.from(part, 'base64')) as [Buffer, Buffer, Buffer];
  const decipher = createDecipheriv('aes-256-gcm', deriveKey(serverSecret, purpose), iv);
  decipher.setAAD(Buffer.from(purpose));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
}
