import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { openDatabase, type Database } from '../src/db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The dumped PGlite template (int-pglite), or '' when none was made. */
    pgliteTemplateFile: string;
    /** The Postgres template database's name (int-postgres), or '' when none was made. */
    postgresTemplate: string;
    /** The server bundle the integration projects' global set-up built (test/server-process.ts). */
    serverBundle: string;
  }
}

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A brand-new database on the Postgres server at TEST_DATABASE_URL (empty, or a copy of `template`),
 * and how to drop it again.
 */
export async function createScratchPostgres(
  prefix: string,
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/**
 * The migrated templates the integration projects' global set-up made (test/database-templates.ts),
 * or none outside vitest (benchmarks) and in a project without one.
 */
async function providedTemplates(): Promise<{ pgliteTemplate: Blob | null; postgresTemplate: string }> {
  if (!process.env.VITEST) return { pgliteTemplate: null, postgresTemplate: '' };
  const { inject } = await import('vitest');
  const file = inject('pgliteTemplateFile');
  pgliteTemplateLoaded ??= file ? readFile(file).then((bytes) => new Blob([bytes])) : Promise.resolve(null);
  return { pgliteTemplate: await pgliteTemplateLoaded, postgresTemplate: inject('postgresTemplate') ?? '' };
}
let pgliteTemplateLoaded: Promise<Blob | null> | undefined;

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or a brand-new database on the
 * Postgres server (dropped again by `drop`). TEST_DB picks which; the vitest projects set it. Under
 * vitest it is a copy of the run's migrated template (the migrations still run: a no-op then).
 * `migrate: false` leaves it empty, for a test that migrates it step by step.
 */
export async function createTestDatabase(
  options: { migrate?: boolean } = {},
): Promise<{ database: Database; drop: () => Promise<void> }> {
  const migrate = options.migrate ?? true;
  const templates = migrate ? await providedTemplates() : { pgliteTemplate: null, postgresTemplate: '' };
  if (process.env.TEST_DB !== 'postgres') {
    const database = await openDatabase(templates.pgliteTemplate ? { loadDataDir: templates.pgliteTemplate } : {});
    if (migrate) await database.migrate();
    return { database, drop: () => database.close() };
  }
  const scratch = await createScratchPostgres('sendwell_test', templates.postgresTemplate || undefined);
  const database = await openDatabase({ url: scratch.url, poolSize: 5 });
  if (migrate) await database.migrate();
  return {
    database,
    drop: async () => {
      await database.close();
      await scratch.drop();
    },
  };
}

/**
 * On Postgres, a way to open a connection of the test's own, beside the app's pool (to hold a lock
 * or run a concurrent transaction); null on PGlite, which has one connection. `release` closes it.
 */
export function separateConnection(
  database: Database,
): (() => Promise<{ query: pg.Client['query']; release(): void }>) | null {
  const url = database.connectionString;
  if (!url) return null;
  return async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return { query: client.query.bind(client) as pg.Client['query'], release: () => void client.end() };
  };
}

/**
 * Terminates every connection to the database at `url` (pg_terminate_backend), as an administrator
 * or a failing network would: the app's pools, pg-boss's, and those of other processes on it. With
 * `refuseForMs`, the database also refuses new connections for that long (a restart, an outage).
 * Answers how many connections were terminated.
 */
export async function terminateConnections(url: string, options: { refuseForMs?: number } = {}): Promise<number> {
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    if (options.refuseForMs) await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    const result = await admin.query(
      'SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    );
    if (options.refuseForMs) {
      await new Promise((resolve) => setTimeout(resolve, options.refuseForMs));
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    }
    return (result.rows[0] as { n: number }).n;
  } finally {
    await admin.end();
  }
}
