import { describe, expect, it } from 'vitest';
import { readExpiringToken, signExpiringToken } from './expiring-token.ts';

const secret = 'a-session-secret-of-enough-length-0123456789';
const now = new Date('2026-05-01T12:00:00Z');
const inAnHour = new Date(now.getTime() + 60 * 60 * 1000);

describe('expiring tokens (confirmation links)', () => {
  it('read back their subject and expiry while valid', () => {
    const token = signExpiringToken(secret, 'sender-address', '42:news@acme.example', inAnHour);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(readExpiringToken(secret, 'sender-address', token, now)).toEqual({
      status: 'valid',
      subject: '42:news@acme.example',
      expiresAt: inAnHour,
    });
  });

  it('are expired from their expiry on, still naming their subject', () => {
    const token = signExpiringToken(secret, 'account-email', 'u:a@b.example', inAnHour);
    expect(readExpiringToken(secret, 'account-email', token, inAnHour)).toMatchObject({
      status: 'expired',
      subject: 'u:a@b.example',
    });
  });

  it('are invalid when tampered with, of another purpose or secret, or malformed', () => {
    const token = signExpiringToken(secret, 'sender-address', '42:news@acme.example', inAnHour);
    const [payload, mac] = token.split('.') as [string, string];
    const read = (value: string, purpose: 'sender-address' | 'account-email' = 'sender-address', key = secret) =>
      readExpiringToken(key, purpose, value, now).status;
    expect(read(`${payload}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BA' : 'AA'}`)).toBe('invalid');
    const otherSubject = Buffer.from(`${Math.floor(inAnHour.getTime() / 1000)}.43:news@acme.example`, 'utf8').toString(
      'base64url',
    );
    expect(read(`${otherSubject}.${mac}`)).toBe('invalid');
    const later = Buffer.from(`${Math.floor(inAnHour.getTime() / 1000) + 86400}.42:news@acme.example`).toString(
      'base64url',
    );
    expect(read(`${later}.${mac}`)).toBe('invalid');
    expect(read(token, 'account-email')).toBe('invalid');
    expect(read(token, 'sender-address', `${secret}x`)).toBe('invalid');
    for (const bad of ['', '.', 'abc', `${token}.x`, `${payload}.`, `.${mac}`, `${payload}.${mac}=`, 'a'.repeat(700)]) {
      expect(read(bad)).toBe('invalid');
    }
  });
});
