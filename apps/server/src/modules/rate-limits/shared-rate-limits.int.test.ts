import { randomInt } from 'node:crypto';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.ts';
import { openDatabase, type Database } from '../../db/client.ts';
import { testConfig, useTestApp, type TestApp } from '../../../test/build-app.ts';
import { cleanUpRateLimitWindows } from './rate-limits.service.ts';

const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether a Redis server answers PING at TEST_REDIS_URL (the Redis case is skipped, with a notice, when none does). */
async function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}
const redisUp = await redisAnswers(TEST_REDIS_URL);
// In CI the Redis case must run (scripts/test.mjs checks the server before any test starts).
if (!redisUp && process.env.CI) throw new Error(`CI and no Redis server at ${TEST_REDIS_URL} (set TEST_REDIS_URL)`);
if (!redisUp) console.warn(`*** Redis case SKIPPED: no server at ${TEST_REDIS_URL} (set TEST_REDIS_URL). ***`);

/** A second API process on the test's database: on Postgres its own connection pool, on PGlite the one instance. */
async function secondApp(testApp: TestApp, env: Record<string, string> = {}) {
  const { ctx } = testApp;
  const database: Database = ctx.database.connectionString
    ? await openDatabase({ url: ctx.database.connectionString, poolSize: 2 })
    : ctx.database;
  const config = testConfig({ AUTH_RATE_LIMIT_PER_MINUTE: '4', ...env });
  const app = await buildApp({ ...ctx, config, database, db: database.db }, { logger: false, serveWebApp: false });
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      if (database !== ctx.database) await database.close();
    },
  };
}

/** Wrong-password logins from one address, alternating between the apps; the status codes in order. */
async function alternateLogins(apps: FastifyInstance[], remoteAddress: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await apps[i % apps.length]!.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress,
      payload: { email: `shared-${i}@example.com`, password: 'not-the-password' },
    });
    statuses.push(response.statusCode);
  }
  return statuses;
}

describe('limit shared across two app instances', () => {
  describe('in Postgres (no REDIS_URL)', () => {
    const t = useTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '4' });
    const closers: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const close of closers) await close();
    });

    it('counts one client’s requests to either process against one limit', async () => {
      const other = await secondApp(t());
      closers.push(other.close);
      const statuses = await alternateLogins([t().app, other.app], '192.0.2.40', 6);
      expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    });

    it('answers 429 with Retry-After and the limit’s message', async () => {
      const statuses = await alternateLogins([t().app], '192.0.2.41', 5);
      expect(statuses.at(-1)).toBe(429);
      const refused = await t().app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '192.0.2.41',
        payload: { email: 'x@example.com', password: 'y' },
      });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toMatch(/^Too many requests\. Please try again in \d+ seconds\.$/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    });

    it('starts a new window once the old one ends, and the clean-up removes ended windows', async () => {
      await alternateLogins([t().app], '192.0.2.42', 5);
      await t().ctx.database.raw.executeSql(
        `UPDATE rate_limit_windows SET window_ends_at = now() - interval '1 second' WHERE key LIKE '%:192.0.2.42'`,
        [],
      );
      expect(await alternateLogins([t().app], '192.0.2.42', 1)).toEqual([401]);
      await t().ctx.database.raw.executeSql(
        `UPDATE rate_limit_windows SET window_ends_at = now() - interval '1 second' WHERE key LIKE '%:192.0.2.42'`,
        [],
      );
      await cleanUpRateLimitWindows(t().ctx.db);
      const left = await t().ctx.database.raw.executeSql(
        `SELECT count(*)::int AS n FROM rate_limit_windows WHERE key LIKE '%:192.0.2.42'`,
        [],
      );
      expect((left.rows[0] as { n: number }).n).toBe(0);
    });
  });

  describe.skipIf(!redisUp)('in Redis (REDIS_URL set)', () => {
    const t = useTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '4', REDIS_URL: TEST_REDIS_URL });
    const closers: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const close of closers) await close();
    });

    it('counts one client’s requests to either process against one limit', async () => {
      const other = await secondApp(t(), { REDIS_URL: TEST_REDIS_URL });
      closers.push(other.close);
      // An address of this run alone: Redis is shared with other test runs, and its keys outlive the database.
      const address = `10.${randomInt(200) + 50}.${randomInt(250)}.${randomInt(250) + 1}`;
      const statuses = await alternateLogins([t().app, other.app], address, 6);
      expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
      // Nothing went to Postgres.
      const rows = await t().ctx.database.raw.executeSql('SELECT count(*)::int AS n FROM rate_limit_windows', []);
      expect((rows.rows[0] as { n: number }).n).toBe(0);
    });
  });
});
