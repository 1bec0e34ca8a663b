import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { citext } from '@electric-sql/pglite/contrib/citext';
import pg from 'pg';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import * as schema from './schema/index.ts';
import {
  failedBeforeStatement,
  isConnectionError,
  isReadOnlyStatement,
  keepProcessOnConnectionLoss,
  poolLimits,
} from '../lib/db-errors.ts';

/**
 * The longest any one statement of the app may run: well above its slowest (a segment count or an
 * import chunk over a million contacts, seconds), and short enough that a statement stuck behind a
 * lock or a dead server gives way.
 */
const APP_STATEMENT_TIMEOUT_MS = 120_000;

/**
 * The app's Drizzle handle. PGlite's and node-postgres' databases share the whole query API;
 * only their raw-result types differ, so both are exposed through the node-postgres type.
 */
export type Db = NodePgDatabase<typeof schema>;
/** A transaction or the database itself: repos accept either. */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

/** The raw SQL port pg-boss needs (its `db` option). */
export type RawSql = { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };

export type Database = {
  db: Db;
  driver: 'pglite' | 'postgres';
  raw: RawSql;
  /** For pg-boss on Postgres: it opens its own pool from the connection string. */
  connectionString: string | undefined;
  /**
   * Applies pending migrations; on a shared server an advisory lock keeps concurrent starts apart.
   * Only tests pass another folder: the shipped migrations cut short, to test an upgrade.
   */
  migrate(folder?: string): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: its whole data directory as a tar, for `openDatabase({ loadDataDir })`. */
  dumpDataDir?: () => Promise<Blob>;
};

/**
 * Whether db runs on a node-postgres pool (Postgres), where each transaction gets a connection of its
 * own and several can run at once; PGlite has a single connection.
 */
export function runsOnPool(db: DbOrTx): boolean {
  return '$client' in db && db.$client instanceof pg.Pool;
}

/** A statement by its fixed text, with $1… parameters, and a name unique to that text. */
export type NamedStatement = { name: string; text: string };

/**
 * Runs a statement of a hot path (one per inbound message) outside any transaction. On Postgres it
 * is a named prepared statement: each connection parses and plans it once, not for every message
 * (planning was a third of the statement's cost), and its text is not rebuilt each time. PGlite
 * runs it as it is.
 */
export async function executeNamed(db: Db, statement: NamedStatement, values: unknown[]): Promise<unknown[]> {
  const client: unknown = '$client' in db ? db.$client : undefined;
  if (client instanceof pg.Pool) return (await client.query({ ...statement, values })).rows;
  return (await (client as PGlite).query(statement.text, values)).rows;
}

/** Pause before the one retry of a statement whose connection failed: the pool opens a fresh one. */
const RETRY_AFTER_MS = 50;

/**
 * Runs a statement of `pool.query` (every statement outside a transaction, as Drizzle issues them)
 * once more when its connection failed and running it again is safe: a read, or any statement whose
 * connection never came up. A write whose connection dropped is not repeated (it may have
 * committed): its caller fails, and a request answers 503.
 */
function retryReadsOnce(pool: pg.Pool): void {
  const query = pool.query.bind(pool) as (config: unknown, values?: unknown, callback?: unknown) => Promise<unknown>;
  const textOf = (config: unknown) =>
    typeof config === 'string' ? config : ((config as { text?: string } | null)?.text ?? '');
  // pg's query() also has callback forms; those (which nothing here uses) go straight through.
  pool.query = (async (config: unknown, values?: unknown, callback?: unknown) => {
    if (typeof values === 'function' || typeof callback === 'function') return query(config, values, callback);
    try {
      return await query(config, values);
    } catch (error) {
      const safe = isConnectionError(error) && (isReadOnlyStatement(textOf(config)) || failedBeforeStatement(error));
      if (!safe || pool.ending) throw error;
      await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
      return query(config, values);
    }
  }) as typeof pool.query;
}

const MIGRATION_LOCK_ID = 731104;
const EXTENSIONS_SQL = 'CREATE EXTENSION IF NOT EXISTS pg_trgm; CREATE EXTENSION IF NOT EXISTS citext;';
export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * Opens PGlite in dataDir (or in memory for 'memory://') when no URL is given, else a pg pool.
 * `loadDataDir` starts PGlite from a data directory dumped by `dumpDataDir` (tests start from a
 * migrated template instead of running initdb and every migration again).
 */
export async function openDatabase(options: {
  url?: string;
  dataDir?: string;
  poolSize?: number;
  loadDataDir?: Blob;
}): Promise<Database> {
  if (options.url) {
    const limits = poolLimits(APP_STATEMENT_TIMEOUT_MS);
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      ...limits,
      // JIT compilation costs more than it saves on this workload's short queries (measured on segment counts).
      options: `-c jit=off ${limits.options}`,
    });
    keepProcessOnConnectionLoss(pool, 'database connection lost');
    retryReadsOnce(pool);
    const db = drizzlePg(pool, { schema });
    return {
      db,
      driver: 'postgres',
      raw: { executeSql: async (text, values) => pool.query(text, values as unknown[]) },
      connectionString: options.url,
      migrate: async (folder = migrationsFolder) => {
        const client = await pool.connect();
        try {
          // A migration may rewrite a large table: it has no statement limit (reset before the connection goes back).
          await client.query('SET statement_timeout = 0');
          await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
          await client.query(EXTENSIONS_SQL);
          await migratePg(drizzlePg(client, { schema }), { migrationsFolder: folder });
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
          await client.query('RESET statement_timeout').catch(() => undefined);
          client.release();
        }
      },
      close: async () => {
        await pool.end();
      },
    };
  }
  const dataDir = options.dataDir ?? 'memory://';
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir, {
    extensions: { pg_trgm, citext },
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const pgliteDb = drizzlePglite(client, { schema });
  // Same query builder over a different raw driver; see the Db type's comment.
  const db = pgliteDb as unknown as Db;
  return {
    db,
    driver: 'pglite',
    raw: {
      // pg-boss sends multi-statement scripts without values; PGlite's query() takes one statement.
      executeSql: async (text, values) =>
        values && values.length > 0
          ? client.query(text, values)
          : { rows: (await client.exec(text)).at(-1)?.rows ?? [] },
    },
    connectionString: undefined,
    migrate: async (folder = migrationsFolder) => {
      await client.exec(EXTENSIONS_SQL);
      await migratePglite(pgliteDb, { migrationsFolder: folder });
    },
    close: () => client.close(),
    dumpDataDir: async () => client.dumpDataDir('none'),
  };
}
