// Checks that the server runs from a production-only install: copies the project (the files git
// knows, plus the prebuilt web app in apps/web/dist when there is one) into a temporary directory,
// installs it with `npm ci --omit=dev`, starts it with `npm start` (embedded database, production
// mode) and waits until /api/health answers 200 and, with a prebuilt web app, / serves it. A runtime
// import of a package declared only under devDependencies fails here. npm test runs this with CI=true.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
  const webDist = path.join(root, 'apps/web/dist');
  const withWebApp = existsSync(path.join(webDist, 'index.html'));
  if (withWebApp) cpSync(webDist, path.join(copy, 'apps/web/dist'), { recursive: true, preserveTimestamps: true });
  console.log(
    `Copied ${files.length} files to ${copy}${withWebApp ? ' with the prebuilt web app' : ' (no apps/web/dist: API only)'}`,
  );

  const install = spawnSync('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: copy,
    stdio: 'inherit',
  });
  if (install.status !== 0) throw new Error(`npm ci --omit=dev exited with ${install.status}`);
  if (existsSync(path.join(copy, 'node_modules/vite')))
    throw new Error('a dev dependency (vite) was installed by npm ci --omit=dev');

  const port = await freePort();
  server = spawn('npm', ['start'], {
    cwd: copy,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(copy, 'data'),
      SESSION_SECRET: randomBytes(48).toString('base64url'),
      DATABASE_URL: '',
      SMTP_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: 'inherit',
    detached: true,
  });
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
