import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineJob, JobRunner, type Queue } from './queue.ts';

/** A queue whose inserts wait until released, recording what each one carried. */
function fakeQueue() {
  const inserts: { jobs: unknown[]; finish: (error?: Error) => void }[] = [];
  const queue = {
    insert: (jobs: unknown[]) =>
      new Promise<void>((resolve, reject) => {
        inserts.push({ jobs, finish: (error) => (error ? reject(error) : resolve()) });
      }),
  } as unknown as Queue;
  return { queue, inserts };
}

const job = defineJob({ name: 'test.job', payload: z.object({ n: z.number() }), handler: async () => undefined });
const items = (...ns: number[]) => ns.map((n) => ({ data: { n } }));
const carried = (jobs: unknown[]) => jobs.map((entry) => (entry as { data: { n: number } }).data.n);
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('enqueueMany', () => {
  it('inserts at once when idle; calls made while an insert is in flight go together in the next one', async () => {
    const { queue, inserts } = fakeQueue();
    const first = job.enqueueMany(queue, items(1));
    const second = job.enqueueMany(queue, items(2, 3));
    const third = job.enqueueMany(queue, items(4));
    await tick();
    expect(inserts.map((insert) => carried(insert.jobs))).toEqual([[1]]);
    inserts[0]?.finish();
    await first;
    await tick();
    expect(inserts.map((insert) => carried(insert.jobs))).toEqual([[1], [2, 3, 4]]);
    inserts[1]?.finish();
    await Promise.all([second, third]);
  });

  it('an insert that fails fails each of its callers, and the next calls insert afresh', async () => {
    const { queue, inserts } = fakeQueue();
    const first = job.enqueueMany(queue, items(1));
    const second = job.enqueueMany(queue, items(2));
    const third = job.enqueueMany(queue, items(3));
    inserts[0]?.finish(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await tick();
    inserts[1]?.finish(new Error('still down'));
    await expect(second).rejects.toThrow('still down');
    await expect(third).rejects.toThrow('still down');
    const fourth = job.enqueueMany(queue, items(4));
    await tick();
    expect(carried(inserts[2]?.jobs ?? [])).toEqual([4]);
    inserts[2]?.finish();
    await fourth;
  });
});

describe('JobRunner', () => {
  /** A boss whose first fetch never answers (a dead connection), then hands out one job. */
  function stallingBoss() {
    let fetches = 0;
    const completed: string[][] = [];
    const boss = {
      fetch: () => {
        fetches += 1;
        if (fetches === 1) return new Promise(() => undefined);
        return Promise.resolve(fetches === 2 ? [{ id: 'job-1', data: { n: 7 }, expireInSeconds: 60 }] : []);
      },
      complete: (_name: string, ids: string[]) => {
        completed.push(ids);
        return Promise.resolve();
      },
      fail: () => Promise.resolve(),
    } as unknown as Queue;
    const raw = { executeSql: () => Promise.resolve({ rows: [] }) };
    return { boss, raw, completed };
  }

  it('a queue whose fetch stopped coming back stalls for good: the watchdog restarts it, counts it, and the job runs', async () => {
    const { boss, raw, completed } = stallingBoss();
    const logged: string[] = [];
    const runner = new JobRunner(boss, raw, (line) => logged.push(line), { fetchStallMs: 50, watchdogEveryMs: 10 });
    const handled: unknown[] = [];
    try {
      runner.start('test.stall', { pollingIntervalSeconds: 0.5 }, async (items) => void handled.push(...items));
      await vi.waitFor(() => expect(completed).toEqual([['job-1']]), { timeout: 5000, interval: 10 });
      expect(handled).toEqual([{ n: 7 }]);
      expect(runner.health()).toEqual({ restarts: 1, recovering: [] });
      expect(logged.join('\n')).toMatch(/test\.stall: a worker's fetch has not come back/);
    } finally {
      runner.stop();
    }
  });
});
