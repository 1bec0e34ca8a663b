import { describe, expect, it } from 'vitest';

import { nextTheme, parseTheme, resolveTheme } from './theme';

describe('theme rules', () => {
  it('toggles light to dark and anything else to light', () => {
    expect(nextTheme('light')).toBe('dark');
    expect(nextTheme('dark')).toBe('light');
    expect(nextTheme('system')).toBe('light');
  });
  it("defaults unknown stored values to 'system'", () => {
    expect(parseTheme(null)).toBe('system');
    expect(parseTheme('sepia')).toBe('system');
    expect(parseTheme('dark')).toBe('dark');
  });
  it('resolves system from the device preference', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
  });
});
