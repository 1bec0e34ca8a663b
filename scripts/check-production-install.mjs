// Checks that the server runs from a production-only install: copies the project (the files git
// knows, the server bundles in apps/server/dist, built first when stale, and the prebuilt web app in
// apps/web/dist when there is one) into a temporary directory, gives it the node_modules tree
// `npm ci --omit=dev` makes, starts it with `npm start` (embedded database, production mode), waits
// until /api/health answers 200 and, with a prebuilt web app, / serves it, and runs an admin command
// against it (`npm run admin`). A runtime import of a package declared only under devDependencies
// fails here. npm test runs this with CI=true.
//
// The production tree is the lockfile's own: npm ci lays out every package at the location
// package-lock.json names, and --omit=dev leaves out the ones it marks "dev" (needed only through
// devDependencies). The copy hard-links the other locations from the full install npm test runs
// in, where npm ci --omit=dev unpacked them all again: 28 CPU-s and 18 s against about one.
// PRODUCTION_CHECK_NPM_CI=1 runs npm ci --omit=dev instead.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundlePath, currentBundle } from './build-server.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const HEALTH_TIMEOUT_MS = 120_000;
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;

function fail(message) {
  console.error(`Production install check failed (${elapsed()}): ${message}`);
  process.exitCode = 1;
}

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Gives `copy` the node_modules of a production-only install: every package-lock.json location that
 * is not marked dev, hard-linked from this install (a location for another platform, an optional
 * package npm did not install here, is absent in both), and the workspaces' links. Answers the count.
 */
function linkProductionTree(copy) {
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  const locations = Object.entries(lock.packages).filter(([location]) => location.includes('node_modules/'));
  const kept = locations
    .filter(([location, entry]) => !entry.dev && !entry.link && existsSync(path.join(root, location)))
    .map(([location]) => location)
    .sort();
  // A kept location inside one already linked came along with it (cp -al copies the whole folder).
  const linked = [];
  for (const location of kept) {
    if (linked.some((outer) => location.startsWith(`${outer}/`))) continue;
    linked.push(location);
  }
  const byParent = new Map();
  for (const location of linked) {
    const parent = path.dirname(location);
    byParent.set(parent, [...(byParent.get(parent) ?? []), path.join(root, location)]);
  }
  for (const [parent, sources] of byParent) {
    mkdirSync(path.join(copy, parent), { recursive: true });
    const cp = spawnSync('cp', ['-al', ...sources, path.join(copy, parent)], { encoding: 'utf8' });
    if (cp.status !== 0) throw new Error(`cp -al failed: ${cp.stderr}`);
  }
  // What came along inside a linked folder but is dev-only goes again.
  for (const [location, entry] of locations) {
    if (entry.dev) rmSync(path.join(copy, location), { recursive: true, force: true });
  }
  for (const [location, entry] of locations) {
    if (!entry.link) continue;
    mkdirSync(path.dirname(path.join(copy, location)), { recursive: true });
    symlinkSync(
      path.relative(path.dirname(path.join(root, location)), path.join(root, entry.resolved)),
      path.join(copy, location),
    );
  }
  return kept.length;
}

const copy = mkdtempSync(path.join(tmpdir(), 'sendwell-production-'));
let server;
try {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  const files = listed.stdout.split('\0').filter((file) => file && existsSync(path.join(root, file)));
  for (const file of files) {
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    cpSync(path.join(root, file), path.join(copy, file), { preserveTimestamps: true });
  }
  // The server as npm run build leaves it (a production install cannot build it).
  await currentBundle('main');
  await currentBundle('admin');
  cpSync(path.dirname(bundlePath('main')), path.join(copy, 'apps/server/dist'), {
    recursive: true,
    preserveTimestamps: true,
  });
  const webDist = path.join(root, 'apps/web/dist');
  const withWebApp = existsSync(path.join(webDist, 'index.html'));
  if (withWebApp) cpSync(webDist, path.join(copy, 'apps/web/dist'), { recursive: true, preserveTimestamps: true });
  console.log(
    `Copied ${files.length} files and the server bundles to ${copy}${withWebApp ? ' with the prebuilt web app' : ' (no apps/web/dist: API only)'}`,
  );

  if (process.env.PRODUCTION_CHECK_NPM_CI === '1' || !existsSync(path.join(root, 'node_modules'))) {
    const install = spawnSync('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: copy,
      stdio: 'inherit',
    });
    if (install.status !== 0) throw new Error(`npm ci --omit=dev exited with ${install.status}`);
  } else {
    console.log(`Linked ${linkProductionTree(copy)} production packages from the lockfile's tree`);
  }
  for (const devOnly of ['vite', 'esbuild', 'tsx'])
    if (existsSync(path.join(copy, 'node_modules', devOnly)))
      throw new Error(`a dev dependency (${devOnly}) was installed by npm ci --omit=dev`);

  const port = await freePort();
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(copy, 'data'),
    SESSION_SECRET: randomBytes(48).toString('base64url'),
    DATABASE_URL: '',
    SMTP_URL: '',
    LOG_LEVEL: 'warn',
  };
  server = spawn('npm', ['start'], { cwd: copy, env, stdio: 'inherit', detached: true });
  let exited = null;
  server.once('exit', (code, signal) => (exited = `exited with ${code ?? signal}`));

  const base = `http://127.0.0.1:${port}`;
  let healthy = false;
  for (const until = Date.now() + HEALTH_TIMEOUT_MS; !healthy && exited === null && Date.now() < until;) {
    const answer = await fetch(`${base}/api/health`).catch(() => null);
    healthy = answer?.status === 200;
    if (!healthy) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (!healthy)
    throw new Error(`the server ${exited ?? `did not answer /api/health within ${HEALTH_TIMEOUT_MS / 1000} s`}`);
  console.log(`/api/health answered 200 from the production install (${elapsed()})`);
  if (withWebApp) {
    const page = await fetch(`${base}/`);
    const html = await page.text();
    if (page.status !== 200 || !html.includes('<div id="root"'))
      throw new Error(`/ did not serve the prebuilt web app (${page.status})`);
    console.log('/ served the prebuilt web app');
  }
  // The README's admin commands, through the running server that holds the embedded database.
  const admin = spawnSync('npm', ['run', '--silent', 'admin', '--', 'reset-password', 'nobody@example.com'], {
    cwd: copy,
    env,
    encoding: 'utf8',
  });
  if (admin.status !== 1 || !admin.stderr.includes('No account with the email nobody@example.com'))
    throw new Error(`npm run admin did not run (${admin.status}): ${admin.stderr || admin.stdout}`);
  console.log('npm run admin answered through the running server');
} catch (error) {
  fail(error.message);
} finally {
  if (server && server.exitCode === null) {
    // npm start runs the server as a child: the whole process group gets the signal.
    process.kill(-server.pid, 'SIGTERM');
    await new Promise((resolve) => {
      const forced = setTimeout(() => {
        process.kill(-server.pid, 'SIGKILL');
        resolve();
      }, 30_000);
      server.once('exit', () => {
        clearTimeout(forced);
        resolve();
      });
    });
  }
  rmSync(copy, { recursive: true, force: true });
}
if (!process.exitCode) console.log(`Production install check passed (${elapsed()})`);
