import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../src/db/client.ts';
import { migrateAll } from '../src/db/initial-database.ts';

/**
 * Migrated template databases, made once per test run by the integration projects' global set-up
 * (test/global-setup-*.ts) so that each test file copies a finished schema instead of building one:
 * PGlite's initdb, every Drizzle migration and pg-boss's schema cost seconds a file. Each file still
 * gets a database of its own; nothing a test writes is shared.
 */

/**
 * Settings of the test template alone (postgresql.auto.conf, read at each file's start): a test file's
 * database lives in memory for one file, so a commit need not wait for its WAL, and WAL need not carry
 * full pages or what only replication reads. The PGlite files took 13% less CPU (91–97 against
 * 105–112 CPU-s on five of the largest).
 */
const PGLITE_TEST_SETTINGS = [
  'ALTER SYSTEM SET synchronous_commit = off',
  'ALTER SYSTEM SET full_page_writes = off',
  'ALTER SYSTEM SET wal_level = minimal',
  'ALTER SYSTEM SET max_wal_senders = 0',
];

/**
 * A PGlite data directory with every migration applied, dumped to a file; answers its path and how to
 * remove it. PGlite opens the `postgres` database: template0 and template1, 600 of its 1,344 files,
 * are dropped, and a checkpoint leaves no WAL to replay; opening it took 0.6–0.8 CPU-s against 0.9–1.0.
 */
export async function makePgliteTemplate(): Promise<{ file: string; remove: () => void }> {
  const database = await openDatabase({});
  await migrateAll(database);
  for (const statement of [
    ...PGLITE_TEST_SETTINGS,
    'ALTER DATABASE template0 IS_TEMPLATE false',
    'ALTER DATABASE template1 IS_TEMPLATE false',
    // Each its own statement: DROP DATABASE cannot run inside the transaction a multi-statement script is.
    'DROP DATABASE template0',
    'DROP DATABASE template1',
    'CHECKPOINT',
  ]) {
    await database.raw.executeSql(statement);
  }
  if (!database.dumpDataDir) throw new Error('PGlite database without dumpDataDir');
  const dump = await database.dumpDataDir();
  await database.close();
  const file = path.join(tmpdir(), `sendwell-template-${process.pid}-${randomBytes(4).toString('hex')}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  return { file, remove: () => rmSync(file, { force: true }) };
}

/** A migrated database on the Postgres server at `adminUrl`, to copy with CREATE DATABASE … TEMPLATE. */
export async function makePostgresTemplate(adminUrl: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `sendwell_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 2 });
  try {
    await migrateAll(database);
  } finally {
    await database.close();
  }
  return { name, drop: () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}
