import * as React from 'react';

import {
  DEFAULT_THEME,
  THEME_STORAGE_KEY,
  nextTheme,
  parseTheme,
  resolveTheme,
  type ResolvedTheme,
  type Theme,
} from '@/lib/theme';

interface ThemeContextValue {
  theme: Theme;
  resolvedTheme: ResolvedTheme;
  setTheme: (theme: Theme) => void;
  toggleTheme: () => void;
}

const ThemeContext = React.createContext<ThemeContextValue | null>(null);

const DARK_QUERY = '(prefers-color-scheme: dark)';

function readStoredTheme(): Theme {
  try {
    return parseTheme(window.localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    return DEFAULT_THEME;
  }
}

function systemPrefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

/**
 * Watches the root's class list; when `dark` flips, marks the root with data-theme-switching (which
 * turns transitions off in index.css) until two frames later. The observer runs before the browser
 * recalculates styles, so no transition ever starts. Returns the clean-up function.
 */
function suspendTransitionsOnThemeChange(root: HTMLElement): () => void {
  let wasDark = root.classList.contains('dark');
  let frame = 0;
  const observer = new MutationObserver(() => {
    const isDark = root.classList.contains('dark');
    if (isDark === wasDark) return;
    wasDark = isDark;
    root.setAttribute('data-theme-switching', '');
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => root.removeAttribute('data-theme-switching'));
    });
  });
  observer.observe(root, { attributes: true, attributeFilter: ['class'] });
  return () => {
    observer.disconnect();
    cancelAnimationFrame(frame);
    root.removeAttribute('data-theme-switching');
  };
}

/** Holds the theme preference, stores it, and keeps the `dark` class on <html> in step. */
export function ThemeProvider({ children }: { children: React.ReactNode }) {
  const [theme, setThemeState] = React.useState<Theme>(readStoredTheme);
  const [prefersDark, setPrefersDark] = React.useState<boolean>(systemPrefersDark);

  // 'system' follows the device preference as it changes.
  React.useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const media = window.matchMedia(DARK_QUERY);
    const onChange = (event: MediaQueryListEvent) => setPrefersDark(event.matches);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);

  const resolvedTheme = resolveTheme(theme, prefersDark);

  React.useEffect(() => {
    document.documentElement.classList.toggle('dark', resolvedTheme === 'dark');
  }, [resolvedTheme]);

  // Whoever flips the `dark` class (this provider, or a test), transitions are paused for that frame.
  React.useEffect(() => suspendTransitionsOnThemeChange(document.documentElement), []);

  const setTheme = React.useCallback((next: Theme) => {
    setThemeState(next);
    try {
      window.localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // Storage can be unavailable; the choice then lasts for this page only.
    }
  }, []);

  const value = React.useMemo<ThemeContextValue>(
    () => ({ theme, resolvedTheme, setTheme, toggleTheme: () => setTheme(nextTheme(theme)) }),
    [theme, resolvedTheme, setTheme],
  );

  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

/** The theme state; must be used under <ThemeProvider>. */
export function useTheme(): ThemeContextValue {
  const value = React.useContext(ThemeContext);
  if (!value) throw new Error('useTheme must be used within ThemeProvider');
  return value;
}
