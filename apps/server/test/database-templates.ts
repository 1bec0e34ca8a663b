import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../src/db/client.ts';
import { startQueue } from '../src/lib/queue.ts';

/**
 * Migrated template databases, made once per test run by the integration projects' global set-up
 * (test/global-setup-*.ts) so that each test file copies a finished schema instead of building one:
 * PGlite's initdb, every Drizzle migration and pg-boss's schema cost seconds a file. Each file still
 * gets a database of its own; nothing a test writes is shared.
 */

/** Runs the app's migrations and pg-boss's (its schema and version row) on a fresh database. */
async function migrateAll(database: Database): Promise<void> {
  await database.migrate();
  const boss = await startQueue(database, { runWorkers: false });
  await boss.stop({ graceful: false, wait: true });
}

/** A PGlite data directory with every migration applied, dumped to a file; answers its path and how to remove it. */
export async function makePgliteTemplate(): Promise<{ file: string; remove: () => void }> {
  const database = await openDatabase({});
  await migrateAll(database);
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
