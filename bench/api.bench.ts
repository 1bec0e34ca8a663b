// The public API (issue 32): GET /api/contacts with an API key at 50 connections on 1,000,000 contacts
// (p50/p99, beside the same requests with a session cookie: the floor), and webhook fan-out: signed
// deliveries per second to a local receiver that verifies every signature with the standardwebhooks
// package (beside a bare HTTP client posting the same bodies at the same concurrency: the floor).
import { createServer, type IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { benchDatabase, percentile } from './support.ts';
import { BENCH_LOGIN, runLoad, startSignedInApp } from './search-load.ts';
import { signUp } from '../apps/server/src/modules/auth/auth.service.ts';
import { createApiKey } from '../apps/server/src/modules/api-keys/api-keys.service.ts';
import { createAppContext } from '../apps/server/src/app-context.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createWebhookEndpoint, webhookGuard } from '../apps/server/src/modules/webhooks/webhooks.service.ts';
import { recordWebhookEvent } from '../apps/server/src/modules/webhooks/webhook-events.ts';
import { deliverDueWebhooks } from '../apps/server/src/modules/webhooks/webhook-delivery.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const EVENTS = Number(process.env.BENCH_EVENTS ?? 5_000);
/** deliverDueWebhooks attempts this many at once: the floor client posts at the same concurrency. */
const DELIVERY_CONCURRENCY = 50;

const pages = Array.from({ length: 20 }, (_, i) => ({
  method: 'GET' as const,
  path: `/api/contacts?page=${1 + i * 997}&pageSize=50`,
}));

const readBody = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

const dataDir = mkdtempSync(path.join(tmpdir(), 'sendwell-api-bench-'));
const { database, drop } = await benchDatabase();
try {
  const { user } = await signUp(
    database.db,
    { ...BENCH_LOGIN, confirmPassword: BENCH_LOGIN.password, firstName: 'A', lastName: 'B', company: '', plan: 'pro' },
    { ip: null, userAgent: null },
  );
  const seeded = performance.now();
  await database.db.execute(sql`
    INSERT INTO contacts (user_id, email, first_name, last_name, company, created_at)
    SELECT ${user.id}, 'c' || i || '@example.com', 'First' || (i % 5000), 'Last' || (i % 7000), 'Company ' || (i % 3000),
           now() - (i % 365) * interval '1 day'
    FROM generate_series(1, ${ROWS}) AS i`);
  await database.raw.executeSql('ANALYZE contacts', []);
  console.log(
    `seeded ${ROWS.toLocaleString('en-US')} contacts in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
  );
  // The per-key limit (10/s by default) is what a caller meets; the bench measures the route, not the limiter.
  await database.db.execute(sql`UPDATE users SET api_requests_per_second = 100000 WHERE id = ${user.id}`);
  const { secret } = await createApiKey(database.db, user.id, { name: 'bench', scope: 'full', domain: null });

  const app = await startSignedInApp(database, dataDir);
  try {
    const measure = async (label: string, headers?: Record<string, string>) => {
      // A short warm-up, then the measured run.
      await runLoad({ ...app, connections: CONNECTIONS, seconds: 2, requests: pages, headers });
      const { result, latencies } = await runLoad({
        ...app,
        connections: CONNECTIONS,
        seconds: SECONDS,
        requests: pages,
        headers,
      });
      const errors = result.non2xx + result.errors;
      console.log(
        `GET /api/contacts ${label}: ${result.requests.average.toFixed(0)} req/s, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, ${errors} errors (${CONNECTIONS} connections, ${SECONDS} s)`,
      );
    };
    await measure('with a session cookie (floor)');
    await measure('with an API key', { authorization: `Bearer ${secret}` });
  } finally {
    await app.close();
  }

  // ── Webhook fan-out ──
  let verified = 0;
  let refused = 0;
  let posted = 0;
  let verifier: Webhook | null = null;
  const receiver = createServer((request, response) => {
    void readBody(request).then((body) => {
      posted += 1;
      if (verifier) {
        try {
          verifier.verify(body, {
            'webhook-id': String(request.headers['webhook-id']),
            'webhook-timestamp': String(request.headers['webhook-timestamp']),
            'webhook-signature': String(request.headers['webhook-signature']),
          });
          verified += 1;
        } catch {
          refused += 1;
        }
      }
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as { port: number }).port;
  const config = loadConfig({
    NODE_ENV: 'test',
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-00',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEBHOOK_ALLOW_LOOPBACK: 'true',
  });
  const ctx = await createAppContext({ config, database, runWorkers: false });
  try {
    const endpoint = await createWebhookEndpoint(ctx, user.id, {
      url: `http://127.0.0.1:${port}/hook`,
      description: 'bench',
      eventTypes: [],
    });
    verifier = new Webhook(endpoint.secret);
    const bodies: string[] = [];
    for (let i = 0; i < EVENTS; i += 1) {
      const data = { id: i + 1, email: `c${i + 1}@example.com`, firstName: 'First', lastName: 'Last' };
      bodies.push(JSON.stringify({ type: 'contact.created', timestamp: new Date().toISOString(), data }));
      await recordWebhookEvent(database.db, user.id, 'contact.created', data);
    }
    const guard = webhookGuard(config);
    const started = performance.now();
    while ((await deliverDueWebhooks(ctx, { guard })) > 0);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `webhook fan-out: ${EVENTS.toLocaleString('en-US')} signed deliveries in ${seconds.toFixed(2)} s = ${(EVENTS / seconds).toFixed(0)}/s (${verified} signatures verified by standardwebhooks, ${refused} refused, ${posted} received)`,
    );

    // The floor: a bare client posting the same bodies, DELIVERY_CONCURRENCY at a time.
    verifier = null;
    posted = 0;
    const floorStarted = performance.now();
    for (let i = 0; i < bodies.length; i += DELIVERY_CONCURRENCY) {
      await Promise.all(
        bodies.slice(i, i + DELIVERY_CONCURRENCY).map((body) =>
          fetch(`http://127.0.0.1:${port}/hook`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          }).then((answer) => answer.arrayBuffer()),
        ),
      );
    }
    const floorSeconds = (performance.now() - floorStarted) / 1000;
    console.log(
      `floor, a bare HTTP client posting the same bodies: ${(bodies.length / floorSeconds).toFixed(0)}/s (${posted} received)`,
    );
  } finally {
    await ctx.close({ graceful: false });
    receiver.close();
  }
} finally {
  await drop();
  rmSync(dataDir, { recursive: true, force: true });
}
