import { createRequire } from 'node:module';
import type pg from 'pg';

/**
 * The one place that reaches into pg's private parts, for SEND_GUARANTEE=exactly-once: a client's
 * socket (`connection.stream`), corked so that several pipelined statements leave in one write.
 * Checked against pg 8.23; `checkPgSocket` runs two corked, pipelined statements on a real
 * connection at start and says what is missing if a newer version changed it.
 */
const PG_VERSION_RELIED_ON = '8.23';

export type CorkableSocket = { cork(): void; uncork(): void };

export function pgSocketOf(client: pg.PoolClient): CorkableSocket | null {
  const stream = (client as unknown as { connection?: { stream?: Partial<CorkableSocket> } }).connection?.stream;
  return stream && typeof stream.cork === 'function' && typeof stream.uncork === 'function'
    ? (stream as CorkableSocket)
    : null;
}

/** Answers null when a client of `pool` exposes a corkable socket and pipelines through it, else why not. */
export async function checkPgSocket(pool: pg.Pool): Promise<string | null> {
  const installed = (createRequire(import.meta.url)('pg/package.json') as { version: string }).version;
  let client: pg.PoolClient | undefined;
  try {
    client = await pool.connect();
    const socket = pgSocketOf(client);
    if (!socket)
      return `pg ${installed}: a client has no connection.stream with cork and uncork (relied on ${PG_VERSION_RELIED_ON})`;
    socket.cork();
    const first = client.query('SELECT 1 AS n');
    const second = client.query('SELECT 2 AS n');
    socket.uncork();
    const answers = await Promise.all([first, second]);
    if (answers[0].rows[0]?.n !== 1 || answers[1].rows[0]?.n !== 2)
      return `pg ${installed}: pipelined answers came back wrong`;
    return null;
  } catch (error) {
    return `pg ${installed}: the socket check failed: ${(error as Error).message}`;
  } finally {
    client?.release();
  }
}
