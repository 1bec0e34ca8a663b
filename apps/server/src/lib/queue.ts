import PgBoss from 'pg-boss';
import type { z } from 'zod';
import type { Database } from '../db/client.ts';
import { isConnectionError } from './db-errors.ts';

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
    // Expired jobs (a worker killed mid-job, or one whose completion was lost with its connection)
    // are found by this sweep: every 30 s, not pg-boss's 120 s, so such work resumes in under a minute.
    maintenanceIntervalSeconds: 30,
  } satisfies PgBoss.ConstructorOptions;
  const boss =
    database.driver === 'postgres'
      ? new PgBoss({ ...common, connectionString: database.connectionString, max: 4 })
      : new PgBoss({ ...common, db: database.raw as PgBoss.Db });
  // pg-boss reports what its loops meet here; a lost connection is expected now and then and it
  // reconnects by itself, so it is one line (the error carries its whole client otherwise).
  boss.on('error', (error) =>
    isConnectionError(error)
      ? console.warn(`pg-boss: database connection lost: ${error.message}`)
      : console.error('pg-boss error', error),
  );
  await boss.start();
  return boss;
}

/** How a job's worker runs: on a schedule, how many at once, how often it polls. */
export type WorkerOptions = {
  cron?: string;
  /** Jobs of this queue one process works on at once (default 1). */
  concurrency?: number;
  /** How often an idle worker looks for new jobs (pg-boss default 2 s, at least 0.5). */
  pollingIntervalSeconds?: number;
  /** Jobs one worker fetches at once (default 1); with `handleBatch` they are handled together. */
  batchSize?: number;
  /**
   * How long after an enqueue this process's idle workers are woken (default at once): a short
   * wait lets the jobs enqueued meanwhile be fetched as one batch.
   */
  wakeDelayMs?: number;
};

/**
 * A job: its queue name, zod payload, worker and enqueue options and its handler, in one place.
 * Handlers must be idempotent. `enqueue` checks the payload's type at compile time and its shape
 * when called; the handler gets the parsed payload.
 */
export type JobDefinition<Ctx, Payload> = {
  name: string;
  payload: z.ZodType<Payload>;
  worker: WorkerOptions;
  /** Defaults for every enqueue of this job (retries, expiry); an enqueue may override them. */
  send: PgBoss.SendOptions;
  handler: (ctx: Ctx, data: Payload) => Promise<void>;
  /**
   * Handles a fetched batch at once (fewer round trips); throwing retries the whole batch, so it
   * must leave done items done. Without it, the batch's items go to `handler` one by one.
   */
  handleBatch?: (ctx: Ctx, data: Payload[]) => Promise<void>;
  enqueue(queue: Queue, data: Payload, options?: PgBoss.SendOptions): Promise<string | null>;
  enqueueMany(queue: Queue, items: { data: Payload; options?: PgBoss.SendOptions }[]): Promise<void>;
};

export function defineJob<Ctx, Payload>(definition: {
  name: string;
  payload: z.ZodType<Payload>;
  worker?: WorkerOptions;
  send?: PgBoss.SendOptions;
  handler: (ctx: Ctx, data: Payload) => Promise<void>;
  handleBatch?: (ctx: Ctx, data: Payload[]) => Promise<void>;
}): JobDefinition<Ctx, Payload> {
  const send = definition.send ?? {};
  return {
    name: definition.name,
    payload: definition.payload,
    worker: definition.worker ?? {},
    send,
    handler: definition.handler,
    handleBatch: definition.handleBatch,
    async enqueue(queue, data, options) {
      const id = await queue.send(definition.name, definition.payload.parse(data) as object, { ...send, ...options });
      wakeWorkers(queue, definition.name, definition.worker?.wakeDelayMs);
      return id;
    },
    async enqueueMany(queue, items) {
      if (items.length === 0) return;
      await insertJobs(
        queue,
        items.map((item) => ({
          name: definition.name,
          data: definition.payload.parse(item.data) as object,
          ...send,
          ...item.options,
        })) as PgBoss.JobInsert<object>[],
      );
      wakeWorkers(queue, definition.name, definition.worker?.wakeDelayMs);
    },
  };
}

/** Per queue: the insert in flight, and the jobs gathering to go in one insert once it is done. */
const inserting = new WeakMap<Queue, Promise<unknown>>();
const gathering = new WeakMap<Queue, { jobs: PgBoss.JobInsert<object>[]; inserted: Promise<void> }>();

/**
 * Inserts jobs, in one statement with the other enqueueMany calls made while an insert is in
 * flight (under load, many messages enqueue at once: one round trip for them all, none added
 * when idle). Resolves once the jobs are stored; an insert that fails fails each of its callers.
 */
function insertJobs(queue: Queue, jobs: PgBoss.JobInsert<object>[]): Promise<void> {
  const waiting = gathering.get(queue);
  if (waiting) {
    waiting.jobs.push(...jobs);
    return waiting.inserted;
  }
  const inFlight = inserting.get(queue);
  if (!inFlight) return startInsert(queue, jobs);
  const batch = { jobs: [...jobs], inserted: Promise.resolve() };
  batch.inserted = inFlight
    .then(
      () => undefined,
      () => undefined,
    )
    .then(() => {
      gathering.delete(queue);
      return startInsert(queue, batch.jobs);
    });
  gathering.set(queue, batch);
  return batch.inserted;
}

function startInsert(queue: Queue, jobs: PgBoss.JobInsert<object>[]): Promise<void> {
  const insert = queue.insert(jobs).then(() => undefined);
  inserting.set(queue, insert);
  const settled = () => {
    if (inserting.get(queue) === insert) inserting.delete(queue);
  };
  insert.then(settled, settled);
  return insert;
}

// A registry holds jobs of many payload types; each handler parses its own.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the payload type varies per job and is checked by its zod schema
export type AnyJob<Ctx> = JobDefinition<Ctx, any>;

const workerIds = new WeakMap<Queue, Map<string, string[]>>();

/**
 * Wakes this process's workers of a queue so they fetch new jobs now rather than at their next
 * poll (a process without workers for it does nothing; its workers elsewhere poll as usual).
 */
export function wakeWorkers(boss: Queue, name: string, delayMs = 0): void {
  const wake = () => {
    for (const id of workerIds.get(boss)?.get(name) ?? []) boss.notifyWorker(id);
  };
  if (delayMs <= 0) return wake();
  const waking = wakesDue.get(boss) ?? new Set<string>();
  wakesDue.set(boss, waking);
  if (waking.has(name)) return;
  waking.add(name);
  setTimeout(() => {
    waking.delete(name);
    wake();
  }, delayMs).unref();
}

/** Queues whose workers are to be woken shortly (wakeDelayMs), per boss. */
const wakesDue = new WeakMap<Queue, Set<string>>();

/**
 * Creates each job's queue (every role needs them to enqueue) and, where workers run, its
 * schedule and its worker.
 */
export async function registerJobs<Ctx>(
  boss: Queue,
  ctx: Ctx,
  jobs: readonly AnyJob<Ctx>[],
  options: { runWorkers: boolean },
): Promise<void> {
  for (const job of jobs) {
    await boss.createQueue(job.name);
    if (!options.runWorkers) continue;
    if (job.worker.cron) await boss.schedule(job.name, job.worker.cron);
    const ids: string[] = [];
    for (let i = 0; i < (job.worker.concurrency ?? 1); i += 1) {
      ids.push(
        await boss.work<object>(
          job.name,
          { pollingIntervalSeconds: job.worker.pollingIntervalSeconds ?? 2, batchSize: job.worker.batchSize ?? 1 },
          async (batch) => {
            const items = batch.map((item) => job.payload.parse(item.data ?? {}));
            if (job.handleBatch) await job.handleBatch(ctx, items);
            else for (const item of items) await job.handler(ctx, item);
          },
        ),
      );
    }
    const byName = workerIds.get(boss) ?? new Map<string, string[]>();
    byName.set(job.name, ids);
    workerIds.set(boss, byName);
  }
}
