import { describe, expect, it } from 'vitest';
import { newTemporaryPassword, newToken, sha256Hex } from './tokens.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

describe('tokens', () => {
  it('makes distinct url-safe tokens of 256 bits', () => {
    const tokens = new Set(Array.from({ length: 100 }, () => newToken()));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('makes temporary passwords without look-alike characters', () => {
    for (let i = 0; i < 50; i += 1) expect(newTemporaryPassword()).toMatch(/^[A-HJ-NP-Za-km-z2-9]{14}$/);
  });

  it('hashes to hex', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('passwords', () => {
  it('hashes with argon2id and verifies', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'correct horse')).toBe(true);
    expect(await verifyPassword(hash, 'wrong horse')).toBe(false);
  });

  it('answers false for an unknown account after doing the same hashing work', async () => {
    expect(await verifyPassword(undefined, 'anything')).toBe(false);
  });
});
