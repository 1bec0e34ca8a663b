import { performance } from 'node:perf_hooks';
import type { HealthResponse } from '@sendwell/contract/health';
import type { Database } from '../../db/client.ts';
import type { Queue } from '../../lib/queue.ts';
import { pingDatabase } from './health.repo.ts';

async function probe(check: () => Promise<unknown>) {
  const started = performance.now();
  try {
    await check();
    return { ok: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch (error) {
    return {
      ok: false,
      latencyMs: Math.round((performance.now() - started) * 10) / 10,
      error: (error as Error).message,
    };
  }
}

/** Asks the database and the queue at once; 'degraded' when either does not answer. */
export async function checkHealth(database: Database, queue: Queue): Promise<HealthResponse> {
  const [db, jobs] = await Promise.all([probe(() => pingDatabase(database)), probe(() => queue.getQueues())]);
  return {
    status: db.ok && jobs.ok ? 'ok' : 'degraded',
    database: { ...db, driver: database.driver },
    queue: jobs,
    uptimeSeconds: Math.round(process.uptime()),
  };
}
