import { describe, expect, it } from 'vitest';
import { returnPathAfterSignIn } from './unauthorized';

describe('returnPathAfterSignIn', () => {
  it('goes on to the link that asked for the sign-in', () => {
    expect(returnPathAfterSignIn('?return=%2Fconfirm-email%3Ftoken%3Dabc')).toBe('/confirm-email?token=abc');
    expect(returnPathAfterSignIn('?return=/confirm-sender?token=x')).toBe('/confirm-sender?token=x');
  });

  it('never to another site or back to a sign-in page: the dashboard then', () => {
    for (const asked of ['https://evil.example/', '//evil.example/x', '/\\evil.example', '/login', '/signup?x=1', '']) {
      expect(returnPathAfterSignIn(`?return=${encodeURIComponent(asked)}`)).toBe('/');
    }
    expect(returnPathAfterSignIn('')).toBe('/');
  });
});
