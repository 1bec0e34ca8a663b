import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startQueue } from '../lib/queue.ts';
import { migrationsFolder, openDatabase, type Database } from './client.ts';

/**
 * The embedded database's first start without initdb and migrations. A new PGlite data folder costs
 * initdb, every migration, pg-boss's schema and the job queues: most of a cold start (4.8 s of it on
 * the 2-core machine). `npm run build` makes that database once, in memory, and dumps it next to the
 * server bundle; a start that finds its data folder empty loads the dump instead.
 *
 * A dump is named by what it holds: the migrations journal, pg-boss's and PGlite's versions. A start
 * uses only the dump of the migrations it ships (any other is ignored: initdb and migrations as
 * before), so a dump can never hold a schema the code does not know.
 */

/** Runs the app's migrations, pg-boss's schema and every job queue, as a start would. */
export async function migrateAll(database: Database): Promise<void> {
  await database.migrate();
  const boss = await startQueue(database, { runWorkers: false });
  // The job list imports most of the app: loaded here only.
  const { allJobs } = await import('../jobs.ts');
  for (const job of allJobs) await boss.createQueue(job.name);
  await boss.stop({ graceful: false, wait: true });
}

const require = createRequire(import.meta.url);

function versionOf(packageName: string): string {
  const manifest = path.join(path.dirname(require.resolve(packageName)), 'package.json');
  // A package's main file may sit in a sub-folder (dist/): walk up to its package.json.
  let dir = path.dirname(manifest);
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The dump's file for this code: in apps/server/dist, named by the migrations and the two engines' versions. */
export function initialDatabaseFile(): string {
  const journal = readFileSync(path.join(migrationsFolder, 'meta/_journal.json'));
  const key = createHash('sha256')
    .update(journal)
    .update(`pg-boss ${versionOf('pg-boss')} pglite ${versionOf('@electric-sql/pglite')}`)
    .digest('hex')
    .slice(0, 16);
  const dist = fileURLToPath(new URL('../../dist', import.meta.url));
  return path.join(dist, `initial-database-${key}.tar`);
}

/** Writes the dump for this code (see initialDatabaseFile), replacing the file whole. */
export async function writeInitialDatabase(file = initialDatabaseFile()): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const database = await openDatabase({});
  try {
    await migrateAll(database);
    await database.raw.executeSql('CHECKPOINT');
    if (!database.dumpDataDir) throw new Error('PGlite database without dumpDataDir');
    const dump = await database.dumpDataDir();
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
    // Dumps of earlier migrations are never loaded again.
    for (const name of readdirSync(path.dirname(file)))
      if (/^initial-database-[0-9a-f]+\.tar$/.test(name) && name !== path.basename(file))
        rmSync(path.join(path.dirname(file), name), { force: true });
  } finally {
    await database.close();
  }
}

/** The dump to start a new PGlite data folder from: none when the folder holds a database or no dump fits this code. */
export function initialDatabaseFor(dataDir: string): Blob | undefined {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return undefined;
  const file = initialDatabaseFile();
  return existsSync(file) ? new Blob([readFileSync(file)]) : undefined;
}
