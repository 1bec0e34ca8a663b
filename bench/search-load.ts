// The search load of contacts.bench.ts, shared with contacts-search-load.ts: the real app (session,
// route, serialisation) signed in as bench@example.com, and autocannon over the same 24 paths.
import autocannon from 'autocannon';
import type { Database } from '../apps/server/src/db/client.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createAppContext } from '../apps/server/src/app-context.ts';

export const BENCH_LOGIN = { email: 'bench@example.com', password: 'bench-pass' };

type LoadRequest = { method: 'GET'; path: string };

/** 8 search terms × 3 pages, 50 contacts a page. */
export const SEARCH_REQUESTS: LoadRequest[] = [
  'user12345',
  'hopper',
  'acme 42',
  'example7.com',
  'grace',
  'initech 9',
  'user99999@',
  'wonka',
].flatMap((search, i) =>
  [1, 2, 5].map((page) => ({
    method: 'GET' as const,
    path: `/api/contacts?search=${encodeURIComponent(search)}&page=${page + i}&pageSize=50`,
  })),
);

/** The app listening on a free port with BENCH_LOGIN signed in; `close` stops it and its queue. */
export async function startSignedInApp(
  database: Database,
  dataDir: string,
): Promise<{ address: string; cookie: string; close: () => Promise<void> }> {
  const config = loadConfig({
    NODE_ENV: 'test',
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-00',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
  });
  const ctx = await createAppContext({ config, database, runWorkers: false });
  const app = await buildApp(ctx, { logger: false, serveWebApp: false });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const close = async () => {
    await app.close();
    await ctx.close({ graceful: false });
  };
  try {
    const login = await fetch(`${address}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(BENCH_LOGIN),
    });
    return { address, cookie: (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '', close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Runs autocannon and keeps every response's latency, since autocannon reports no p95. */
export async function runLoad(options: {
  address: string;
  cookie: string;
  connections: number;
  seconds: number;
  requests: LoadRequest[];
  /** Sent instead of the session cookie (an API key's Authorization header). */
  headers?: Record<string, string>;
}) {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const run = autocannon(
      {
        url: options.address,
        connections: options.connections,
        duration: options.seconds,
        headers: options.headers ?? { cookie: options.cookie },
        requests: options.requests,
      },
      (error: Error | null, done) => (error ? reject(error) : resolve(done)),
    );
    run.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
  return { result, latencies };
}
