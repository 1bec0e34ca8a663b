import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Db } from './client.ts';

/** One row as an array of values in select-list order, each parsed by the driver's default parser for its type. */
export type RawRow = unknown[];

/**
 * A statement for the hottest reads, run on the driver itself: Drizzle's query building and its
 * per-column result mapping cost more Node time than the database work of a small indexed read
 * (measured on GET /api/contacts?search under load). On Postgres the statement is named, so each
 * connection parses and plans it once; rows come back as arrays. Use only with the database handle
 * (not a transaction), and only for statements whose columns the default parsers handle as wanted
 * (int4, float8, bool, text, text[]; cast anything else in SQL).
 */
export function rawStatement(db: Db, name: string, text: string): (values: unknown[]) => Promise<RawRow[]> {
  // Db is typed without the driver (see client.ts); drizzle() keeps it as $client: a pg pool or PGlite.
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  if (client instanceof pg.Pool) {
    return async (values) => (await client.query<RawRow>({ name, text, values, rowMode: 'array' })).rows;
  }
  return async (values) => (await client.query<RawRow>(text, values, { rowMode: 'array' })).rows;
}
