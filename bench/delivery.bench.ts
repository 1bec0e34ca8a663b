// Sending at scale: 100,000 recipients with merge tags and tracking through the real pipeline
// (ledger, pg-boss batch jobs, rendering, SMTP pool) to a local SMTP sink (postfix's smtp-sink),
// against the floor of a bare nodemailer pool sending 100,000 pre-rendered messages to the same
// sink (half before our run, half after), plus the time from Send to the first accepted message.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import inspector from 'node:inspector';
import net from 'node:net';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { eq, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { benchDatabase } from './support.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createAppContext } from '../apps/server/src/app-context.ts';
import {
  accountConfirmation,
  accountConfirmationLink,
  signUp,
  updateProfile,
} from '../apps/server/src/modules/auth/auth.service.ts';
import {
  addSenderAddress,
  senderConfirmation,
  senderConfirmationLink,
} from '../apps/server/src/modules/sender-addresses/sender-addresses.service.ts';
import { createCampaign } from '../apps/server/src/modules/campaigns/campaigns.service.ts';
import { startCampaignSend } from '../apps/server/src/modules/campaigns/campaign-send.service.ts';
import { campaigns, contactLists, users } from '../apps/server/src/db/schema/index.ts';
import { emailBlockSchema } from '@sendwell/contract/campaigns';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 100_000);
/** SMTP connections, the same for our pipeline and for the floor. */
const CONNECTIONS = Number(process.env.BENCH_SMTP_CONNECTIONS ?? 10);
/**
 * Worker processes besides this one (`--role=worker`, as a deployment runs one per core). The SMTP
 * connections are shared out among all of them, so the total stays CONNECTIONS.
 */
const EXTRA_WORKERS = Number(process.env.BENCH_EXTRA_WORKERS ?? 0);
const SINK = '/usr/sbin/smtp-sink';
const PORT = 2525;

function ensureSmtpSink(): void {
  if (existsSync(SINK)) return;
  console.log('installing postfix for smtp-sink…');
  spawnSync('sh', ['-c', 'echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections'], {
    stdio: 'inherit',
  });
  const result = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'postfix'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.status !== 0 || !existsSync(SINK)) throw new Error('smtp-sink is not available');
}

/** postfix's smtp-sink: accepts and discards, cheap enough not to be what is measured. */
function startSink(): ChildProcess {
  return spawn(SINK, ['-u', 'nobody', `127.0.0.1:${PORT}`, '1000'], { stdio: 'ignore' });
}

/** A `--role=worker` process of the app; answers once it says it is ready. */
async function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts', '--role=worker'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('worker ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}: ${output}`)));
  });
  return child;
}

/** CPU seconds a process has used so far (Linux /proc; utime + stime in clock ticks of 1/100 s). */
function processCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds used so far by all processes named `name` (Linux /proc), e.g. the Postgres server's. */
function processesCpuSeconds(name: string): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) total += processCpuSeconds(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

/** Busy CPU seconds of the whole machine so far, all cores (Linux /proc/stat; idle and iowait excluded; 1/100 s ticks). */
function machineBusySeconds(): number {
  const ticks = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  return (ticks.reduce((sum, value) => sum + value, 0) - (ticks[3] ?? 0) - (ticks[4] ?? 0)) / 100;
}

async function waitForPort(): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(PORT, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('smtp-sink did not start');
}

/**
 * The floor: a bare nodemailer pool with as many connections, TCP_NODELAY, pre-rendered messages.
 * Answers the seconds `count` messages took and the CPU seconds this process used meanwhile.
 */
async function floorRun(count: number): Promise<{ seconds: number; cpuSeconds: number; machineBusySeconds: number }> {
  const originalConnect = net.connect;
  (net as { connect: typeof net.connect }).connect = ((...args: Parameters<typeof net.connect>) =>
    originalConnect(...args).setNoDelay(true)) as typeof net.connect;
  const pool = nodemailer.createTransport({
    host: '127.0.0.1',
    port: PORT,
    pool: true,
    maxConnections: CONNECTIONS,
    maxMessages: Infinity,
    ignoreTLS: true,
  } as never);
  try {
    const prerendered = Buffer.from(
      `From: news@acme.example\r\nTo: person@example.com\r\nSubject: Spring is here\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body>${'<p>Spring sale.</p>'.repeat(60)}</body></html>\r\n`,
    );
    const start = performance.now();
    const cpuBefore = process.cpuUsage();
    const machineBefore = machineBusySeconds();
    let nextIndex = 0;
    await Promise.all(
      Array.from({ length: 100 }, async () => {
        while (nextIndex < count) {
          const i = nextIndex++;
          await pool.sendMail({
            envelope: { from: 'news@acme.example', to: [`person${i}@example.com`] },
            raw: prerendered,
          });
        }
      }),
    );
    const cpu = process.cpuUsage(cpuBefore);
    return {
      seconds: (performance.now() - start) / 1000,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      machineBusySeconds: machineBusySeconds() - machineBefore,
    };
  } finally {
    pool.close();
    (net as { connect: typeof net.connect }).connect = originalConnect;
  }
}

ensureSmtpSink();
const sink = startSink();
await waitForPort();
const { database, url, drop } = await benchDatabase();
try {
  const env = {
    NODE_ENV: 'test',
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-00',
    LOG_LEVEL: 'silent',
    DATABASE_URL: url,
    SMTP_URL: `smtp://127.0.0.1:${PORT}`,
    DATA_DIR: '/tmp/sendwell-bench-delivery',
    // BENCH_SEND_GUARANTEE=exactly-once measures the commit-at-the-dot recorder.
    SEND_GUARANTEE: process.env.BENCH_SEND_GUARANTEE ?? 'after-accept',
  };
  const connectionsOf = (process: number) =>
    Math.floor(CONNECTIONS / (EXTRA_WORKERS + 1)) + (process < CONNECTIONS % (EXTRA_WORKERS + 1) ? 1 : 0);
  const config = loadConfig({ ...env, SMTP_MAX_CONNECTIONS: String(connectionsOf(0)) });
  const workers = await Promise.all(
    Array.from({ length: EXTRA_WORKERS }, (_, i) =>
      startWorker({ ...env, SMTP_MAX_CONNECTIONS: String(connectionsOf(i + 1)) }),
    ),
  );
  const { user } = await signUp(
    database.db,
    {
      email: 'sender@example.com',
      password: 'bench-pass',
      confirmPassword: 'bench-pass',
      firstName: 'S',
      lastName: 'B',
      company: 'Acme',
      plan: 'pro',
    },
    { ip: null, userAgent: null },
  );
  await updateProfile(database.db, user.id, { postalAddress: '1 Main St, Springfield' });
  await database.db.update(users).set({ plan: 'unlimited' }).where(eq(users.id, user.id));
  const [list] = await database.db.insert(contactLists).values({ userId: user.id, name: 'Everyone' }).returning();
  if (!list) throw new Error('no list');
  await database.db.execute(sql`
    INSERT INTO contacts (user_id, email, first_name, last_name, company)
    SELECT ${user.id}, 'person' || i || '@example' || (i % 50) || '.com', 'First' || i, 'Last' || i, 'Company ' || (i % 500)
    FROM generate_series(1, ${RECIPIENTS}) AS i`);
  await database.db.execute(
    sql`INSERT INTO contact_list_members (list_id, contact_id) SELECT ${list.id}, id FROM contacts WHERE user_id = ${user.id}`,
  );
  const blocks = [
    { id: '1', type: 'text', content: { text: 'Spring Sale', tag: 'h1' } },
    {
      id: '2',
      type: 'text',
      content: { text: 'Hi {{firstName|there}} from {{company|your team}}, our sale starts now.', tag: 'p' },
    },
    {
      id: '3',
      type: 'image',
      content: {
        src: 'https://images.example.com/flowers.jpg',
        alt: 'Flowers',
        href: 'https://shop.example.com/flowers',
      },
    },
    { id: '4', type: 'button', content: { text: 'Shop Now', url: 'https://shop.example.com/spring' } },
  ].map((b) => emailBlockSchema.parse(b));
  const ctx = await createAppContext({ config, database, runWorkers: true });
  // The account proves its address and its sender as a user does: through the links' services.
  const tokenOf = (link: string) => new URL(link).searchParams.get('token') ?? '';
  const signedUp = await accountConfirmation(
    database.db,
    config.sessionSecret,
    tokenOf(accountConfirmationLink(config, user)),
    user,
    true,
  );
  if (signedUp.state !== 'confirmed') throw new Error(`account not confirmed: ${signedUp.state}`);
  const [confirmedOwner] = await database.db.select().from(users).where(eq(users.id, user.id));
  if (!confirmedOwner) throw new Error('no user');
  const sender = await addSenderAddress(ctx, confirmedOwner, 'news@acme.example');
  const senderConfirmed = await senderConfirmation(
    database.db,
    config.sessionSecret,
    tokenOf(senderConfirmationLink(config, sender)),
    user.id,
    true,
  );
  if (senderConfirmed.state !== 'confirmed') throw new Error(`sender not confirmed: ${senderConfirmed.state}`);
  const [owner] = await database.db.select().from(users).where(eq(users.id, user.id));
  if (!owner) throw new Error('no user');
  const campaign = await createCampaign(
    database.db,
    owner,
    config.publicUrl,
    {
      name: 'Bench',
      subject: 'Spring is here, {{firstName}}',
      preheader: null,
      fromEmail: 'news@acme.example',
      fromName: 'Acme',
      replyTo: null,
      content: { html: '' },
      blocks,
      status: 'draft',
      scheduledAt: null,
      listIds: [list.id],
      segmentIds: [],
    },
    async () => undefined,
  );

  // The floor is timed in two halves, before and after our pipeline, so that the host's speed
  // drifting during the run (seen here: ±15% between back-to-back runs) weighs on both sides alike.
  const floorBefore = await floorRun(Math.floor(RECIPIENTS / 2));
  // BENCH_PROFILE=file.cpuprofile records a CPU profile of this process while the pipeline runs.
  const profiler = process.env.BENCH_PROFILE ? new inspector.Session() : null;
  if (profiler) {
    profiler.connect();
    await new Promise((r) => profiler.post('Profiler.enable', () => profiler.post('Profiler.start', r)));
  }
  // Our pipeline, end to end.
  const started = performance.now();
  // Where the pipeline's limit is: this process's event loop (workers and transport) or elsewhere.
  const loopBefore = performance.eventLoopUtilization();
  const cpuBefore = process.cpuUsage();
  const workersCpuBefore = workers.map((worker) => processCpuSeconds(worker.pid ?? 0));
  const machineBefore = machineBusySeconds();
  const postgresBefore = processesCpuSeconds('postgres');
  const sinkBefore = processCpuSeconds(sink.pid ?? 0);
  await startCampaignSend(ctx, user.id, campaign.id);
  let firstAccepted: number | null = null;
  for (;;) {
    const [row] = await database.db
      .select({ status: campaigns.status, sent: campaigns.totalSent })
      .from(campaigns)
      .where(eq(campaigns.id, campaign.id));
    if (firstAccepted === null) {
      const first = await database.db.execute(
        sql`SELECT min(sent_at) AS at FROM campaign_sends WHERE campaign_id = ${campaign.id} AND status = 'sent'`,
      );
      const at = (first.rows[0] as { at: Date | null }).at;
      if (at) firstAccepted = new Date(at).getTime();
    }
    if (row?.status === 'sent') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const ours = (performance.now() - started) / 1000;
  const loopBusy = performance.eventLoopUtilization(loopBefore).utilization;
  const cpu = process.cpuUsage(cpuBefore);
  const machineBusy = machineBusySeconds() - machineBefore;
  // Processes that ended meanwhile (pg-boss's short-lived connections) are missed: a lower bound.
  const postgresCpu = processesCpuSeconds('postgres') - postgresBefore;
  const sinkCpu = processCpuSeconds(sink.pid ?? 0) - sinkBefore;
  const workersCpu = workers.map((worker, i) => processCpuSeconds(worker.pid ?? 0) - (workersCpuBefore[i] ?? 0));
  if (profiler) {
    const { profile } = await new Promise<{ profile: object }>((resolve, reject) =>
      profiler.post('Profiler.stop', (error, result) =>
        error ? reject(error) : resolve(result as { profile: object }),
      ),
    );
    writeFileSync(process.env.BENCH_PROFILE ?? '', JSON.stringify(profile));
  }
  const wallStart = Date.now() - (performance.now() - started);
  const sentCount = (
    await database.db.execute(
      sql`SELECT count(*)::int AS n FROM campaign_sends WHERE campaign_id = ${campaign.id} AND status = 'sent'`,
    )
  ).rows[0] as { n: number };
  await ctx.close({ graceful: true });
  for (const worker of workers) worker.kill('SIGTERM');
  await Promise.all(
    workers.map(
      (worker) => new Promise((resolve) => (worker.exitCode === null ? worker.once('exit', resolve) : resolve(null))),
    ),
  );

  const floorAfter = await floorRun(RECIPIENTS - Math.floor(RECIPIENTS / 2));
  const floor = floorBefore.seconds + floorAfter.seconds;
  const floorCpu = floorBefore.cpuSeconds + floorAfter.cpuSeconds;
  const floorMachineBusy = floorBefore.machineBusySeconds + floorAfter.machineBusySeconds;
  const cores = availableParallelism();

  console.log(
    `recipients: ${RECIPIENTS.toLocaleString('en-US')} (merge tags, open pixel, tracked links, unsubscribe headers), sink: postfix smtp-sink, ${CONNECTIONS} SMTP connections, SEND_GUARANTEE=${ctx.recorders.guarantee}` +
      (EXTRA_WORKERS > 0 ? ` shared by ${EXTRA_WORKERS + 1} worker processes` : ''),
  );
  console.log(
    `Sendwell pipeline: ${ours.toFixed(1)} s, ${Math.round(sentCount.n / ours)} messages/s end to end (target ≥ 1,000/s); ${sentCount.n.toLocaleString('en-US')} sent`,
  );
  console.log(
    `  worker process while sending: event loop busy ${(100 * loopBusy).toFixed(0)}%, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s ` +
      `(${((cpu.user + cpu.system) / 1000 / Math.max(1, sentCount.n)).toFixed(2)} ms per message)` +
      workersCpu.map((seconds, i) => `; worker process ${i + 2}: CPU ${seconds.toFixed(1)} s`).join('') +
      `; machine CPU busy ${((100 * machineBusy) / cores / ours).toFixed(0)}%`,
  );
  console.log(
    `  Postgres server while sending: CPU ${postgresCpu.toFixed(1)} s (${((1000 * postgresCpu) / Math.max(1, sentCount.n)).toFixed(2)} ms per message); ` +
      `smtp-sink: CPU ${sinkCpu.toFixed(1)} s`,
  );
  console.log(
    `bare nodemailer pool, pre-rendered: ${floor.toFixed(1)} s, ${Math.round(RECIPIENTS / floor)} messages/s (the floor; ` +
      `half before our run ${floorBefore.seconds.toFixed(1)} s, half after ${floorAfter.seconds.toFixed(1)} s; ` +
      `CPU ${floorCpu.toFixed(1)} s, ${((1000 * floorCpu) / RECIPIENTS).toFixed(2)} ms per message; ` +
      `machine CPU busy ${((100 * floorMachineBusy) / cores / floor).toFixed(0)}%)`,
  );
  console.log(`ratio: ${(ours / floor).toFixed(2)}x the floor (target ≤ 1.5x)`);
  // Busy CPU of the whole machine (this process, Postgres, the sink, the kernel) per message: with
  // every core busy, ours could not take less than its share of it, whatever the concurrency.
  const oursPerMessage = (1000 * machineBusy) / Math.max(1, sentCount.n);
  const floorPerMessage = (1000 * floorMachineBusy) / RECIPIENTS;
  console.log(
    `machine CPU per message (${cores} cores): ours ${oursPerMessage.toFixed(2)} ms, floor ${floorPerMessage.toFixed(2)} ms; ` +
      `with all cores busy ours would take at least ${((oursPerMessage * RECIPIENTS) / cores / 1000 / floor).toFixed(2)}x the floor's time`,
  );
  console.log(
    `Send → first message accepted: ${firstAccepted === null ? 'n/a' : `${Math.round(firstAccepted - wallStart)} ms`}`,
  );
} finally {
  sink.kill();
  await drop();
}
