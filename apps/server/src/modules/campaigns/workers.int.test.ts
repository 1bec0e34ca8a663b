import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { signUpUser, useTestApp } from '../../../test/build-app.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { campaigns } from '../../db/schema/index.ts';
import { serverArgs } from '../../../test/server-process.ts';

const root = path.resolve(import.meta.dirname, '../../../../..');
const RECIPIENTS = 5000;
/** Messages received when the oldest running worker is killed. */
const KILL_AT = (process.env.WORKER_KILL_AT ?? '800,2500').split(',').map(Number);

/** SMTP connections of each worker process. */
const CONNECTIONS = 4;
/**
 * The test's limit, above the sum of its own waits (each names what it waited for), so a stall is
 * reported by the wait it happened in; on a loaded machine 240 s ended the test unnamed.
 */
const TEST_LIMIT_MS = 120_000 * KILL_AT.length + 240_000;

/**
 * Separate worker processes on one Postgres (the embedded database is single-process, so this
 * runs on the Postgres leg only): workers killed with SIGKILL mid-send, and two workers sharing
 * the rest, must leave every recipient at least one message; with SEND_GUARANTEE=exactly-once
 * exactly one, and by default at most the messages in flight at each kill twice (a message the
 * server accepted whose group record had not committed yet): per worker, one per SMTP connection
 * in its conversation and at most two per connection accepted while a group was being recorded.
 */
describe.runIf(process.env.TEST_DB === 'postgres').each([
  { guarantee: 'after-accept', maxDuplicates: KILL_AT.length * 3 * CONNECTIONS },
  { guarantee: 'exactly-once', maxDuplicates: 0 },
])('worker processes with SEND_GUARANTEE=$guarantee', { timeout: TEST_LIMIT_MS }, ({ guarantee, maxDuplicates }) => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  const workers: ChildProcess[] = [];
  beforeAll(async () => {
    // Three recipients in four are answered 9, 10 or 14 ms late, so that messages of one send group
    // reach their dots at different times.
    sink = await startSmtpSink({
      answerRcptAfterMs: (address) => [0, 9, 10, 14][Number(/\d+/.exec(address)?.[0] ?? 0) % 4] ?? 0,
    });
  });
  afterAll(async () => {
    for (const worker of workers) worker.kill('SIGKILL');
    await sink.close();
  });
  const t = useTestApp(() => ({ SMTP_URL: sink.url, SEND_BATCH_TIMEOUT_SECONDS: '10' }));

  function startWorker(env: Record<string, string> = {}): ChildProcess {
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
        SEND_GUARANTEE: guarantee,
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: 'inherit',
    });
    workers.push(worker);
    return worker;
  }

  async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('workers killed mid-send and two workers sharing the rest leave each recipient exactly one message', async () => {
    const { client } = await signUpUser(t());
    await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
    const list = (await client.post('/api/contact-lists', { name: 'Five thousand' })).json() as { id: number };
    const csv = `email,firstName\n${Array.from({ length: RECIPIENTS }, (_, i) => `w${i}@x.io,W${i}`).join('\n')}\n`;
    expect((await client.post('/api/contacts/import-csv', { csvData: csv, listId: list.id })).json().imported).toBe(
      RECIPIENTS,
    );
    const campaign = (
      await client.post('/api/campaigns', {
        name: 'Workers',
        subject: 'Hello {{firstName}}',
        fromEmail: 'news@acme.example',
        content: { html: '' },
        blocks: [{ id: 'b1', type: 'text', content: { text: 'Hi {{firstName}}', tag: 'p' } }],
        listIds: [list.id],
      })
    ).json();
    const before = sink.received.length;
    expect((await client.post(`/api/campaigns/${campaign.id}/send`)).json().totalRecipients).toBe(RECIPIENTS);

    // One worker, killed with SIGKILL mid-send; then two sharing the rest, one of them killed at
    // each further mark and a fresh one started in its place.
    const alive = [startWorker()];
    for (const [index, killAt] of KILL_AT.entries()) {
      await waitFor(() => sink.received.length - before >= killAt, 120_000, `${killAt} messages to go out`);
      const victim = alive.shift() as ChildProcess;
      victim.kill('SIGKILL');
      await new Promise((r) => victim.once('exit', r));
      expect(sink.received.length - before).toBeLessThan(RECIPIENTS);
      alive.push(startWorker());
      if (index === 0) alive.push(startWorker());
    }
    await waitFor(
      async () => {
        const [row] = await t()
          .ctx.db.select({ status: campaigns.status })
          .from(campaigns)
          .where(eq(campaigns.id, campaign.id));
        return row?.status === 'sent';
      },
      180_000,
      'the campaign to finish',
    );
    const mine = sink.received.slice(before).map((m) => m.to[0]);
    const counts = new Map<string, number>();
    for (const to of mine) counts.set(String(to), (counts.get(String(to)) ?? 0) + 1);
    const duplicates = [...counts].filter(([, n]) => n > 1);
    console.log(
      `SEND_GUARANTEE=${guarantee}: ${duplicates.length} recipients got a second copy after ${KILL_AT.length} kills`,
    );
    expect(duplicates.length).toBeLessThanOrEqual(maxDuplicates);
    if (maxDuplicates === 0) expect(duplicates).toEqual([]);
    const missing = Array.from({ length: RECIPIENTS }, (_, i) => `w${i}@x.io`).filter((email) => !counts.has(email));
    const missingRows = missing.length
      ? (
          await t().ctx.db.execute(
            sql`SELECT email, status, attempts, message_id, error, claimed_at, sent_at FROM campaign_sends WHERE campaign_id = ${campaign.id} AND email = ANY(${sql.param(missing)})`,
          )
        ).rows
      : [];
    expect(missingRows, 'ledger rows of recipients who got nothing').toEqual([]);
    expect(counts.size).toBe(RECIPIENTS);
    const ledger = await t().ctx.db.execute(
      sql`SELECT status, count(*)::int AS n FROM campaign_sends WHERE campaign_id = ${campaign.id} GROUP BY status`,
    );
    expect(ledger.rows).toEqual([{ status: 'sent', n: RECIPIENTS }]);
    // The campaign's own figure, kept by increments while sending, ends exact.
    const [finished] = await t()
      .ctx.db.select({ totalSent: campaigns.totalSent })
      .from(campaigns)
      .where(eq(campaigns.id, campaign.id));
    expect(finished?.totalSent).toBe(RECIPIENTS);
  });
});
