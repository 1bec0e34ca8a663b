import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const serverDir = path.resolve(import.meta.dirname, '..');
const contractDir = path.resolve(serverDir, '../../packages/contract');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/**
 * The packages a file imports at run time, at its top or where used (`import('sharp')`); `import type`
 * is erased and needs nothing installed.
 */
function runtimePackages(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [
    ...text.matchAll(/^\s*(?:import|export)(?!\s+type\b)[^'"]*?from\s+'([^'.][^']*)'/gm),
    ...text.matchAll(/\bimport\(\s*'([^'.][^']*)'\s*\)/g),
  ]
    .map((match) => match[1] as string)
    .map((specifier) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/'),
    );
}

const dependenciesOf = (dir: string) =>
  Object.keys(
    (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies?: object }).dependencies ?? {},
  );

/**
 * The quick half of "runtime dependencies declared as dependencies" (the other is CI's start from a
 * production-only install, scripts/check-production-install.mjs): every package the server and the
 * contract import outside tests must be in their `dependencies`, which `npm ci --omit=dev` installs.
 */
describe('runtime dependencies declared as dependencies', () => {
  it('every package the server and the contract import outside tests is one of their dependencies', () => {
    const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
    for (const [dir, allowed] of [
      [serverDir, dependenciesOf(serverDir)],
      [contractDir, dependenciesOf(contractDir)],
    ] as const) {
      const undeclared = new Set<string>();
      for (const file of sourceFiles(path.join(dir, 'src')))
        for (const name of runtimePackages(file))
          if (!builtins.has(name) && !name.startsWith('@sendwell/') && !allowed.includes(name))
            undeclared.add(`${name} (${path.relative(dir, file)})`);
      expect(
        [...undeclared],
        `imported at run time but not in ${path.relative(serverDir, dir) || '.'}/package.json dependencies`,
      ).toEqual([]);
    }
  });
});
