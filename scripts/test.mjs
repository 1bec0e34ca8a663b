// npm test: typecheck and lint first (a type error or a broken house rule fails fast), then unit tests, the integration suite on PGlite and on Postgres, then the browser tests.
// With CI=true, the server is also started once from a production-only install (scripts/check-production-install.mjs).
// The Postgres leg runs when a server answers at TEST_DATABASE_URL; with CI=true a missing server fails.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const started = Date.now();

async function postgresAnswers() {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    console.error(`Postgres at ${url} did not answer: ${error.message}`);
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

function run(label, command, args) {
  console.log(`\n=== ${label} ===`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.error(`\n${label} failed (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    process.exit(result.status ?? 1);
  }
}

const projects = ['--project', 'unit', '--project', 'int-pglite'];
if (await postgresAnswers()) {
  projects.push('--project', 'int-postgres');
} else if (process.env.CI === 'true' || process.env.CI === '1') {
  console.error('CI=true and no Postgres server: the Postgres leg is required in CI.');
  process.exit(1);
} else {
  console.warn(`\n*** Postgres leg SKIPPED: no server at ${url} (set TEST_DATABASE_URL). ***\n`);
}

run('Typecheck', 'npm', ['run', 'typecheck']);
run('Lint', 'npm', ['run', 'lint']);
run('Unit and integration tests', 'npx', ['vitest', 'run', ...projects]);
run('Web build', 'npm', ['run', 'build', '-w', '@sendwell/web']);
// CI also starts the server from a production-only install (npm ci --omit=dev) of a copy, with the
// web app just built: a runtime package declared only as a dev dependency fails here.
if (process.env.CI === 'true' || process.env.CI === '1') {
  run('Runtime dependencies declared as dependencies: the server from a production-only install', process.execPath, [
    'scripts/check-production-install.mjs',
  ]);
}
run('Chromium', process.execPath, ['scripts/ensure-chromium.mjs']);
run('Browser tests', 'npx', ['playwright', 'test']);
console.log(`\nAll tests passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
