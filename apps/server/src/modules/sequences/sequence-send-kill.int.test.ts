import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Sequence } from '@sendwell/contract/sequences';
import { signUpUser, useTestApp } from '../../../test/build-app.ts';
import { oneEmailFlow } from '../../../test/sequence-flows.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { contacts } from '../../db/schema/index.ts';
import { advanceAllDue } from './sequence-engine.ts';
import { requestSequenceSend } from './sequences.jobs.ts';
import { serverArgs } from '../../../test/server-process.ts';

const root = path.resolve(import.meta.dirname, '../../../../..');
const RECIPIENTS = 2000;
/** Messages received when the sending worker is killed. */
const KILL_AT = 500;
const CONNECTIONS = 4;

const oneEmail = oneEmailFlow({ subject: 'Welcome, {{firstName}}', text: 'Hello {{firstName}}' });

/**
 * A worker process sending a sequence's step, killed with SIGKILL mid-send (Postgres leg only: the
 * embedded database is single-process), and a fresh worker that takes over: with
 * SEND_GUARANTEE=exactly-once every contact gets the step's email exactly once, no duplicate and
 * none lost; the rows the dead worker held come back once their claim goes stale.
 */
// The test's own waits (a worker's start, then the rest) add up to 300 s and each names what it waited
// for; the test's limit is above their sum, so a stall is reported by the wait it happened in.
describe.runIf(process.env.TEST_DB === 'postgres')('a sequence sender killed mid-send', { timeout: 420_000 }, () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  const workers: ChildProcess[] = [];
  beforeAll(async () => {
    // Recipients answered a few ms late, so a kill finds messages in flight.
    sink = await startSmtpSink({
      answerRcptAfterMs: (address) => [0, 9, 10, 14][Number(/\d+/.exec(address)?.[0] ?? 0) % 4] ?? 0,
    });
  });
  afterAll(async () => {
    for (const worker of workers) worker.kill('SIGKILL');
    await sink.close();
  });
  const t = useTestApp(() => ({ SMTP_URL: sink.url, SEND_BATCH_TIMEOUT_SECONDS: '10' }));

  function startWorker(): ChildProcess {
    const worker = spawn(process.execPath, serverArgs('--role=worker'), {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: t().ctx.database.connectionString,
        SMTP_URL: sink.url,
        SESSION_SECRET: t().ctx.config.sessionSecret,
        PUBLIC_URL: t().ctx.config.publicUrl,
        SEND_BATCH_TIMEOUT_SECONDS: '10',
        SMTP_MAX_CONNECTIONS: String(CONNECTIONS),
        SEND_GUARANTEE: 'exactly-once',
        LOG_LEVEL: 'warn',
      },
      stdio: 'inherit',
    });
    workers.push(worker);
    return worker;
  }

  async function waitFor(
    check: () => Promise<boolean> | boolean,
    timeoutMs: number,
    what: string,
    state?: () => Promise<unknown>,
  ): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > until)
        throw new Error(`timed out waiting for ${what}${state ? `; sends: ${JSON.stringify(await state())}` : ''}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('resumes after SIGKILL with every contact mailed exactly once, and the domain counts each message once', async () => {
    const { client, user } = await signUpUser(t());
    await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
    // The From's domain, warmed up long ago (no daily cap, but every send is still counted on its day).
    const domain = await client.post('/api/domains', { domain: 'acme.example' });
    expect(domain.statusCode, domain.body).toBe(201);
    const domainId = (domain.json() as { id: number }).id;
    await t().ctx.db.execute(
      sql`UPDATE domains SET warming_started_at = now() - interval '60 days' WHERE id = ${domainId}`,
    );
    const sequence = (
      await client.post('/api/email-sequences', {
        name: 'Killed',
        flowData: oneEmail,
        status: 'active',
        fromEmail: 'news@acme.example',
      })
    ).json() as Sequence;
    const inserted = await t()
      .ctx.db.insert(contacts)
      .values(
        Array.from({ length: RECIPIENTS }, (_, i) => ({ userId: user.id, email: `k${i}@x.io`, firstName: `K${i}` })),
      )
      .returning({ id: contacts.id });
    const enrolled = await client.post(`/api/email-sequences/${sequence.id}/enrolments`, {
      contactIds: inserted.map((row) => row.id),
    });
    expect(enrolled.json()).toEqual({ enrolled: RECIPIENTS });
    // Every step queued by the advancer here; the workers only send.
    await advanceAllDue(t().ctx.db);
    const statusCounts = async () =>
      Object.fromEntries(
        (
          (
            await t().ctx.db.execute(
              sql`SELECT status, count(*)::int AS n FROM sequence_sends WHERE sequence_id = ${sequence.id} GROUP BY status`,
            )
          ).rows as { status: string; n: number }[]
        ).map((row) => [row.status, row.n]),
      ) as Record<string, number>;
    expect(await statusCounts()).toEqual({ queued: RECIPIENTS });

    const before = sink.received.length;
    const victim = startWorker();
    await requestSequenceSend(t().ctx.queue, sequence.id);
    await waitFor(() => sink.received.length - before >= KILL_AT, 120_000, `${KILL_AT} messages to go out`);
    victim.kill('SIGKILL');
    await new Promise((r) => victim.once('exit', r));
    const atKill = sink.received.length - before;
    expect(atKill).toBeLessThan(RECIPIENTS);

    startWorker();
    // Wakes as the minute tick would give them, until every row is sent (the dead worker's claims
    // go stale after half the batch timeout and are sent then).
    await waitFor(
      async () => {
        const counts = await statusCounts();
        if ((counts.sent ?? 0) === RECIPIENTS) return true;
        await requestSequenceSend(t().ctx.queue, sequence.id);
        await new Promise((r) => setTimeout(r, 1000));
        return false;
      },
      180_000,
      'every sequence send to be sent',
      statusCounts,
    );
    await new Promise((r) => setTimeout(r, 500));
    const counts = new Map<string, number>();
    for (const message of sink.received.slice(before)) {
      const to = String(message.to[0]);
      counts.set(to, (counts.get(to) ?? 0) + 1);
    }
    const duplicates = [...counts].filter(([, n]) => n > 1);
    console.log(`sequence sender: killed after ${atKill} messages; ${duplicates.length} duplicates`);
    expect(duplicates).toEqual([]);
    expect(counts.size).toBe(RECIPIENTS);
    expect(await statusCounts()).toEqual({ sent: RECIPIENTS });
    // Issue 27: the dead worker's claimed-but-unsent rows gave their warming slots back when they were
    // recovered, so the domain's days count real sends only (they held the cap before).
    const [counted] = (
      await t().ctx.db.execute(
        sql`SELECT coalesce(sum(sent), 0)::int AS n FROM domain_daily_sends WHERE domain_id = ${domainId}`,
      )
    ).rows as { n: number }[];
    expect(counted?.n).toBe(RECIPIENTS);
  });
});
