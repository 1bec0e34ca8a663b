// npm test: what the tests need from Debian (installed when missing), the web build, then typecheck,
// lint, the unit tests and the integration suite on PGlite and on Postgres side by side (the first to
// fail stops the rest), then the browser tests. With CI=true, the server is also started once from a
// production-only install (scripts/check-production-install.mjs). At the end it prints each step's
// time and any browser test that passed only on its retry.
// The Postgres leg runs when a server answers at TEST_DATABASE_URL and the Redis case of the shared
// rate limits when one answers at TEST_REDIS_URL; with CI=true a missing server fails.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const inCi = process.env.CI === 'true' || process.env.CI === '1';
const started = Date.now();
const shares = [];
const playwrightReport = path.join(root, 'test-results', 'playwright-report.json');
// Beside Playwright's output folder, not in it: Playwright empties test-results when it starts.
const vitestLegs = path.join(root, 'node_modules', '.cache', 'sendwell', 'vitest-legs.json');

async function postgresAnswers() {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    console.error(`Postgres at ${postgresUrl} did not answer: ${error.message}`);
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

function redisAnswers() {
  const { hostname, port } = new URL(redisUrl);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    const done = (answer) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(3000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;

const running = new Set();

/** Runs one command (in a process group of its own) with its output shown; answers its exit status and time. */
function spawnStep(command, args) {
  const begun = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: process.env, detached: true });
    running.add(child);
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve({ status: code ?? (signal ? 1 : 0), ms: Date.now() - begun });
    });
  });
}

/** Ends every step still running, with everything it started (a vitest worker, a browser). */
function stopRunning() {
  for (const child of running) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
}

// The steps run in process groups of their own, so an interrupt reaches them through this process.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopRunning();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

function printShares() {
  console.log('\nTime by step:');
  for (const share of shares) console.log(`  ${share.label.padEnd(48)} ${seconds(share.ms).padStart(7)}`);
  // The unit project and both integration legs share one vitest run: each leg's span, first file's
  // start to last file's end (scripts/vitest-leg-shares.mjs).
  if (existsSync(vitestLegs)) {
    console.log('  of the unit and integration tests, side by side:');
    for (const leg of JSON.parse(readFileSync(vitestLegs, 'utf8'))) {
      const counts = `${leg.files} files, ${leg.passed} passed, ${leg.skipped} skipped, ${leg.failed} failed`;
      console.log(`    ${leg.project.padEnd(46)} ${seconds(leg.spanMs).padStart(7)}   (${counts})`);
    }
  }
  console.log(`  ${'total'.padEnd(48)} ${seconds(Date.now() - started).padStart(7)}`);
}

/** The browser tests that failed once and passed on their retry (Playwright's "flaky"): each is a bug. */
function printRetried() {
  if (!existsSync(playwrightReport)) return;
  const report = JSON.parse(readFileSync(playwrightReport, 'utf8'));
  const retried = [];
  const visit = (suite) => {
    for (const child of suite.suites ?? []) visit(child);
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'flaky') retried.push(`${spec.file}:${spec.line} › ${spec.title}`);
      }
    }
  };
  for (const suite of report.suites ?? []) visit(suite);
  const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = report.stats ?? {};
  console.log(`\nBrowser tests: ${expected} passed, ${flaky} flaky, ${unexpected} failed, ${skipped} skipped.`);
  if (retried.length === 0) console.log('\nNo browser test needed its retry.');
  else console.log(`\nBrowser tests that passed only on their retry (flaky, each a bug):\n  ${retried.join('\n  ')}`);
}

function fail(label) {
  console.error(`\n${label} failed (${seconds(Date.now() - started)})`);
  printShares();
  printRetried();
  process.exit(1);
}

/** Runs steps side by side; the first to fail stops the others and fails the run. */
async function run(...steps) {
  console.log(`\n=== ${steps.map((step) => step.label).join(' + ')} ===`);
  await Promise.all(
    steps.map(async (step) => {
      const result = await spawnStep(step.command, step.args);
      shares.push({ label: step.label, ms: result.ms });
      if (result.status !== 0) {
        stopRunning();
        fail(step.label);
      }
    }),
  );
}

const step = (label, command, args) => ({ label, command, args });

rmSync(vitestLegs, { force: true });
await run(step('Debian packages for the tests', process.execPath, ['scripts/ensure-test-packages.mjs']));

const projects = ['--project', 'unit', '--project', 'int-pglite'];
if (await postgresAnswers()) {
  projects.push('--project', 'int-postgres');
} else if (inCi) {
  console.error('CI=true and no Postgres server: the Postgres leg is required in CI.');
  process.exit(1);
} else {
  console.warn(`\n*** Postgres leg SKIPPED: no server at ${postgresUrl} (set TEST_DATABASE_URL). ***\n`);
}
if (!(await redisAnswers()) && inCi) {
  console.error(
    `CI=true and no Redis server at ${redisUrl} (set TEST_REDIS_URL): the shared rate limits' Redis case is required in CI.`,
  );
  process.exit(1);
}

// The web app and the server bundles are built first (seconds): the production-only check runs and
// serves them. Typecheck, lint and that check then run beside the unit and integration tests, whose
// files mostly wait (on Postgres, SMTP, spawned workers) and leave a core idle for about a third of their time.
await run(step('Build', 'npm', ['run', 'build']));
await run(
  step('Typecheck', 'npm', ['run', 'typecheck']),
  step('Lint', 'npm', ['run', 'lint']),
  step('Unit and integration tests', 'npx', [
    'vitest',
    'run',
    ...projects,
    '--reporter=default',
    '--reporter=./scripts/vitest-leg-shares.mjs',
  ]),
  // CI also starts the server from a production-only install (npm ci --omit=dev) of a copy, with the
  // web app just built: a runtime package declared only as a dev dependency fails here.
  ...(inCi
    ? [step('Production-only install starts the server', process.execPath, ['scripts/check-production-install.mjs'])]
    : []),
);
rmSync(playwrightReport, { force: true });
await run(step('Browser tests', 'npx', ['playwright', 'test']));
printShares();
printRetried();
console.log(`\nAll tests passed in ${seconds(Date.now() - started)}`);
