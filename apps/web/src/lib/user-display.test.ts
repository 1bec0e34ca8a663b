import { describe, expect, it } from 'vitest';

import { avatarFallbackLetter, displayName } from './user-display';

describe('avatarFallbackLetter', () => {
  it('uses the first letter of the first name', () => {
    expect(avatarFallbackLetter({ firstName: 'ada', email: 'zed@example.com' })).toBe('A');
  });
  it('falls back to the email', () => {
    expect(avatarFallbackLetter({ firstName: '', email: 'zed@example.com' })).toBe('Z');
    expect(avatarFallbackLetter({ firstName: null, email: 'bob@example.com' })).toBe('B');
  });
  it("falls back to 'U'", () => {
    expect(avatarFallbackLetter({ firstName: '', email: '' })).toBe('U');
    expect(avatarFallbackLetter(null)).toBe('U');
  });
});

describe('displayName', () => {
  it('prefers the first name, else the email', () => {
    expect(displayName({ firstName: 'Ada', email: 'ada@example.com' })).toBe('Ada');
    expect(displayName({ firstName: '  ', email: 'ada@example.com' })).toBe('ada@example.com');
  });
});
