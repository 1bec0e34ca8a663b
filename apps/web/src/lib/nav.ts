/**
 * Sidebar highlight rule (spec §2): an entry is active when the path equals its link; every link
 * other than "/" is also active when the path starts with it (so /campaigns/12 keeps Campaigns lit).
 */
export function isNavItemActive(itemHref: string, currentPath: string): boolean {
  if (currentPath === itemHref) return true;
  return itemHref !== '/' && currentPath.startsWith(itemHref);
}

/** True when a path fits a route pattern; a ':name' segment matches one non-empty segment ('/campaigns/:id/report'). */
export function matchesRoutePath(pattern: string, path: string): boolean {
  if (!pattern.includes(':')) return pattern === path;
  const want = pattern.split('/');
  const have = path.split('/');
  return (
    want.length === have.length &&
    want.every((part, i) => (part.startsWith(':') ? (have[i] ?? '') !== '' : part === have[i]))
  );
}
