import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob, type Queue } from './queue.ts';

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
