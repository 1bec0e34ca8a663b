// Fast iteration on GET /api/contacts?search&page under load, without the CSV import of
// contacts.bench.ts: seeds contacts shaped like that bench's CSV with one INSERT … SELECT
// generate_series (kept between runs in the database sendwell_searchload_<rows>; drop it with
// dropdb when done), then runs the same autocannon load (50 connections, the same 24 request
// paths, after a 3 s warm-up) through the real app, and prints p50/p95, req/s, this process's CPU
// per request (server and autocannon share it, as in contacts.bench.ts) and the CPU of the
// Postgres backends serving the database (from /proc). Not a *.bench.ts: `npm run bench` skips it.
//   node --import tsx bench/contacts-search-load.ts
// Environment: BENCH_ROWS (1000000), DURATION (15 s), CONNECTIONS (50), POOL (20), FRESH=1 reseeds,
// PROFILE=1 writes a CPU profile of the load and prints self time per request by package and
// function, PATHS=session loads GET /api/auth/user instead (what any signed-in request costs).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { percentile } from './support.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { TEST_DATABASE_URL } from '../apps/server/test/test-database.ts';
import { signUp } from '../apps/server/src/modules/auth/auth.service.ts';
import { BENCH_LOGIN, runLoad, SEARCH_REQUESTS, startSignedInApp } from './search-load.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const DURATION = Number(process.env.DURATION ?? 15);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const name = `sendwell_searchload_${ROWS}`;

const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
await admin.connect();
if (process.env.FRESH === '1') await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
if (!exists) await admin.query(`CREATE DATABASE ${name}`);
await admin.end();
const url = new URL(TEST_DATABASE_URL);
url.pathname = `/${name}`;
const database = await openDatabase({ url: url.toString(), poolSize: Number(process.env.POOL ?? 20) });
await database.migrate();

const signUpBody = (email: string) => ({
  email,
  password: BENCH_LOGIN.password,
  confirmPassword: BENCH_LOGIN.password,
  firstName: 'B',
  lastName: 'M',
  company: '',
  plan: 'pro' as const,
});
if (!exists) {
  const started = performance.now();
  const { user } = await signUp(database.db, signUpBody(BENCH_LOGIN.email), { ip: null, userAgent: null });
  const { user: other } = await signUp(database.db, signUpBody('other@example.com'), { ip: null, userAgent: null });
  // The same values as contacts.bench.ts's CSV (a fixed pick instead of its random one).
  for (const [owner, n] of [
    [user.id, ROWS],
    [other.id, Math.round(ROWS / 10)],
  ] as const) {
    await database.db.execute(sql`
      INSERT INTO contacts (user_id, email, first_name, last_name, company, phone, location)
      SELECT ${owner}, 'user' || i || '@example' || (i % 97) || '.com',
             (ARRAY['Ada','Grace','Alan','Katherine','Linus','Margaret','Dennis','Barbara','Ken','Frances'])[1 + (i * 7) % 10],
             (ARRAY['Lovelace','Hopper','Turing','Johnson','Torvalds','Hamilton','Ritchie','Liskov','Thompson','Allen'])[1 + (i * 13) % 10],
             (ARRAY['Acme','Globex','Initech','Umbrella','Hooli','Stark','Wayne','Wonka','Tyrell','Cyberdyne'])[1 + (i * 3) % 10] || ' ' || (i % 1000),
             '+1555' || lpad(i::text, 7, '0'),
             (ARRAY['New York','London','Berlin','Toronto','Sydney','Paris','Tokyo','Austin'])[1 + (i * 5) % 8]
      FROM generate_series(0, ${n - 1}) AS i`);
  }
  await database.raw.executeSql('VACUUM ANALYZE contacts', []);
  console.log(
    `seeded ${ROWS.toLocaleString('en-US')} contacts in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

const dir = mkdtempSync(path.join(tmpdir(), 'sendwell-search-load-'));
const { address, cookie, close } = await startSignedInApp(database, dir);
try {
  const requests = [...SEARCH_REQUESTS];
  // PATHS=session loads the signed-in user's own route instead: the floor a signed-in request costs.
  if (process.env.PATHS === 'session') requests.splice(0, requests.length, { method: 'GET', path: '/api/auth/user' });

  const load = (seconds: number) => runLoad({ address, cookie, connections: CONNECTIONS, seconds, requests });
  // Warm-up: code compiled and every search's ids cached, as in the full bench after its first second.
  await load(3);

  const profiler = process.env.PROFILE === '1' ? new Session() : null;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.setSamplingInterval', { interval: 200 });
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const backendsBefore = await backendCpuMs();
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const { result, latencies } = await load(DURATION);
  const cpu = process.cpuUsage(cpuBefore);
  const wallMs = performance.now() - wallBefore;
  const served = result.requests.total;
  const backendsAfter = await backendCpuMs();
  let postgresMs = 0;
  for (const [pid, ms] of backendsAfter) postgresMs += ms - (backendsBefore.get(pid) ?? 0);
  console.log(
    `${CONNECTIONS} connections, ${DURATION} s: p50 ${result.latency.p50} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms, p99 ${result.latency.p99} ms, ` +
      `${Math.round(result.requests.average)} req/s, ${result.non2xx} non-2xx; ` +
      `process CPU ${((cpu.user + cpu.system) / served).toFixed(0)} µs/request (user ${(cpu.user / served).toFixed(0)}, system ${(cpu.system / served).toFixed(0)}), ` +
      `CPU busy ${(((cpu.user + cpu.system) / 1000 / wallMs) * 100).toFixed(0)}% of one core; ` +
      `Postgres backends ${((postgresMs * 1000) / served).toFixed(0)} µs/request`,
  );
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    const file = path.join(tmpdir(), `contacts-search-${Date.now()}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    summarise(profile, served, file);
  }
} finally {
  await close();
  await database.close();
  rmSync(dir, { recursive: true, force: true });
}

/** CPU time (user + system, ms) of each Postgres backend connected to the bench database, from /proc. */
async function backendCpuMs(): Promise<Map<number, number>> {
  const { rows } = (await database.raw.executeSql(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
    [],
  )) as { rows: { pid: number }[] };
  const ticksPerMs = 100 / 1000; // USER_HZ
  const result = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
        .replace(/^.*\) /, '')
        .split(' ');
      result.set(pid, (Number(fields[11]) + Number(fields[12])) / ticksPerMs);
    } catch {
      // The backend ended meanwhile.
    }
  }
  return result;
}

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};

/** Self time per package (or app file) and the heaviest functions, in µs per request. */
function summarise(
  profile: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] },
  served: number,
  file: string,
): void {
  const selfUs = new Map<number, number>();
  (profile.samples ?? []).forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0)));
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let idle = 0;
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id) ?? 0;
    if (us === 0) continue;
    const { functionName, url: source, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idle += us;
      continue;
    }
    const pkg =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1] ??
      (source.includes('/apps/') || source.includes('/packages/')
        ? source.replace(/^.*\/(apps|packages)\//, '$1/')
        : source.startsWith('node:')
          ? 'node:' + source.slice(5).split('/')[0]
          : source || functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
    const fn = `${functionName || '(anonymous)'} ${source.replace(/^.*node_modules\//, '').replace(/^.*\/work\/main\//, '')}:${lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  }
  const total = [...byPackage.values()].reduce((a, b) => a + b, 0);
  console.log(
    `profile ${file}: busy ${(total / served).toFixed(0)} µs/request, idle ${(idle / served).toFixed(0)} µs/request`,
  );
  for (const [pkg, us] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`  ${(us / served).toFixed(1).padStart(7)} µs  ${pkg}`);
  console.log('  heaviest functions:');
  for (const [fn, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 40))
    console.log(`  ${(us / served).toFixed(1).padStart(7)} µs  ${fn}`);
}
