// Contacts at a million rows on Postgres: CSV import (wall time, peak RSS, against psql \copy as the
// floor), re-import (all updates), and GET /api/contacts?search&page p95 with autocannon.
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchDatabase, percentile, seededRandom, withPeakRss } from './support.ts';
import { importContactsCsv } from '../apps/server/src/modules/contacts/contacts.import.ts';
import { signUp } from '../apps/server/src/modules/auth/auth.service.ts';
import { BENCH_LOGIN, runLoad, SEARCH_REQUESTS, startSignedInApp } from './search-load.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const dir = mkdtempSync(path.join(tmpdir(), 'sendwell-contacts-bench-'));
const csvPath = path.join(dir, 'contacts.csv');
const firstNames = ['Ada', 'Grace', 'Alan', 'Katherine', 'Linus', 'Margaret', 'Dennis', 'Barbara', 'Ken', 'Frances'];
const lastNames = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Johnson',
  'Torvalds',
  'Hamilton',
  'Ritchie',
  'Liskov',
  'Thompson',
  'Allen',
];
const companies = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark', 'Wayne', 'Wonka', 'Tyrell', 'Cyberdyne'];
const cities = ['New York', 'London', 'Berlin', 'Toronto', 'Sydney', 'Paris', 'Tokyo', 'Austin'];

async function writeCsv(): Promise<void> {
  const random = seededRandom(42);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)] as T;
  const out = createWriteStream(csvPath);
  out.write('email,firstName,lastName,company,phone,city\n');
  for (let i = 0; i < ROWS; i += 1) {
    const line = `user${i}@example${i % 97}.com,${pick(firstNames)},${pick(lastNames)},${pick(companies)} ${i % 1000},+1555${String(i).padStart(7, '0')},${pick(cities)}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

const { database, url, drop } = await benchDatabase();
try {
  await writeCsv();
  const sizeMb = statSync(csvPath).size / 1024 / 1024;
  console.log(`file: ${ROWS.toLocaleString('en-US')} rows, ${sizeMb.toFixed(1)} MB`);

  // The floor: psql \copy of the same file into a bare table.
  const bare = spawnSync(
    'psql',
    [
      url,
      '-q',
      '-c',
      'CREATE TABLE bare_contacts (email text, first_name text, last_name text, company text, phone text, city text)',
      '-c',
      `\\copy bare_contacts FROM '${csvPath}' WITH (FORMAT csv, HEADER true)`,
    ],
    { encoding: 'utf8' },
  );
  const copyStart = performance.now();
  const copy = spawnSync(
    'psql',
    [
      url,
      '-q',
      '-c',
      'TRUNCATE bare_contacts',
      '-c',
      `\\copy bare_contacts FROM '${csvPath}' WITH (FORMAT csv, HEADER true)`,
    ],
    { encoding: 'utf8' },
  );
  const copySeconds = (performance.now() - copyStart) / 1000;
  if (bare.status !== 0 || copy.status !== 0) throw new Error(`psql failed: ${bare.stderr}${copy.stderr}`);

  const { user } = await signUp(
    database.db,
    { ...BENCH_LOGIN, confirmPassword: BENCH_LOGIN.password, firstName: 'B', lastName: 'M', company: '', plan: 'pro' },
    { ip: null, userAgent: null },
  );

  const firstStart = performance.now();
  const firstCpu = process.cpuUsage();
  const first = await withPeakRss(() =>
    importContactsCsv(database.db, user.id, createReadStream(csvPath), { newListName: 'Bench import' }),
  );
  const importSeconds = (performance.now() - firstStart) / 1000;
  const importCpu = process.cpuUsage(firstCpu);
  console.log(
    `import: ${importSeconds.toFixed(1)} s wall (target < 30 s), peak RSS ${first.peakMb.toFixed(0)} MB (target < 512 MB), ` +
      `CPU of this process ${((importCpu.user + importCpu.system) / 1e6).toFixed(1)} s; imported ${first.result.imported.toLocaleString('en-US')}, skipped ${first.result.skipped}`,
  );
  console.log(
    `psql \\copy floor: ${copySeconds.toFixed(1)} s; import / floor = ${(importSeconds / copySeconds).toFixed(1)}x`,
  );

  const againStart = performance.now();
  const again = await withPeakRss(() =>
    importContactsCsv(database.db, user.id, createReadStream(csvPath), { listId: first.result.listId ?? undefined }),
  );
  console.log(
    `re-import (all updates): ${((performance.now() - againStart) / 1000).toFixed(1)} s wall (target < 60 s), peak RSS ${again.peakMb.toFixed(0)} MB; ` +
      `imported ${again.result.imported}, updated ${again.result.updated.toLocaleString('en-US')}`,
  );
  await database.raw.executeSql('ANALYZE contacts', []);

  // Search over HTTP: the real route, session and serialisation, 50 connections.
  const { address, cookie, close } = await startSignedInApp(database, dir);
  const { result, latencies } = await runLoad({
    address,
    cookie,
    connections: 50,
    seconds: 15,
    requests: SEARCH_REQUESTS,
  });
  console.log(
    `GET /api/contacts?search&page over ${ROWS.toLocaleString('en-US')} contacts, 50 connections: ` +
      `p50 ${result.latency.p50} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms (target < 50 ms), p97.5 ${result.latency.p97_5} ms, p99 ${result.latency.p99} ms, ` +
      `${Math.round(result.requests.average)} req/s, ${result.non2xx} non-2xx`,
  );
  // One request at a time, after the load (so the code is warm), for terms the load did not use: the first
  // request reads the search's matches, the next page is served from them.
  const timed = async (search: string, page: number) => {
    const start = performance.now();
    const response = await fetch(
      `${address}/api/contacts?search=${encodeURIComponent(search)}&page=${page}&pageSize=50`,
      { headers: { cookie } },
    );
    await response.arrayBuffer();
    const total = `${response.headers.get('x-total-count')}${response.headers.get('x-total-count-exact') === 'false' ? '+' : ''}`;
    return `${(performance.now() - start).toFixed(1)} ms (total ${total})`;
  };
  // Broad (one contact in ten), middling (about one in ninety) and rare (one contact).
  for (const search of ['lovelace', 'tyrell 5', 'user424242@']) {
    console.log(`single request '${search}': first ${await timed(search, 1)}, next page ${await timed(search, 2)}`);
  }
  await close();
} finally {
  await drop();
  rmSync(dir, { recursive: true, force: true });
}
