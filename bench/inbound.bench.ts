// Inbound forwarding at load: 50 KB messages from a real SMTP client (nodemailer, 10 connections)
// into Sendwell's inbound SMTP server, each stored, routed on an alias with 3 rules (none matching,
// so each is checked) to its simple destination, and forwarded by the pg-boss workers through the
// SMTP pool (SRS envelope, DKIM signature) to a local SMTP sink. Figures: messages per second from
// the first message to the sink having all, and the time from a message's end of DATA (the client
// has written it) to the sink's 250 for its forward (p50, p95). The floor: a bare smtp-server that
// relays each message with nodemailer (same connections) to the same sink, measured the same way.
//   npm run bench -- inbound      BENCH_MESSAGES (2000), BENCH_ALIASES (10), BENCH_CONNECTIONS (10)
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { benchDatabase, percentile } from './support.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createAppContext } from '../apps/server/src/app-context.ts';
import { signUp } from '../apps/server/src/modules/auth/auth.service.ts';
import { addDomain } from '../apps/server/src/modules/domains/domains.service.ts';
import { createAlias, createRule } from '../apps/server/src/modules/aliases/aliases.service.ts';
import { startInboundSmtpServer } from '../apps/server/src/modules/inbound/index.ts';
import { startTestDnsServer } from '../apps/server/test/dns-server.ts';
import { createAliasBodySchema, createRuleBodySchema } from '@sendwell/contract/aliases';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 2000);
const ALIASES = Number(process.env.BENCH_ALIASES ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const BODY_BYTES = 50 * 1024;

// Nagle's algorithm stalls every SMTP command ~40 ms on loopback (see DESIGN.md): no delay, for all sockets.
const originalConnect = net.connect;
(net as { connect: typeof net.connect }).connect = ((...args: Parameters<typeof net.connect>) =>
  originalConnect(...args).setNoDelay(true)) as typeof net.connect;

// Round trips to Postgres (the app's pool and pg-boss's both go through pg's Client), counted per message.
let queries = 0;
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  queries += 1;
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

/** A sink that notes when each message (by its X-Bench-Id) was accepted. */
async function startSink(): Promise<{ port: number; arrived: Map<string, number>; close(): Promise<void> }> {
  const arrived = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    maxClients: 500,
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 8192) head += chunk.toString('latin1');
      });
      stream.on('end', () => {
        const id = /X-Bench-Id: (\S+)/.exec(head)?.[1];
        if (id) arrived.set(id, performance.now());
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.server.address() as AddressInfo).port,
    arrived,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const body = ('Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(20) + '\r\n').repeat(
  Math.ceil(BODY_BYTES / 1160),
);
function message(id: string, to: string): string {
  return [
    'From: Alice <alice@sender.example>',
    `To: ${to}`,
    `Subject: Bench ${id}`,
    `Message-ID: <${id}@sender.example>`,
    `X-Bench-Id: ${id}`,
    'Date: Tue, 24 Nov 2026 10:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    body.slice(0, BODY_BYTES),
    '',
  ].join('\r\n');
}

/** Sends `count` messages over a pooled client; answers each id's end-of-DATA time. */
async function drive(port: number, prefix: string, to: (i: number) => string): Promise<Map<string, number>> {
  const client = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    pool: true,
    maxConnections: CONNECTIONS,
    maxMessages: Infinity,
    ignoreTLS: true,
  } as never);
  const sent = new Map<string, number>();
  let next = 0;
  const lane = async () => {
    while (next < MESSAGES) {
      const i = next++;
      const id = `${prefix}-${i}`;
      const raw = message(id, to(i));
      await client.sendMail({ envelope: { from: 'alice@sender.example', to: [to(i)] }, raw });
      // The client's sendMail resolves at our 250, right after its end of DATA: the moment is taken there.
      sent.set(id, performance.now());
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, lane));
  client.close();
  return sent;
}

async function waitFor(arrived: Map<string, number>, prefix: string, timeoutMs: number): Promise<void> {
  const started = performance.now();
  for (;;) {
    let have = 0;
    for (const id of arrived.keys()) if (id.startsWith(`${prefix}-`)) have += 1;
    if (have >= MESSAGES) return;
    if (performance.now() - started > timeoutMs) throw new Error(`${prefix}: only ${have} of ${MESSAGES} arrived`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function figures(name: string, prefix: string, sent: Map<string, number>, arrived: Map<string, number>, start: number) {
  const latencies: number[] = [];
  let last = 0;
  for (const [id, at] of sent) {
    const done = arrived.get(id);
    if (done === undefined) continue;
    latencies.push(Math.max(0, done - at));
    last = Math.max(last, done);
  }
  const seconds = (last - start) / 1000;
  const rate = MESSAGES / seconds;
  console.log(
    `${name.padEnd(34)} ${MESSAGES} msgs in ${seconds.toFixed(2)} s = ${rate.toFixed(0)} msgs/s; ` +
      `end of DATA → sink 250: p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms`,
  );
  return { rate, p95: percentile(latencies, 95) };
}

/** CPU seconds (user + system) of each Postgres backend serving the bench's database, by pid (Linux /proc). */
async function backendCpu(): Promise<Map<number, number>> {
  const result = await database.db.execute(sql`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`);
  const ticks = new Map<number, number>();
  for (const { pid } of result.rows as { pid: number }[]) {
    try {
      // Fields 14 and 15 of /proc/<pid>/stat (after the parenthesised name): utime and stime in clock ticks.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      ticks.set(pid, (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // A backend that has gone, or no /proc: not counted.
    }
  }
  return ticks;
}
const cpuDelta = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, seconds]) => sum + seconds - (before.get(pid) ?? 0), 0);

const sink = await startSink();
const dns = await startTestDnsServer();
const { database, url, drop } = await benchDatabase();
const config = loadConfig({
  NODE_ENV: 'test',
  SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-01',
  LOG_LEVEL: 'silent',
  DATABASE_URL: url,
  SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
  DNS_SERVERS: dns.server,
  ALLOW_TEST_DOMAINS: 'true',
  SMTP_MAX_CONNECTIONS: String(CONNECTIONS),
  INBOUND_SMTP_CONNECTIONS_PER_IP: '1000',
  INBOUND_SMTP_MESSAGES_PER_IP_PER_MINUTE: '1000000',
});
const ctx = await createAppContext({ config, database, runWorkers: true, log: () => undefined });
const inbound = await startInboundSmtpServer(ctx, { port: 0, host: '127.0.0.1', log: console.warn });

// One account, a DKIM-verified domain, ALIASES aliases each with 3 rules and a confirmed destination.
const { user } = await signUp(
  database.db,
  {
    email: 'bench@bench.example',
    password: 'lunar-lander-12',
    confirmPassword: 'lunar-lander-12',
    firstName: 'B',
    lastName: 'M',
    company: '',
    plan: 'pro',
  } as never,
  { ip: null, userAgent: null },
);
const domain = await addDomain(database.db, config, { id: user.id, plan: 'pro' }, 'fwd.bench.example');
await database.db.execute(
  // Warmed up long ago: the bench measures the pipeline, not the warming cap (1,000 a day in week one).
  sql`UPDATE domains SET dkim_status = 'verified', is_verified = true, verified_at = now(),
      warming_started_at = now() - interval '60 days' WHERE id = ${domain.id}`,
);
const account = { ...user, emailConfirmedAt: new Date() };
const aliasAddresses: string[] = [];
for (let i = 0; i < ALIASES; i += 1) {
  const alias = await createAlias(
    ctx,
    account,
    domain.id,
    createAliasBodySchema.parse({ alias: `a${i}`, destination: `dest${i}@inbox.bench.example` }),
  );
  aliasAddresses.push(alias.address);
  for (const [n, conditions] of [
    { fromDomain: 'spam.example' },
    { subjectContains: 'urgent invoice' },
    { hasAttachment: true },
  ].entries()) {
    await createRule(
      ctx,
      account,
      createRuleBodySchema.parse({
        name: `r${n}`,
        priority: n + 1,
        conditions,
        actions: { block: true },
        aliasId: alias.id,
      }),
    );
  }
}
await database.db.execute(sql`UPDATE forward_addresses SET confirmed_at = now()`);
// Mail on behalf of an alias needs an account that confirmed its own address.
await database.db.execute(sql`UPDATE users SET email_confirmed_at = now() WHERE id = ${user.id}`);
sink.arrived.clear();

// The floor: a bare smtp-server relaying each message with a nodemailer pool to the same sink.
const relayPool = nodemailer.createTransport({
  host: '127.0.0.1',
  port: sink.port,
  pool: true,
  maxConnections: CONNECTIONS,
  maxMessages: Infinity,
  ignoreTLS: true,
} as never);
const relay = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  maxClients: 500,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    // The session's envelope is reset once the message is answered: read it first.
    const to = session.envelope.rcptTo.map((r) => r.address);
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      callback();
      relayPool
        .sendMail({ envelope: { from: 'relay@bench.example', to }, raw: Buffer.concat(chunks) })
        .catch((error: Error) => console.warn(`floor relay: ${error.message}`));
    });
  },
});
await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', () => resolve()));
const relayPort = (relay.server.address() as AddressInfo).port;

try {
  let start = performance.now();
  const floorSent = await drive(relayPort, 'floor', (i) => `dest${i % ALIASES}@inbox.bench.example`);
  await waitFor(sink.arrived, 'floor', 120_000);
  const floor = figures('bare smtp-server → nodemailer relay', 'floor', floorSent, sink.arrived, start);

  start = performance.now();
  const queriesBefore = queries;
  const cpuBefore = process.cpuUsage();
  const postgresBefore = await backendCpu();
  const busyBefore = performance.eventLoopUtilization();
  const ourSent = await drive(inbound.port, 'ours', (i) => aliasAddresses[i % ALIASES] as string);
  await waitFor(sink.arrived, 'ours', 300_000);
  const ours = figures('Sendwell inbound → forward', 'ours', ourSent, sink.arrived, start);
  const cpu = process.cpuUsage(cpuBefore);
  const postgresSeconds = cpuDelta(postgresBefore, await backendCpu());
  console.log(
    `event loop busy (this process: inbound server, workers, sink): ${(performance.eventLoopUtilization(busyBefore).utilization * 100).toFixed(0)}%`,
  );
  console.log(
    `Postgres queries per message (app and pg-boss, polling included): ${((queries - queriesBefore) / MESSAGES).toFixed(1)}`,
  );
  console.log(
    `CPU per message: this process ${((cpu.user + cpu.system) / 1000 / MESSAGES).toFixed(2)} ms, ` +
      `its Postgres backends ${((postgresSeconds * 1000) / MESSAGES).toFixed(2)} ms`,
  );
  console.log(
    `targets: ≥ 200 msgs/s (${ours.rate >= 200 ? 'met' : 'NOT met'}), p95 < 2000 ms (${ours.p95 < 2000 ? 'met' : 'NOT met'}); ` +
      `floor ${floor.rate.toFixed(0)} msgs/s, p95 ${floor.p95.toFixed(0)} ms`,
  );
} finally {
  relayPool.close();
  await new Promise<void>((resolve) => relay.close(() => resolve()));
  await inbound.close();
  await ctx.close({ graceful: false });
  await drop();
  await sink.close();
  await dns.close();
}
