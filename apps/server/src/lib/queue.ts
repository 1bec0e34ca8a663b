import PgBoss from 'pg-boss';
import type { z } from 'zod';
import pg from 'pg';
import { isConnectionError, keepProcessOnConnectionLoss, poolLimits, retryOnConnectionLoss } from './db-errors.ts';
import type { Database, RawSql } from '../db/client.ts';
import { checkPgBossJobTable, extendJobs, liveJobData } from './adapters/pg-boss-jobs.ts';
import { createHash } from 'node:crypto';

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
    // Expired jobs (a worker killed mid-job) are found by this sweep: every 30 s, not pg-boss's
    // 120 s, so such work resumes in under a minute.
    maintenanceIntervalSeconds: 30,
  } satisfies PgBoss.ConstructorOptions;
  let raw: RawSql;
  let pool: pg.Pool | null = null;
  if (database.driver === 'postgres') {
    // pg-boss's own small pool, made here so that it has the limits and the error listeners of every pool.
    pool = new pg.Pool({
      connectionString: database.connectionString,
      max: 4,
      application_name: 'pgboss',
      ...poolLimits(QUEUE_STATEMENT_TIMEOUT_MS),
    });
    keepProcessOnConnectionLoss(pool, 'queue connection lost');
    const queuePool = pool;
    raw = { executeSql: (text, values) => queuePool.query(text, values as unknown[]) };
  } else {
    raw = database.raw;
  }
  const boss = new PgBoss({ ...common, db: raw as PgBoss.Db });
  // pg-boss reports what its loops (maintenance, cron) meet here; a lost connection is expected now
  // and then and the next round reconnects, so it is one line.
  boss.on('error', (error) =>
    isConnectionError(error)
      ? console.warn(`pg-boss: database connection lost: ${error.message}`)
      : console.error('pg-boss error', error),
  );
  await boss.start();
  queueSql.set(boss, raw);
  if (pool) {
    const owned = pool;
    boss.once('stopped', () => void owned.end().catch(() => undefined));
  }
  return boss;
}

/** pg-boss's statements are small; one running this long means the server is stuck. */
const QUEUE_STATEMENT_TIMEOUT_MS = 30_000;

/** The SQL port each boss runs on (its own pool on Postgres). */
const queueSql = new WeakMap<Queue, RawSql>();

/** The SQL port of a boss, for the statements of adapters/pg-boss-jobs.ts. */
function queueSqlOf(boss: Queue): RawSql {
  const raw = queueSql.get(boss);
  if (!raw) throw new Error('this queue was not started by startQueue');
  return raw;
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

/**
 * Wakes this process's workers of a queue so they fetch new jobs now rather than at their next
 * poll (a process without workers for it does nothing; its workers elsewhere poll as usual).
 */
function wakeWorkers(boss: Queue, name: string, delayMs = 0): void {
  const wake = () => runners.get(boss)?.wake(name);
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

/** The payloads of a job's jobs that wait, wait to be retried or run: what a recovery sweep must not queue again. */
export async function liveJobs<Ctx, Payload>(boss: Queue, job: JobDefinition<Ctx, Payload>): Promise<Payload[]> {
  return (await liveJobData(queueSqlOf(boss), job.name)).flatMap((data) => {
    const parsed = job.payload.safeParse(data);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * A job id made from a text (a UUID's form, from its SHA-256): the same text gives the same id, so
 * a second insert of it is a no-op (pg-boss inserts with ON CONFLICT DO NOTHING).
 */
export function stableJobId(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The job runner of each boss whose workers run in this process. */
const runners = new WeakMap<Queue, JobRunner>();

/** What this process's workers are doing, for /api/health: null where no workers run. */
export function workerHealth(boss: Queue): WorkerHealth | null {
  return runners.get(boss)?.health() ?? null;
}

export type WorkerHealth = {
  /** Queues whose fetching stopped and was restarted since the process started. */
  restarts: number;
  /** Queues restarted and not yet fetching again. */
  recovering: string[];
};

/**
 * Creates each job's queue (every role needs them to enqueue) and, where workers run, its
 * schedule and its worker loops (JobRunner).
 */
export async function registerJobs<Ctx>(
  boss: Queue,
  ctx: Ctx,
  jobs: readonly AnyJob<Ctx>[],
  options: { runWorkers: boolean; log?: (message: string) => void },
): Promise<void> {
  // pg-boss writes a queue or a schedule even when it is there already: a restart creates only what is missing.
  const queues = new Set((await boss.getQueues()).map((queue) => queue.name));
  const schedules = new Map(
    options.runWorkers ? (await boss.getSchedules()).map((schedule) => [schedule.name, schedule.cron]) : [],
  );
  for (const job of jobs) {
    if (!queues.has(job.name)) await boss.createQueue(job.name);
    if (options.runWorkers && job.worker.cron && schedules.get(job.name) !== job.worker.cron)
      await boss.schedule(job.name, job.worker.cron);
  }
  if (!options.runWorkers) return;
  const raw = queueSqlOf(boss);
  await checkPgBossJobTable(raw);
  const runner = new JobRunner(boss, raw, options.log ?? ((message) => console.warn(message)));
  for (const job of jobs) runner.start(job.name, job.worker, (items) => runJob(ctx, job, items));
  runners.set(boss, runner);
  boss.once('stopped', () => runner.stop());
}

async function runJob<Ctx>(ctx: Ctx, job: AnyJob<Ctx>, items: unknown[]): Promise<void> {
  const parsed = items.map((item) => job.payload.parse(item ?? {}));
  if (job.handleBatch) await job.handleBatch(ctx, parsed);
  else for (const item of parsed) await job.handler(ctx, item);
}

/** A fetch that has not come back in this long is stuck: the watchdog starts the queue's loop afresh. */
const FETCH_STALL_MS = 45_000;
/** How often the watchdog looks. */
const WATCHDOG_EVERY_MS = 5_000;
/** How long a job's completion (or failure) is retried while the database connection is lost. */
const SETTLE_ATTEMPTS = 12;

type Loop = {
  /** False once the watchdog replaced this loop (its stuck call may still come back: it is ignored). */
  current: boolean;
  phase: 'fetching' | 'waiting' | 'running';
  since: number;
  wake: (() => void) | null;
};

/**
 * Runs this process's jobs: `concurrency` loops per queue, each fetching (pg-boss `fetch`), running
 * the handler to its end, then completing or failing the jobs. Why not pg-boss's own `work()`:
 * it fails a job whose handler outlives the job's expiry while the handler goes on (a second handler
 * then runs the same job), records completions without awaiting them (an unhandled rejection when
 * the connection is lost) and swallows fetch errors. Here a running job's expiry is pushed on while
 * its handler lives (heartbeat), so expiry means the process died; a lost completion is retried; and
 * a watchdog restarts a queue's loop whose fetch stopped coming back.
 */
export class JobRunner {
  private stopping = false;
  private readonly loops = new Map<string, Loop[]>();
  private readonly restartLoop = new Map<Loop, () => void>();
  private restarts = 0;
  private readonly recovering = new Set<string>();
  private readonly watchdog: NodeJS.Timeout;

  constructor(
    private readonly boss: Queue,
    private readonly raw: RawSql,
    private readonly log: (message: string) => void,
    private readonly timing = { fetchStallMs: FETCH_STALL_MS, watchdogEveryMs: WATCHDOG_EVERY_MS },
  ) {
    this.watchdog = setInterval(() => this.check(), timing.watchdogEveryMs);
    this.watchdog.unref();
  }

  start(name: string, options: WorkerOptions, handle: (items: unknown[]) => Promise<void>): void {
    const loops: Loop[] = [];
    this.loops.set(name, loops);
    for (let i = 0; i < (options.concurrency ?? 1); i += 1) {
      const begin = (replacing?: Loop) => {
        const loop: Loop = { current: true, phase: 'waiting', since: Date.now(), wake: null };
        if (replacing) loops[loops.indexOf(replacing)] = loop;
        else loops.push(loop);
        this.restartLoop.set(loop, () => begin(loop));
        void this.run(name, options, loop, handle);
      };
      begin();
    }
  }

  wake(name: string): void {
    for (const loop of this.loops.get(name) ?? []) loop.wake?.();
  }

  health(): WorkerHealth {
    return { restarts: this.restarts, recovering: [...this.recovering] };
  }

  stop(): void {
    this.stopping = true;
    clearInterval(this.watchdog);
    for (const loops of this.loops.values()) for (const loop of loops) loop.wake?.();
  }

  private async run(
    name: string,
    options: WorkerOptions,
    loop: Loop,
    handle: (items: unknown[]) => Promise<void>,
  ): Promise<void> {
    const pollMs = Math.max(500, (options.pollingIntervalSeconds ?? 2) * 1000);
    while (!this.stopping && loop.current) {
      loop.phase = 'fetching';
      loop.since = Date.now();
      const jobs = await this.fetch(name, options.batchSize ?? 1);
      if (!loop.current) {
        // The watchdog gave up on this fetch; what it took expires and is retried.
        return;
      }
      this.recovering.delete(name);
      if (jobs.length === 0) {
        loop.phase = 'waiting';
        loop.since = Date.now();
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pollMs);
          loop.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        loop.wake = null;
        continue;
      }
      loop.phase = 'running';
      loop.since = Date.now();
      await this.runJobs(name, jobs, handle);
    }
  }

  /** pg-boss's fetch, through a port that notes the error it would swallow (a lost connection). */
  private async fetch(name: string, batchSize: number): Promise<PgBoss.Job<object>[]> {
    let failure: unknown = null;
    const observed = {
      executeSql: (text: string, values?: unknown[]) =>
        this.raw.executeSql(text, values).catch((error: unknown) => {
          failure = error;
          throw error;
        }),
    };
    const jobs = await this.boss.fetch<object>(name, { batchSize, db: observed } as PgBoss.FetchOptions);
    if (failure) {
      if (!isConnectionError(failure)) this.log(`${name}: fetching jobs failed: ${(failure as Error).message}`);
      // A lost connection: wait a moment rather than spin while the database is away.
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return jobs ?? [];
  }

  private async runJobs(
    name: string,
    jobs: PgBoss.Job<object>[],
    handle: (items: unknown[]) => Promise<void>,
  ): Promise<void> {
    const ids = jobs.map((job) => job.id);
    const expireSeconds = Math.min(
      ...jobs.map((job) => Number((job as { expireInSeconds?: number }).expireInSeconds ?? 900)),
    );
    const heartbeat = setInterval(
      () => void extendJobs(this.raw, name, ids).catch(() => undefined),
      Math.max(250, (expireSeconds * 1000) / 4),
    );
    heartbeat.unref();
    let error: unknown = null;
    try {
      await handle(jobs.map((job) => job.data));
    } catch (caught) {
      error = caught ?? new Error('the job failed');
    } finally {
      clearInterval(heartbeat);
    }
    try {
      if (error === null) await retryOnConnectionLoss(() => this.boss.complete(name, ids), SETTLE_ATTEMPTS);
      else {
        const message = error instanceof Error ? error.message : String(error);
        await retryOnConnectionLoss(
          () => (ids.length === 1 ? this.boss.fail(name, ids[0] as string, { message }) : this.boss.fail(name, ids)),
          SETTLE_ATTEMPTS,
        );
      }
    } catch (settleError) {
      // The database stayed away: the jobs stay active until they expire, then run again (jobs are idempotent).
      this.log(`${name}: could not record the end of ${ids.length} job(s): ${(settleError as Error).message}`);
    }
  }

  /** A loop whose fetch has not come back for FETCH_STALL_MS is replaced by a fresh one. */
  private check(): void {
    const now = Date.now();
    for (const [name, loops] of this.loops) {
      for (const loop of loops) {
        if (!loop.current || loop.phase !== 'fetching' || now - loop.since < this.timing.fetchStallMs) continue;
        loop.current = false;
        this.restarts += 1;
        this.recovering.add(name);
        this.log(
          `${name}: a worker's fetch has not come back for ${Math.round((now - loop.since) / 1000)} s; restarting it`,
        );
        this.restartLoop.get(loop)?.();
        this.restartLoop.delete(loop);
      }
    }
  }
}
