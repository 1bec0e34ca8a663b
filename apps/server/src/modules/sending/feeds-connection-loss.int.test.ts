import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Domain } from '@sendwell/contract/domains';
import type { Sequence } from '@sendwell/contract/sequences';
import {
  followConfirmationLink,
  signUpUser,
  useTestApp,
  type TestApp,
  type TestClient,
} from '../../../test/build-app.ts';
import { startTestDnsServer } from '../../../test/dns-server.ts';
import { oneEmailFlow } from '../../../test/sequence-flows.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { terminateConnections } from '../../../test/test-database.ts';
import { contacts } from '../../db/schema/index.ts';
import { sendForwards } from '../inbound/forwarder.ts';
import { receiveInbound } from '../inbound/pipeline.ts';
import { advanceAllDue } from '../sequences/sequence-engine.ts';
import { sendSequenceEmails } from '../sequences/sequence-batch.ts';

/** Messages per feed: enough for several rounds of terminated connections, few enough for seconds. */
const MESSAGES = 200;
/** Every connection to the test's database is terminated each time another CHAOS_STEP messages went out. */
const CHAOS_STEP = 40;

/**
 * The sequence and forwarding feeds on the shared ledger while every database connection is
 * terminated again and again mid-send (Postgres only: the embedded database has no connections to
 * drop). Campaigns have the long version with a worker process (campaigns/connection-loss.int.test.ts);
 * the ledger, the policy and the engine under these two feeds are the same code, so this checks the
 * feed's own parts (its claim, read-back, stale requeue and letting go) in-process, in seconds: each
 * recipient gets exactly one message and every row ends sent. A batch that fails is run again, as
 * its job would be.
 */
describe.runIf(process.env.TEST_DB === 'postgres')('feeds of the sending policy under lost connections', () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let dnsServer: Awaited<ReturnType<typeof startTestDnsServer>>;
  beforeAll(async () => {
    dnsServer = await startTestDnsServer();
    // Each recipient answered a little late, so terminations find messages in flight.
    sink = await startSmtpSink({ answerRcptAfterMs: () => 5 });
  });
  afterAll(async () => {
    await sink.close();
    await dnsServer.close();
  });
  // Each feed gets an app and a database of its own: nothing of one run's chaos reaches the other.
  const env = () => ({
    SMTP_URL: sink.url,
    DNS_SERVERS: dnsServer.server,
    MAIL_FROM_DOMAIN: 'mail.sendwell.test',
    SMTP_MAX_CONNECTIONS: '4',
  });

  /** Terminates every connection each time CHAOS_STEP more messages reached the sink, until stopped. */
  function chaos(app: TestApp, received: () => number): { rounds: () => number; stop: () => Promise<void> } {
    let rounds = 0;
    let stopped = false;
    const loop = (async () => {
      let next = CHAOS_STEP;
      while (!stopped) {
        if (received() >= next && received() < MESSAGES) {
          await terminateConnections(app.ctx.database.connectionString as string);
          rounds += 1;
          next += CHAOS_STEP;
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    return {
      rounds: () => rounds,
      stop: async () => {
        stopped = true;
        await loop;
      },
    };
  }

  /**
   * Runs a batch until its rows are all sent, as its job's retries would. A run that failed (its
   * connection lost past the retries) may leave rows claimed that its release could not put back:
   * nobody holds them once it ended, and the next claim takes them once their claim is stale. The
   * stale window (20 s for forwards, half the batch timeout for sequences) is fast-forwarded by
   * `ageClaims` between runs, as forward-kill.int.test.ts does after its kill.
   */
  async function untilDone(
    send: () => Promise<void>,
    done: () => Promise<boolean>,
    ageClaims: () => Promise<unknown>,
    state: () => Promise<string>,
  ): Promise<number> {
    let failures = 0;
    for (let i = 0; i < 50; i += 1) {
      try {
        await send();
      } catch (error) {
        failures += 1;
        if (process.env.DEBUG_FEEDS) console.log('batch failed', error);
      }
      if (await done().catch(() => false)) return failures;
      await ageClaims().catch(() => undefined);
    }
    throw new Error(`the feed did not finish within 50 batches (${failures} failed): ${await state()}`);
  }

  async function addVerifiedDomain(client: TestClient, name: string): Promise<Domain> {
    const created = (await client.post('/api/domains', { domain: name })).json() as Domain;
    for (const record of created.records) dnsServer.setTxt(record.host, [record.value]);
    const verified = (await client.post(`/api/domains/${created.id}/verify`)).json() as Domain;
    expect(verified.isVerified).toBe(true);
    return verified;
  }

  const countsOf = (rows: { to: string[] }[]) => {
    const counts = new Map<string, number>();
    for (const row of rows) for (const to of row.to) counts.set(to, (counts.get(to) ?? 0) + 1);
    return counts;
  };

  describe('sequences', () => {
    const t = useTestApp(env);
    it('sequence sends: connections terminated every 40 messages, each contact mailed exactly once', async () => {
      const { client, user } = await signUpUser(t());
      await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
      await addVerifiedDomain(client, 'chaos-seq.example');
      const createdSequence = await client.post('/api/email-sequences', {
        name: 'Chaos',
        flowData: oneEmailFlow({ subject: 'Hi {{firstName}}', text: 'Hello' }),
        status: 'active',
        fromEmail: 'news@chaos-seq.example',
      });
      expect(createdSequence.statusCode, createdSequence.body).toBe(201);
      const sequence = createdSequence.json() as Sequence;
      const inserted = await t()
        .ctx.db.insert(contacts)
        .values(
          Array.from({ length: MESSAGES }, (_, i) => ({ userId: user.id, email: `c${i}@seq.io`, firstName: `C${i}` })),
        )
        .returning({ id: contacts.id });
      const enrolled = await client.post(`/api/email-sequences/${sequence.id}/enrolments`, {
        contactIds: inserted.map((row) => row.id),
      });
      expect(enrolled.json()).toEqual({ enrolled: MESSAGES });
      await advanceAllDue(t().ctx.db);
      const queued = await t().ctx.db.execute(
        sql`SELECT status, count(*)::int AS n FROM sequence_sends WHERE sequence_id = ${sequence.id} GROUP BY status`,
      );
      expect(queued.rows).toEqual([{ status: 'queued', n: MESSAGES }]);
      const before = sink.received.length;
      const ours = () => sink.received.slice(before).filter((m) => m.to.some((to) => to.endsWith('@seq.io')));

      const run = chaos(t(), () => ours().length);
      const failures = await untilDone(
        () => sendSequenceEmails(t().ctx, sequence.id),
        async () => {
          const [row] = (
            await t().ctx.db.execute(
              sql`SELECT count(*) FILTER (WHERE status = 'sent')::int AS sent FROM sequence_sends WHERE sequence_id = ${sequence.id}`,
            )
          ).rows as { sent: number }[];
          return row?.sent === MESSAGES;
        },
        () =>
          t().ctx.db.execute(
            sql`UPDATE sequence_sends SET claimed_at = claimed_at - interval '1 hour' WHERE sequence_id = ${sequence.id} AND status = 'sending'`,
          ),
        async () =>
          JSON.stringify(
            (
              await t().ctx.db.execute(
                sql`SELECT status, error, count(*)::int AS n FROM sequence_sends WHERE sequence_id = ${sequence.id} GROUP BY 1, 2`,
              )
            ).rows,
          ),
      );
      await run.stop();
      const counts = countsOf(ours());
      console.log(`sequence feed: ${run.rounds()} rounds of terminated connections, ${failures} batches failed`);
      expect(run.rounds()).toBeGreaterThanOrEqual(2);
      expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
      expect(counts.size).toBe(MESSAGES);
    });
  });

  describe('forwarding', () => {
    const t = useTestApp(env);
    it('forwards: connections terminated every 40 forwards, each message forwarded exactly once', async () => {
      const { client } = await signUpUser(t());
      const verified = await addVerifiedDomain(client, 'chaos-fwd.example');
      const alias = await client.post(`/api/domains/${verified.id}/aliases`, {
        alias: 'sales',
        destination: 'boss@chaos-dest.example',
      });
      expect(alias.statusCode, alias.body).toBe(201);
      const link = /https?:\/\/\S+\/confirm-forwarding\?token=\S+/.exec(
        sink.received.filter((m) => m.to.includes('boss@chaos-dest.example')).at(-1)?.parsed.text ?? '',
      )?.[0];
      expect((await followConfirmationLink(t().client(), link ?? '')).statusCode).toBe(200);
      // Received ten at a time, as the inbound server's connections would bring them.
      const receive = (i: number) =>
        receiveInbound(t().ctx, {
          raw: Buffer.from(
            [
              `From: Sender ${i} <s${i}@sender.example>`,
              'To: sales@chaos-fwd.example',
              `Subject: chaos-${i}`,
              `Message-ID: <chaos-${i}@sender.example>`,
              'MIME-Version: 1.0',
              'Content-Type: text/plain; charset=utf-8',
              '',
              `Message ${i}.`,
              '',
            ].join('\r\n'),
          ),
          envelope: { mailFrom: `s${i}@sender.example`, rcptTo: ['sales@chaos-fwd.example'] },
          via: 'smtp',
        });
      for (let i = 0; i < MESSAGES; i += 10) await Promise.all(Array.from({ length: 10 }, (_, j) => receive(i + j)));
      const ids = (
        (await t().ctx.db.execute(sql`SELECT id FROM alias_forwards WHERE status = 'pending' ORDER BY id`)).rows as {
          id: number | string;
        }[]
      ).map((row) => Number(row.id));
      expect(ids).toHaveLength(MESSAGES);
      const ours = () => sink.received.filter((m) => /^chaos-\d+$/.test(m.parsed.subject ?? ''));

      const run = chaos(t(), () => ours().length);
      // Batches of 50, four at once, as the forwarding job's workers take them.
      const batches = Array.from({ length: MESSAGES / 50 }, (_, i) => ids.slice(i * 50, i * 50 + 50));
      const outcomes = await Promise.allSettled(
        batches.map((batch) =>
          untilDone(
            () => sendForwards(t().ctx, batch),
            async () => {
              const [row] = (
                await t().ctx.db.execute(
                  sql`SELECT count(*) FILTER (WHERE status = 'sent')::int AS sent FROM alias_forwards WHERE id = ANY(${sql.param(batch)}::bigint[])`,
                )
              ).rows as { sent: number }[];
              return row?.sent === batch.length;
            },
            () =>
              t().ctx.db.execute(
                sql`UPDATE alias_forwards SET claimed_at = claimed_at - interval '1 hour' WHERE id = ANY(${sql.param(batch)}::bigint[]) AND status = 'sending'`,
              ),
            async () =>
              JSON.stringify(
                (
                  await t().ctx.db.execute(
                    sql`SELECT status, error, count(*)::int AS n FROM alias_forwards WHERE id = ANY(${sql.param(batch)}::bigint[]) GROUP BY 1, 2`,
                  )
                ).rows,
              ),
          ),
        ),
      );
      await run.stop();
      const failures = outcomes.map((outcome) => {
        if (outcome.status === 'rejected') throw outcome.reason;
        return outcome.value;
      });
      const times = new Map<string, number>();
      for (const message of ours())
        times.set(message.parsed.subject ?? '', (times.get(message.parsed.subject ?? '') ?? 0) + 1);
      console.log(
        `forward feed: ${run.rounds()} rounds of terminated connections, ${failures.reduce((a, b) => a + b, 0)} batches failed`,
      );
      expect(run.rounds()).toBeGreaterThanOrEqual(2);
      expect([...times].filter(([, n]) => n > 1)).toEqual([]);
      expect(times.size).toBe(MESSAGES);
    });
  });
});
