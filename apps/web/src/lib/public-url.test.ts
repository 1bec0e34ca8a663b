import { describe, expect, it } from 'vitest';
import { mismatchedPublicUrl, publicUrl, rememberPublicUrl } from './public-url';

describe('the PUBLIC_URL base', () => {
  it('builds from the reported PUBLIC_URL and names it when the page is open elsewhere', () => {
    rememberPublicUrl('https://mail.acme.test/');
    expect(publicUrl()).toBe('https://mail.acme.test');
    expect(mismatchedPublicUrl('http://localhost:5000')).toBe('https://mail.acme.test');
    expect(mismatchedPublicUrl('https://mail.acme.test')).toBeNull();
    // The same origin with a path in PUBLIC_URL is not a mismatch.
    rememberPublicUrl('https://acme.test/sendwell');
    expect(mismatchedPublicUrl('https://acme.test')).toBeNull();
    expect(publicUrl()).toBe('https://acme.test/sendwell');
  });
});
