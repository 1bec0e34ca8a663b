/** The stored theme preference (spec §3). */
export type Theme = 'light' | 'dark' | 'system';
export type ResolvedTheme = 'light' | 'dark';

/** localStorage key of the preference; public/theme-init.js reads the same key. */
export const THEME_STORAGE_KEY = 'sendwell-theme';
export const DEFAULT_THEME: Theme = 'system';

/** Toggle rule (spec §4): from light go to dark; from anything else go to light. */
export function nextTheme(current: Theme): Theme {
  return current === 'light' ? 'dark' : 'light';
}

/** Reads a stored value, falling back to 'system' for anything unknown. */
export function parseTheme(value: string | null | undefined): Theme {
  return value === 'light' || value === 'dark' || value === 'system' ? value : DEFAULT_THEME;
}

/** 'system' follows the device preference. */
export function resolveTheme(theme: Theme, systemPrefersDark: boolean): ResolvedTheme {
  if (theme === 'system') return systemPrefersDark ? 'dark' : 'light';
  return theme;
}
