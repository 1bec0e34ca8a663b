import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Domain } from '@sendwell/contract/domains';
import { followConfirmationLink, signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';
import { startTestDnsServer } from '../../../test/dns-server.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { FORWARD_CLAIM_STALE_MS } from './forwarder.ts';
import { recoverForwards } from './forwarding.jobs.ts';
import { startInboundSmtpServer, type InboundSmtpServer } from './smtp-server.ts';
import { serverArgs } from '../../../test/server-process.ts';

const root = path.resolve(import.meta.dirname, '../../../../..');
const MESSAGES = 300;
/**
 * Forwards received by the sink when the forwarding worker is killed: not a multiple of the worker's
 * concurrency (10), so the kill lands inside a batch, with forwards in flight.
 */
const KILL_AT = 65;
const DESTINATION = 'boss@dest.example';

/**
 * A real worker process (`main.ts --role=worker`) forwarding many inbound messages is killed with
 * SIGKILL mid-way, and a fresh worker takes over (Postgres leg only: the embedded database is
 * single-process).
 *
 * What the forwarder guarantees after the 250 (inbound/DESIGN.md): at-least-once, with the claim on
 * each alias_forwards row (the shared send ledger, as campaign and sequence sends) making every row
 * go out once EXCEPT a row the dead worker had claimed ('sending') at the moment of the kill: its SMTP
 * conversation may have ended with the sink's 250 before the recorder marked the row sent, and it is
 * sent again once the claim is stale. So the test asserts:
 * every message reached the sink at least once; a message reached it twice only if its row was
 * 'sending' at the kill; at most once more (never three times); every row ends 'sent'.
 *
 * The 20-second stale window (FORWARD_CLAIM_STALE_MS) is fast-forwarded by moving the unfinished
 * rows' timestamps back by that much after the kill: the processes, the kill and the sends are real.
 */
describe.runIf(process.env.TEST_DB === 'postgres')(
  'a forwarding worker killed mid-forward',
  { timeout: 240_000 },
  () => {
    let sink: Awaited<ReturnType<typeof startSmtpSink>>;
    let dnsServer: Awaited<ReturnType<typeof startTestDnsServer>>;
    let inbound: InboundSmtpServer;
    const workers: ChildProcess[] = [];
    beforeAll(async () => {
      dnsServer = await startTestDnsServer();
      // Each recipient answered late, so a kill finds forwards in flight.
      sink = await startSmtpSink({ answerRcptAfterMs: () => 50 });
    });
    afterAll(async () => {
      for (const worker of workers) worker.kill('SIGKILL');
      await inbound?.close();
      await sink.close();
      await dnsServer.close();
    });
    const t = useTestApp(() => ({
      SMTP_URL: sink.url,
      DNS_SERVERS: dnsServer.server,
      MAIL_FROM_DOMAIN: 'mail.sendwell.test',
    }));

    function startWorker(): ChildProcess {
      const worker = spawn(process.execPath, serverArgs('--role=worker'), {
        cwd: root,
        env: {
          ...process.env,
          DATABASE_URL: t().ctx.database.connectionString,
          SMTP_URL: sink.url,
          DNS_SERVERS: dnsServer.server,
          MAIL_FROM_DOMAIN: 'mail.sendwell.test',
          ALLOW_TEST_DOMAINS: 'true',
          SESSION_SECRET: t().ctx.config.sessionSecret,
          PUBLIC_URL: t().ctx.config.publicUrl,
          DATA_DIR: t().ctx.config.dataDir,
          SMTP_MAX_CONNECTIONS: '4',
          LOG_LEVEL: 'warn',
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
        await new Promise((r) => setTimeout(r, 5));
      }
    }

    async function addVerifiedDomain(client: TestClient, name: string): Promise<Domain> {
      const domain = (await client.post('/api/domains', { domain: name })).json() as Domain;
      for (const record of domain.records) dnsServer.setTxt(record.host, [record.value]);
      const verified = (await client.post(`/api/domains/${domain.id}/verify`)).json() as Domain;
      expect(verified.isVerified).toBe(true);
      return verified;
    }

    const forwardsReceived = () =>
      sink.received.filter((m) => m.to.includes(DESTINATION) && /^kill-\d+$/.test(m.parsed.subject ?? ''));

    const statusCounts = async () =>
      Object.fromEntries(
        (
          (
            await t().ctx.db.execute(
              sql`SELECT status, count(*)::int AS n FROM alias_forwards WHERE kind = 'forward' GROUP BY status`,
            )
          ).rows as { status: string; n: number }[]
        ).map((row) => [row.status, row.n]),
      ) as Record<string, number>;

    it('after SIGKILL and a fresh worker, every message reaches the sink; only one in flight at the kill may twice', async () => {
      const { client } = await signUpUser(t());
      const domain = await addVerifiedDomain(client, 'killfwd.example');
      const created = await client.post(`/api/domains/${domain.id}/aliases`, {
        alias: 'sales',
        destination: DESTINATION,
      });
      expect(created.statusCode, created.body).toBe(201);
      const link = /https?:\/\/\S+\/confirm-forwarding\?token=\S+/.exec(
        sink.received.filter((m) => m.to.includes(DESTINATION)).at(-1)?.parsed.text ?? '',
      )?.[0];
      expect(link).toBeDefined();
      expect((await followConfirmationLink(t().client(), link ?? '')).statusCode).toBe(200);

      // The messages come in through the real inbound SMTP server (in this process, which runs no
      // workers): each is stored and its forward enqueued before the 250.
      inbound = await startInboundSmtpServer(t().ctx, { port: 0, host: '127.0.0.1', log: () => undefined });
      const sender = nodemailer.createTransport({
        host: '127.0.0.1',
        port: inbound.port,
        secure: false,
        ignoreTLS: true,
        pool: true,
        maxConnections: 4,
        maxMessages: Infinity,
      });
      await Promise.all(
        Array.from({ length: MESSAGES }, (_, i) =>
          sender.sendMail({
            envelope: { from: `s${i}@sender.example`, to: ['sales@killfwd.example'] },
            raw: [
              `From: Sender ${i} <s${i}@sender.example>`,
              'To: sales@killfwd.example',
              `Subject: kill-${i}`,
              `Message-ID: <kill-${i}@sender.example>`,
              'Date: Tue, 24 Nov 2026 10:00:00 +0000',
              'MIME-Version: 1.0',
              'Content-Type: text/plain; charset=utf-8',
              '',
              `Message number ${i}.`,
              '',
            ].join('\r\n'),
          }),
        ),
      );
      sender.close();
      expect(await statusCounts()).toEqual({ pending: MESSAGES });

      const victim = startWorker();
      // Killed once enough went out AND forwards are in flight (not in the worker's pause between batches).
      const sendingNow = async () =>
        (
          (await t().ctx.db.execute(sql`SELECT 1 FROM alias_forwards WHERE status = 'sending' LIMIT 1`))
            .rows as unknown[]
        ).length > 0;
      await waitFor(
        async () => forwardsReceived().length >= KILL_AT && (await sendingNow()),
        120_000,
        `${KILL_AT} forwards to go out with more in flight`,
      );
      victim.kill('SIGKILL');
      await new Promise((r) => victim.once('exit', r));
      const atKill = forwardsReceived().length;
      const inFlight = new Set(
        (
          (
            await t().ctx.db.execute(
              sql`SELECT m.subject FROM alias_forwards f JOIN alias_messages m ON m.id = f.alias_message_id
                WHERE f.kind = 'forward' AND f.status = 'sending'`,
            )
          ).rows as { subject: string }[]
        ).map((row) => row.subject),
      );
      const countsAtKill = await statusCounts();
      console.log(`at the kill: ${JSON.stringify(countsAtKill)}`);
      expect(atKill).toBeLessThan(MESSAGES);
      // The kill found forwards mid-conversation (the point of the test).
      expect(countsAtKill.sending ?? 0).toBeGreaterThan(0);

      // The stale window passes (fast-forwarded): the dead worker's claims, and the rows whose jobs it had
      // fetched but not started, are now stale for the recovery sweep and the next claim.
      const back = `${FORWARD_CLAIM_STALE_MS + 1000} milliseconds`;
      await t().ctx.db.execute(
        sql`UPDATE alias_forwards SET claimed_at = claimed_at - ${back}::interval, created_at = created_at - ${back}::interval
          WHERE status <> 'sent'`,
      );

      const successor = startWorker();
      await waitFor(
        async () => {
          const counts = await statusCounts();
          if ((counts.sent ?? 0) === MESSAGES) return true;
          // The sweep the worker's cron runs every minute, run here every 2 s.
          await recoverForwards(t().ctx);
          await new Promise((r) => setTimeout(r, 2000));
          return false;
        },
        180_000,
        'every forward to be sent',
      );
      await new Promise((r) => setTimeout(r, 1000));
      successor.kill('SIGKILL');

      const times = new Map<string, number>();
      for (const message of forwardsReceived()) {
        const subject = message.parsed.subject ?? '';
        times.set(subject, (times.get(subject) ?? 0) + 1);
      }
      const duplicates = [...times].filter(([, n]) => n > 1);
      console.log(
        `forwarding worker killed after ${atKill} forwards with ${inFlight.size} in flight; ` +
          `${duplicates.length} delivered twice: ${duplicates.map(([s]) => s).join(', ') || 'none'}`,
      );
      expect(times.size).toBe(MESSAGES);
      for (const [subject, n] of duplicates) {
        expect(inFlight.has(subject), `${subject} was not in flight at the kill but arrived ${n} times`).toBe(true);
        expect(n).toBe(2);
      }
      expect(await statusCounts()).toEqual({ sent: MESSAGES });
    });
  },
);
