import { chmodSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Keeps the data directory private to the account that runs Sendwell: files it creates from now
 * on get 0600 and directories 0700 (umask), and what is already there is brought to the same modes.
 * The embedded database's files (WAL included) hold emails and password hashes.
 */
export function keepPrivate(dir: string): void {
  process.umask(0o077);
  const walk = (current: string) => {
    const stats = statSync(current);
    if (stats.isDirectory()) {
      if ((stats.mode & 0o777) !== 0o700) chmodSync(current, 0o700);
      for (const entry of readdirSync(current)) walk(path.join(current, entry));
    } else if (stats.isFile() && (stats.mode & 0o077) !== 0) {
      chmodSync(current, 0o600);
    }
  };
  walk(dir);
}

/** Files or directories under `dir` that anyone but the owner can read, write or enter. */
export function notPrivate(dir: string): string[] {
  const found: string[] = [];
  const walk = (current: string) => {
    const stats = statSync(current);
    if ((stats.mode & 0o077) !== 0) found.push(current);
    if (stats.isDirectory()) for (const entry of readdirSync(current)) walk(path.join(current, entry));
  };
  walk(dir);
  return found;
}
