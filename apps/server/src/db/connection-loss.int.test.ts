import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { signUpUser, useTestApp } from '../../test/build-app.ts';
import { terminateConnections } from '../../test/test-database.ts';
import { DATABASE_UNAVAILABLE, isConnectionError } from '../lib/db-errors.ts';

/** Runs `statement` and, once it is on its way, terminates every connection to the database. */
async function terminatedWhileRunning<T>(url: string, statement: () => PromiseLike<T>): Promise<T> {
  // Drizzle's queries start when awaited: this starts it now.
  const running = (async () => await statement())();
  // It may fail while the termination is on its way; the caller handles that through the answer.
  running.catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 300));
  await terminateConnections(url);
  return running;
}

/**
 * Security finding 2 in one process (Postgres only: the embedded database has no connections to
 * drop): statements whose connection is terminated under them, and requests while the database
 * refuses connections.
 */
describe.runIf(process.env.TEST_DB === 'postgres')('a dropped Postgres connection', () => {
  const t = useTestApp();
  const url = () => t().ctx.database.connectionString as string;

  it("a dropped connection crashes processes: a transaction's checked-out client losing its connection fails the transaction, not the process", async () => {
    // Before, the client emitted 'error' with no listener: "Unhandled 'error' event", an uncaught
    // exception that ends the process (vitest's own listener keeps the test run alive).
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    const failed = await terminatedWhileRunning(url(), () =>
      t().ctx.db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_sleep(1)`);
      }),
    )
      .catch((error: unknown) => error)
      .finally(() => process.off('uncaughtException', onUncaught));
    expect(uncaught).toEqual([]);
    expect(isConnectionError(failed), String(failed)).toBe(true);
    // The pool discarded the dead client and serves the next statement on a fresh one.
    const after = await t().ctx.db.execute(sql`SELECT 1 AS n`);
    expect(after.rows).toEqual([{ n: 1 }]);
  });

  it('a dropped connection: a read whose connection dropped under it is run again once', async () => {
    const answer = await terminatedWhileRunning(url(), () => t().ctx.db.execute(sql`SELECT 42 AS n FROM pg_sleep(1)`));
    expect(answer.rows).toEqual([{ n: 42 }]);
  });

  it('a dropped connection: a write whose connection dropped under it is not repeated (it may have committed) and fails', async () => {
    await t().ctx.db.execute(sql`CREATE TABLE IF NOT EXISTS connection_loss_writes (at timestamptz)`);
    const failed = await terminatedWhileRunning(url(), () =>
      t().ctx.db.execute(sql`INSERT INTO connection_loss_writes SELECT now() FROM pg_sleep(1)`),
    ).catch((error: unknown) => error);
    expect(isConnectionError(failed), String(failed)).toBe(true);
    const rows = await t().ctx.db.execute(sql`SELECT count(*)::int AS n FROM connection_loss_writes`);
    expect(rows.rows).toEqual([{ n: 0 }]);
  });

  it('a dropped connection: a request while the database refuses connections answers 503 with a clear message, then works again', async () => {
    const { client } = await signUpUser(t());
    const outage = terminateConnections(url(), { refuseForMs: 1500 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const during = await client.get('/api/contacts');
    expect(during.statusCode, during.body).toBe(503);
    expect(during.json()).toEqual({ message: DATABASE_UNAVAILABLE });
    await outage;
    const after = await client.get('/api/contacts');
    expect(after.statusCode, after.body).toBe(200);
  });
});
