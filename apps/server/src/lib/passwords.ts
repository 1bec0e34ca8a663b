import { channel } from 'node:diagnostics_channel';
import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';

// OWASP's argon2id baseline (19 MiB, 2 passes). The library's default algorithm is argon2id
// (its const enum cannot be imported under verbatimModuleSyntax); a unit test pins the prefix.
const options = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

let dummyHash: Promise<string> | undefined;

/**
 * Published once per argon2 verification, before it runs: how many password checks an attack got
 * through is a security figure (the sign-in throttling tests count it). Free with no subscriber.
 */
export const passwordVerificationChannel = channel('sendwell:password-verification');

/**
 * Verifies a password against a stored hash. With no hash (unknown account) it verifies against
 * a dummy so both failures cost the same time and cannot be told apart.
 */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  passwordVerificationChannel.publish(null);
  if (storedHash === undefined) {
    dummyHash ??= hashPassword('sendwell-no-such-account');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}

let commonPasswords: Set<string> | undefined;

/**
 * True for a password on zxcvbn-ts's common-password list (~49,000 passwords from breach corpora,
 * '123456' first), compared without case: those are the first guesses of any attack.
 */
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(dictionary['passwords-common'].map((entry) => entry.toLowerCase()));
  return commonPasswords.has(password.toLowerCase());
}
