import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { useTestApp } from '../../../test/build-app.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { startBigCampaign } from '../../../test/started-campaign.ts';
import { freePort, startOwnPostgres, type OwnPostgres } from '../../../test/own-postgres.ts';
import { openDatabase } from '../../db/client.ts';
import { campaigns } from '../../db/schema/index.ts';
import { serverArgs } from '../../../test/server-process.ts';

const root = path.resolve(import.meta.dirname, '../../../../..');
const RECIPIENTS = 2000;
const STOP_AT = 500;
const DOWN_MS = 30_000;
const CONNECTIONS = 4;
/** What the product promises: sending resumes within a minute of the database answering again. */
const RESUMES_WITHIN_MS = 60_000;

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The database server itself stops for 30 s mid-send (not only its connections ended) and starts
 * again: a server of the test's own, on its own port and data directory. The API and the worker
 * processes stay up, the API answers 503 while the database is away and 200 after, and the send
 * resumes within a minute of the server's return with nobody missed and nobody mailed twice
 * (exactly-once) or at most the messages in flight twice (after-accept).
 */
function restartMidSend(guarantee: 'after-accept' | 'exactly-once') {
  let server: OwnPostgres;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  const children: ChildProcess[] = [];
  let log = '';
  beforeAll(async () => {
    server = await startOwnPostgres();
    sink = await startSmtpSink({ answerRcptAfterMs: (address) => (Number(/\d+/.exec(address)?.[0] ?? 0) % 3) * 3 });
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await sink.close();
    server.close();
  });
  const t = useTestApp(() => ({ SMTP_URL: sink.url, SEND_BATCH_TIMEOUT_SECONDS: '20' }), {
    database: async () => {
      const database = await openDatabase({ url: server.url, poolSize: 5 });
      await database.migrate();
      return { database, drop: () => database.close() };
    },
  });

  it('a restarted database server ends processes or stalls the send: both live on and the send finishes', async () => {
    const campaignId = await startBigCampaign(t(), RECIPIENTS, 'r');
    const apiPort = await freePort();
    const env = {
      ...process.env,
      DATABASE_URL: server.url,
      SMTP_URL: sink.url,
      SESSION_SECRET: t().ctx.config.sessionSecret,
      PUBLIC_URL: t().ctx.config.publicUrl,
      SEND_BATCH_TIMEOUT_SECONDS: '20',
      SMTP_MAX_CONNECTIONS: String(CONNECTIONS),
      SEND_GUARANTEE: guarantee,
      LOG_LEVEL: 'warn',
      PORT: String(apiPort),
      HOST: '127.0.0.1',
    };
    const exits: string[] = [];
    for (const role of ['worker', 'api']) {
      const child = spawn(process.execPath, serverArgs(`--role=${role}`), {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
      child.once('exit', (code, signal) => exits.push(`${role}: code ${code}, signal ${signal}`));
      children.push(child);
    }
    const health = async () => {
      try {
        return (await fetch(`http://127.0.0.1:${apiPort}/api/health`)).status;
      } catch {
        return 0;
      }
    };
    await waitFor(async () => (await health()) === 200 || exits.length > 0, 180_000, 'the API to start');
    await waitFor(() => sink.received.length >= STOP_AT || exits.length > 0, 240_000, `${STOP_AT} messages`);

    server.stop();
    const stoppedAt = sink.received.length;
    await waitFor(async () => (await health()) === 503, 15_000, 'the API to answer 503 while the database is away');
    await new Promise((r) => setTimeout(r, DOWN_MS));
    expect(exits, log).toEqual([]);
    server.start();
    const restartedAt = Date.now();
    await waitFor(async () => (await health()) === 200, RESUMES_WITHIN_MS, 'the API to answer 200 again');
    await waitFor(
      () => sink.received.length > stoppedAt + CONNECTIONS * 2,
      RESUMES_WITHIN_MS - (Date.now() - restartedAt),
      'sending to resume within a minute of the server starting again',
    );

    let lastCount = -1;
    let lastProgressAt = Date.now();
    await waitFor(
      async () => {
        if (exits.length > 0) return true;
        if (sink.received.length > lastCount) [lastCount, lastProgressAt] = [sink.received.length, Date.now()];
        if (Date.now() - lastProgressAt > RESUMES_WITHIN_MS) throw new Error(`no message for 60 s (${lastCount})`);
        const [row] = await t()
          .ctx.db.select({ status: campaigns.status })
          .from(campaigns)
          .where(eq(campaigns.id, campaignId))
          .catch(() => [undefined]);
        return row?.status === 'sent';
      },
      300_000,
      'the campaign to finish',
    );
    expect(exits, log).toEqual([]);

    const counts = new Map<string, number>();
    for (const message of sink.received.filter((m) => /^r\d+@x\.io$/.test(String(m.to[0])))) {
      const to = String(message.to[0]);
      counts.set(to, (counts.get(to) ?? 0) + 1);
    }
    const duplicates = [...counts].filter(([, n]) => n > 1).length;
    console.log(
      `SEND_GUARANTEE=${guarantee}: server stopped at ${stoppedAt} messages for ${DOWN_MS / 1000} s; ${duplicates} recipients got a second copy`,
    );
    expect(counts.size).toBe(RECIPIENTS);
    if (guarantee === 'exactly-once') expect(duplicates).toBe(0);
    // At most the messages in flight at the stop: one per SMTP connection, and those awaiting their record.
    else expect(duplicates).toBeLessThanOrEqual(CONNECTIONS * 2);
    const [finished] = await t()
      .ctx.db.select({ status: campaigns.status, totalSent: campaigns.totalSent })
      .from(campaigns)
      .where(eq(campaigns.id, campaignId));
    expect(finished).toEqual({ status: 'sent', totalSent: RECIPIENTS });
  });
}

describe.runIf(process.env.TEST_DB === 'postgres')('a restarted Postgres server mid-send', { timeout: 600_000 }, () => {
  describe('SEND_GUARANTEE=after-accept', () => restartMidSend('after-accept'));
  describe('SEND_GUARANTEE=exactly-once', () => restartMidSend('exactly-once'));
});
