// The server as compiled JavaScript: apps/server/src/main.ts (npm start) and apps/server/src/cli/admin.ts
// (npm run admin) each bundled by esbuild into one ES module in apps/server/dist, the contract with them;
// packages from node_modules stay imports. Node starts a bundle without tsx's loader hooks: an import of
// the app cost 3.4–3.7 CPU-s through tsx and 1.8–2.0 CPU-s bundled (Node 20, the 2-core machine).
// `node scripts/build-server.mjs` (part of npm run build) writes both bundles; npm start and npm run admin
// rebuild one whose sources are newer (currentBundle). esbuild is a dev dependency: a production-only
// install runs the bundles it was given.
// Each module keeps its own import.meta.url, relative to where the bundle is written (the migrations
// folder, the web build and package.json look-ups are found from it), so a bundle runs as the sources
// do from its place in any copy of the tree: apps/server/dist, or the tests' node_modules/.cache.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** The bundles npm run build writes, by name: their entry points. */
const entries = {
  main: 'apps/server/src/main.ts',
  admin: 'apps/server/src/cli/admin.ts',
  'initial-database': 'apps/server/src/cli/initial-database.ts',
};

/**
 * Writes the embedded database a first start loads instead of running initdb and the migrations
 * (apps/server/src/db/initial-database.ts), with the bundle just built: part of building the server.
 */
async function writeInitialDatabase() {
  const file = bundlePath('initial-database');
  await buildServer(file, 'initial-database');
  const run = spawnSync(process.execPath, [file], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (run.status !== 0) throw new Error(`Writing the initial embedded database failed (exit ${run.status})`);
}

/** What a bundle is built from: a change in any of these makes it stale. */
const sources = [
  'apps/server/src',
  'packages/contract/src',
  'apps/server/package.json',
  'packages/contract/package.json',
];

/** Where npm run build writes the bundle `name` ('main' or 'admin'). */
export function bundlePath(name) {
  return path.join(root, 'apps/server/dist', `${name}.mjs`);
}

/** Every package the server and the contract may import at run time: left to node_modules. */
function runtimePackages() {
  const names = new Set();
  for (const manifest of ['apps/server/package.json', 'packages/contract/package.json']) {
    const { dependencies = {} } = JSON.parse(readFileSync(path.join(root, manifest), 'utf8'));
    for (const name of Object.keys(dependencies)) names.add(name);
  }
  return [...names];
}

/** Rewrites import.meta.url in each source file to that file's own URL, relative to the bundle at `outfile`. */
function ownImportMeta(outfile) {
  return {
    name: 'own-import-meta',
    setup(builder) {
      builder.onLoad({ filter: /\.ts$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('import.meta.')) return undefined;
        if (/import\.meta\.(dirname|filename)/.test(source))
          throw new Error(`${args.path}: use import.meta.url (the bundle rewrites only that)`);
        const fromBundle = path.relative(path.dirname(outfile), args.path).split(path.sep).join('/');
        return {
          contents: source.replaceAll(
            'import.meta.url',
            `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`,
          ),
          loader: 'ts',
        };
      });
    },
  };
}

/**
 * Writes the bundle of `entry` (a key of `entries`) to `outfile` (an .mjs path); answers when it is
 * written. The file is replaced whole, so a process starting beside a build never reads half of it.
 */
export async function buildServer(outfile, entry = 'main') {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [path.join(root, entries[entry])],
    outfile,
    write: false,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: runtimePackages(),
    plugins: [ownImportMeta(outfile)],
    logLevel: 'warning',
  });
  mkdirSync(path.dirname(outfile), { recursive: true });
  const partial = `${outfile}.${process.pid}.tmp`;
  writeFileSync(partial, result.outputFiles[0].contents);
  renameSync(partial, outfile);
}

function newestMtime(file) {
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(file)) newest = Math.max(newest, newestMtime(path.join(file, name)));
  return newest;
}

function canBuild() {
  try {
    createRequire(import.meta.url).resolve('esbuild');
    return true;
  } catch {
    return false;
  }
}

/**
 * The bundle `name` for npm start and npm run admin: rebuilt first when it is missing or older than
 * its sources and esbuild is installed; in a production-only install, the one it was given.
 */
export async function currentBundle(name) {
  const file = bundlePath(name);
  const built = existsSync(file);
  if (!canBuild()) {
    if (built) return file;
    throw new Error(
      `No build tools in this install (npm ci --omit=dev) and no ${path.relative(root, file)}: ` +
        'build the server with a full install (npm ci && npm run build) and copy apps/server/dist here.',
    );
  }
  const newest = Math.max(...sources.map((source) => newestMtime(path.join(root, source))));
  if (!built || newest > statSync(file).mtimeMs) {
    console.log(`Building the server (${path.relative(root, file)})…`);
    await buildServer(file, name);
    if (name === 'main') await writeInitialDatabase();
  }
  return file;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildServer(bundlePath('main'), 'main');
  await buildServer(bundlePath('admin'), 'admin');
  await writeInitialDatabase();
}
