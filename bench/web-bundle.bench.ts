// Web bundle sizes: builds apps/web into a scratch folder (so apps/web/dist, which the e2e tests
// serve, is left alone) and prints, gzip-compressed:
// - the first page: every script index.html loads (the entry, the theme script) plus every chunk it
//   modulepreloads. The public pages (landing, login, sign-up) are in the entry, so this is what a
//   visitor downloads before anything shows. Budget: 200 kB.
// - the campaign editor: its own lazy chunk, and everything opening it adds to the first page.
// - a signed-in user's dashboard: the first page plus the shell and the dashboard's chunks.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const FIRST_PAGE_BUDGET_KB = 200;
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const webDir = path.join(root, 'apps/web');

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

const outDir = mkdtempSync(path.join(tmpdir(), 'sendwell-web-bundle-'));
try {
  const build = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir, '--emptyOutDir', '--manifest'],
    {
      cwd: webDir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  if (build.status !== 0) throw new Error(`vite build failed:\n${build.stdout}\n${build.stderr}`);

  // Sizes as vite's own report prints them (the figure the budget was set with); files vite does not
  // list (public/theme-init.js) are compressed here with zlib's default level, which reads ~1% lower.
  const viteGzipKb = new Map<string, number>();
  for (const match of build.stdout.matchAll(/(assets\/\S+)\s+[\d.,]+ kB\s*│\s*gzip:\s*([\d.,]+) kB/g)) {
    viteGzipKb.set(match[1] as string, Number((match[2] as string).replace(',', '')));
  }
  if (viteGzipKb.size === 0) throw new Error(`could not read vite's size report:\n${build.stdout}`);

  const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const gzipKb = (file: string) =>
    viteGzipKb.get(file) ?? gzipSync(readFileSync(path.join(outDir, file))).length / 1000;
  const total = (files: Iterable<string>) => [...files].reduce((sum, file) => sum + gzipKb(file), 0);

  /** A chunk's file plus the files of everything it imports statically, recursively. */
  const closure = (key: string, into = new Set<string>()): Set<string> => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`no chunk for ${key} in the build manifest`);
    if (into.has(chunk.file)) return into;
    into.add(chunk.file);
    for (const imported of chunk.imports ?? []) closure(imported, into);
    return into;
  };
  const keyOf = (pattern: RegExp) => {
    const key = Object.keys(manifest).find((k) => pattern.test(k));
    if (!key) throw new Error(`no chunk matching ${pattern} in the build manifest`);
    return key;
  };

  // The first page as the browser sees it: the scripts and modulepreloads index.html names.
  const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const firstPage = new Set<string>();
  for (const match of html.matchAll(
    /<script[^>]*\ssrc="\/([^"]+)"|<link[^>]*rel="modulepreload"[^>]*href="\/([^"]+)"/g,
  )) {
    firstPage.add((match[1] ?? match[2]) as string);
  }
  const firstPageKb = total(firstPage);
  // What the server sends a browser that accepts Brotli: the build's own .br copies (vite.config.ts).
  const servedKb = (files: Iterable<string>) =>
    [...files].reduce((sum, file) => {
      const full = path.join(outDir, file);
      return sum + (existsSync(`${full}.br`) ? readFileSync(`${full}.br`) : readFileSync(full)).length / 1000;
    }, 0);

  const editorKey = keyOf(/campaign-editor\.tsx$/);
  const editorChunkKb = gzipKb(manifest[editorKey]!.file);
  const editorAdded = [...closure(editorKey)].filter((file) => !firstPage.has(file));
  const dashboardAdded = [
    ...closure(keyOf(/^src\/app\/shell\/app-shell\.tsx$/)),
    ...closure(keyOf(/^src\/pages\/dashboard\.tsx$/)),
  ].filter((file) => !firstPage.has(file));

  const row = (label: string, kb: number, detail: string) =>
    console.log(`${label.padEnd(34)} ${kb.toFixed(1).padStart(7)} kB gzip  ${detail}`);
  row(
    'first page (index.html + preloads)',
    firstPageKb,
    `${firstPage.size} files: ${[...firstPage].map((f) => path.basename(f)).join(', ')}`,
  );
  console.log(
    `${'first page as served (Brotli)'.padEnd(34)} ${servedKb(firstPage).toFixed(1).padStart(7)} kB br    the .br copies the server sends`,
  );
  row('campaign editor chunk', editorChunkKb, path.basename(manifest[editorKey]!.file));
  row(
    'opening the editor adds',
    total(new Set(editorAdded)),
    `${new Set(editorAdded).size} files (editor, campaigns page, dnd-kit, shared UI)`,
  );
  row(
    'signed-in dashboard adds',
    total(new Set(dashboardAdded)),
    `${new Set(dashboardAdded).size} files (shell, dashboard)`,
  );
  console.log(
    `first-page budget ${FIRST_PAGE_BUDGET_KB} kB: ${firstPageKb <= FIRST_PAGE_BUDGET_KB ? 'within' : 'OVER'}`,
  );
  if (firstPageKb > FIRST_PAGE_BUDGET_KB) process.exitCode = 1;
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
