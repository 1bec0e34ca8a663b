import PgBoss from 'pg-boss';
import type { Database } from '../db/client.ts';

export type Queue = PgBoss;

/**
 * Starts pg-boss on the app's database: its own small pool on a Postgres server, the shared PGlite
 * instance through the `db` port otherwise. Workers (maintenance, cron) run only where asked.
 */
export async function startQueue(database: Database, options: { runWorkers: boolean }): Promise<Queue> {
  const common = {
    supervise: options.runWorkers,
    schedule: options.runWorkers,
    migrate: true,
  } satisfies PgBoss.ConstructorOptions;
  const boss =
    database.driver === 'postgres'
      ? new PgBoss({ ...common, connectionString: database.connectionString, max: 4 })
      : new PgBoss({ ...common, db: database.raw as PgBoss.Db });
  boss.on('error', (error) => console.error('pg-boss error', error));
  await boss.start();
  return boss;
}

/** A job definition: its queue name and the work it does. Handlers must be idempotent. */
export type JobDefinition<Data extends object> = {
  name: string;
  cron?: string;
  handler: (data: Data) => Promise<void>;
};

/**
 * Creates each job's queue (every role needs them to enqueue) and, where workers run, its
 * schedule and its worker.
 */
export async function registerJobs(boss: Queue, jobs: JobDefinition<object>[], options: { runWorkers: boolean }): Promise<void> {
  for (const job of jobs) {
    await boss.createQueue(job.name);
    if (!options.runWorkers) continue;
    if (job.cron) await boss.schedule(job.name, job.cron);
    await boss.work<object>(job.name, async (batch) => {
      for (const item of batch) await job.handler(item.data);
    });
  }
}
