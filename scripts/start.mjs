// npm start: build the web app and the server bundle (scripts/build-server.mjs) when missing or older than
// their sources, then run API + workers from the bundle: compiled JavaScript, no TypeScript loader.
// A production install (npm ci --omit=dev) has no build tools (vite, esbuild): it runs the server bundle
// and serves the web build it was given (apps/server/dist and apps/web/dist, built with a full install
// and copied along) as they are; with no web build, the API alone.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { currentBundle } from './build-server.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const webDir = path.join(root, 'apps/web');
const builtIndex = path.join(webDir, 'dist/index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function canBuild() {
  try {
    createRequire(path.join(webDir, 'package.json')).resolve('vite');
    return true;
  } catch {
    return false;
  }
}

const built = existsSync(builtIndex);
if (!canBuild()) {
  console.log(
    built
      ? 'No build tools in this install (npm ci --omit=dev): serving the web app as built in apps/web/dist.'
      : 'No build tools in this install (npm ci --omit=dev) and no apps/web/dist: serving the API only. ' +
          'Build the web app with a full install (npm ci && npm run build) and copy apps/web/dist here to serve it.',
  );
} else {
  const sources = [webDir, path.join(root, 'packages/contract/src')];
  const stale = !built || sources.some((dir) => newestMtime(dir) > statSync(builtIndex).mtimeMs);
  if (stale) {
    console.log('Building the web app…');
    const build = spawnSync('npm', ['run', 'build', '-w', '@sendwell/web'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
}

let bundle;
try {
  bundle = await currentBundle('main');
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
const server = spawn(process.execPath, [bundle, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
