import { performance } from 'node:perf_hooks';
import type { HealthResponse } from '@sendwell/contract/health';
import type { Database } from '../../db/client.ts';
import { workerHealth, type Queue } from '../../lib/queue.ts';
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

/**
 * Asks the database and the queue at once; 'degraded' when either does not answer or a queue's
 * worker in this process is being restarted by the watchdog.
 */
export async function checkHealth(database: Database, queue: Queue): Promise<HealthResponse> {
  const [db, jobs] = await Promise.all([probe(() => pingDatabase(database)), probe(() => queue.getQueues())]);
  const workers = workerHealth(queue);
  return {
    status: db.ok && jobs.ok && (workers?.recovering.length ?? 0) === 0 ? 'ok' : 'degraded',
    database: { ...db, driver: database.driver },
    queue: jobs,
    ...(workers ? { workers } : {}),
    uptimeSeconds: Math.round(process.uptime()),
  };
}
