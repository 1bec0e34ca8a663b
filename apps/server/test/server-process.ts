import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { buildServer } from '../../../scripts/build-server.mjs';

const root = path.resolve(import.meta.dirname, '../../..');

/**
 * The server built once for a test run (scripts/build-server.mjs), for the files that start it as a
 * process: under node_modules, so its package imports resolve as the sources' do. Answers its path
 * and how to remove it.
 */
export async function makeServerBundle(): Promise<{ file: string; remove: () => void }> {
  const folder = path.join(root, 'node_modules/.cache/sendwell-test-server');
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `main-${process.pid}-${randomBytes(4).toString('hex')}.mjs`);
  await buildServer(file);
  return { file, remove: () => rmSync(file, { force: true }) };
}

/**
 * Node's arguments that start the server with `args` (`--role=worker`): the run's bundle when the
 * global set-up built one, else the sources through tsx (a file run outside the integration projects).
 */
export function serverArgs(...args: string[]): string[] {
  const bundle = inject('serverBundle');
  return bundle ? [bundle, ...args] : ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts'), ...args];
}
