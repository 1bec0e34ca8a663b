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
  /** Jobs of this queue one process works on at once (default 1). */
  concurrency?: number;
  /** How often an idle worker looks for new jobs (pg-boss default 2 s, at least 0.5). */
  pollingIntervalSeconds?: number;
};

const workerIds = new WeakMap<Queue, Map<string, string[]>>();

/**
 * Wakes this process's workers of a queue so they fetch new jobs now rather than at their next
 * poll (a process without workers for it does nothing; its workers elsewhere poll as usual).
 */
export function wakeWorkers(boss: Queue, name: string): void {
  for (const id of workerIds.get(boss)?.get(name) ?? []) boss.notifyWorker(id);
}

/**
 * Creates each job's queue (every role needs them to enqueue) and, where workers run, its
 * schedule and its worker.
 */
export async function registerJobs(
  boss: Queue,
  jobs: JobDefinition<object>[],
  options: { runWorkers: boolean },
): Promise<void> {
  for (const job of jobs) {
    await boss.createQueue(job.name);
    if (!options.runWorkers) continue;
    if (job.cron) await boss.schedule(job.name, job.cron);
    const ids: string[] = [];
    for (let i = 0; i < (job.concurrency ?? 1); i += 1) {
      ids.push(
        await boss.work<object>(
          job.name,
          { pollingIntervalSeconds: job.pollingIntervalSeconds ?? 2 },
          async (batch) => {
            for (const item of batch) await job.handler(item.data);
          },
        ),
      );
    }
    const byName = workerIds.get(boss) ?? new Map<string, string[]>();
    byName.set(job.name, ids);
    workerIds.set(boss, byName);
  }
}
