// Runs before the app renders so the page never flashes the wrong theme.
// Mirrors src/lib/theme.ts: key 'sendwell-theme', values 'light' | 'dark' | 'system' (default).
(function () {
  try {
    var stored = window.localStorage.getItem('sendwell-theme');
    var theme = stored === 'light' || stored === 'dark' ? stored : 'system';
    var dark =
      theme === 'dark' ||
      (theme === 'system' && window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches);
    var root = document.documentElement;
    if (dark) root.classList.add('dark');
    else root.classList.remove('dark');
  } catch {
    // localStorage can be unavailable (privacy mode); the app falls back to the system theme.
  }
})();
