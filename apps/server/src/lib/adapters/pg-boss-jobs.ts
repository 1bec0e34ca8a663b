import type { RawSql } from '../../db/client.ts';

/**
 * What pg-boss 10 offers no call for, read and written in its job table (schema `pgboss`):
 * pushing on the expiry of a job whose handler is still running (a heartbeat: pg-boss expires an
 * active job at `started_on + expire_in`), and listing the jobs of a queue not yet ended (so a
 * recovery sweep never queues a second job for work one already covers). checkPgBossJobTable runs
 * when workers start and fails the start if an upgrade changed the columns these statements use;
 * pg-boss-jobs.int.test.ts fails with it.
 */
const SCHEMA = 'pgboss';

/** Throws, naming the problem, when the job table lacks what extendJobs and liveJobData use. */
export async function checkPgBossJobTable(raw: RawSql): Promise<void> {
  try {
    await raw.executeSql(
      `SELECT id, name, state, started_on, expire_in, data FROM ${SCHEMA}.job WHERE state < 'completed'::${SCHEMA}.job_state LIMIT 0`,
      [],
    );
  } catch (error) {
    throw new Error(
      `pg-boss's job table is not as this version of Sendwell expects (${(error as Error).message}): the job heartbeat and the recovery sweep need id, name, state, started_on, expire_in and data`,
      { cause: error },
    );
  }
}

/** Moves the start of these active jobs to now: their expiry counts again from this moment. */
export async function extendJobs(raw: RawSql, name: string, ids: readonly string[]): Promise<void> {
  await raw.executeSql(
    `UPDATE ${SCHEMA}.job SET started_on = now() WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active'`,
    [name, ids],
  );
}

/** The payloads of this queue's jobs that are waiting, waiting to be retried or running. */
export async function liveJobData(raw: RawSql, name: string): Promise<unknown[]> {
  const result = await raw.executeSql(`SELECT data FROM ${SCHEMA}.job WHERE name = $1 AND state < 'completed'`, [name]);
  return (result.rows as { data: unknown }[]).map((row) => row.data);
}
