import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { SEQUENCE_TEMPLATES } from '@sendwell/contract/sequence-templates';
import type { FlowData, Sequence } from '@sendwell/contract/sequences';
import { signUpUser, useTestApp } from '../../../test/build-app.ts';
import { contacts } from '../../db/schema/index.ts';
import { requestAdvance } from './sequences.jobs.ts';
import { serverArgs } from '../../../test/server-process.ts';

const root = path.resolve(import.meta.dirname, '../../../../..');
const ENROLMENTS = 20_000;
/** Sends queued when the first worker is killed. */
const KILL_AT = 3000;

const welcome = SEQUENCE_TEMPLATES.find((t) => t.id === 'welcome-series')?.flowData as FlowData;

/**
 * Separate worker processes on one Postgres (Postgres leg only): the first is killed with SIGKILL
 * while it advances, two more share the rest. Every enrolment must take its first steps exactly
 * once: one queued email-1 send each, and every enrolment waiting at the first Wait step.
 */
describe.runIf(process.env.TEST_DB === 'postgres')('sequence advancer worker processes', { timeout: 240_000 }, () => {
  const workers: ChildProcess[] = [];
  afterAll(() => {
    for (const worker of workers) worker.kill('SIGKILL');
  });
  const t = useTestApp();

  function startWorker(): ChildProcess {
    const worker = spawn(process.execPath, serverArgs('--role=worker'), {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: t().ctx.database.connectionString,
        SESSION_SECRET: t().ctx.config.sessionSecret,
        PUBLIC_URL: t().ctx.config.publicUrl,
        LOG_LEVEL: 'warn',
      },
      stdio: 'inherit',
    });
    workers.push(worker);
    return worker;
  }

  async function counts() {
    const [row] = (
      await t().ctx.db.execute(sql`
        SELECT (SELECT count(*)::int FROM sequence_sends) AS sends,
               (SELECT count(DISTINCT enrolment_id)::int FROM sequence_sends) AS "enrolmentsSent",
               (SELECT count(*)::int FROM sequence_sends WHERE node_id <> 'email-1' OR step <> 1) AS "otherSteps",
               (SELECT count(*)::int FROM sequence_enrolments WHERE current_node_id = 'delay-1' AND step_count = 2) AS waiting`)
    ).rows as { sends: number; enrolmentsSent: number; otherSteps: number; waiting: number }[];
    return row as { sends: number; enrolmentsSent: number; otherSteps: number; waiting: number };
  }

  async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('a worker killed mid-advance leaves no step run twice and none skipped', async () => {
    const { client, user } = await signUpUser(t());
    const sequence = (
      await client.post('/api/email-sequences', {
        name: 'Workers',
        flowData: welcome,
        status: 'active',
        fromEmail: 'news@acme.example',
      })
    ).json() as Sequence;
    for (let from = 0; from < ENROLMENTS; from += 5000) {
      await t()
        .ctx.db.insert(contacts)
        .values(Array.from({ length: 5000 }, (_, i) => ({ userId: user.id, email: `k${from + i}@x.io` })));
    }
    const list = (await client.post('/api/contact-lists', { name: 'All' })).json() as { id: number };
    await t().ctx.db.execute(
      sql`INSERT INTO contact_list_members (list_id, contact_id) SELECT ${list.id}, id FROM contacts WHERE user_id = ${user.id}`,
    );
    const enrolled = await client.post(`/api/email-sequences/${sequence.id}/enrolments`, { listId: list.id });
    expect(enrolled.json()).toEqual({ enrolled: ENROLMENTS });

    const victim = startWorker();
    await requestAdvance(t().ctx.queue, 'test');
    await waitFor(async () => (await counts()).sends >= KILL_AT, 120_000, `${KILL_AT} sends queued`);
    victim.kill('SIGKILL');
    await new Promise((r) => victim.once('exit', r));
    const atKill = await counts();
    expect(atKill.sends).toBeLessThan(ENROLMENTS);

    startWorker();
    startWorker();
    await new Promise((r) => setTimeout(r, 1100));
    await requestAdvance(t().ctx.queue, 'test-after-kill');
    await waitFor(async () => (await counts()).waiting === ENROLMENTS, 180_000, 'every enrolment to reach Wait 1');
    const done = await counts();
    console.log(`sequence workers: killed after ${atKill.sends} sends queued; finished with ${done.sends}`);
    expect(done).toEqual({ sends: ENROLMENTS, enrolmentsSent: ENROLMENTS, otherSteps: 0, waiting: ENROLMENTS });
  });
});
