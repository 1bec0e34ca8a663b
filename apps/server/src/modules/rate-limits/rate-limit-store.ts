import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../../config.ts';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import * as repo from './rate-limits.repo.ts';

/** Where Redis keeps the counters (one key per route and client, expiring with its window). */
const REDIS_KEY_PREFIX = 'sendwell:rate-limit:';

type StoreCallback = Parameters<FastifyRateLimitStore['incr']>[1];

/**
 * @fastify/rate-limit's store over the rate_limit_windows table: one atomic upsert per request
 * (repo.hitWindow), so every API process on the database counts against one limit. The plugin
 * builds it with `new Store(options)` and asks each limited route for a child, whose keys carry
 * the route (as its Redis store's keys do).
 */
function postgresRateLimitStore(db: DbOrTx): FastifyRateLimitStoreCtor {
  return class PostgresRateLimitStore implements FastifyRateLimitStore {
    /** The route part of this store's keys; empty on the plugin's root store. */
    routeKey = '';

    incr(key: string, callback: StoreCallback, timeWindow: number): void {
      repo.hitWindow(db, this.routeKey + key, timeWindow).then(
        ({ hits, ttlMs }) => callback(null, { current: hits, ttl: ttlMs }),
        (error: Error) => callback(error),
      );
    }

    /** The plugin's non-counting peek (`createRateLimit(...)(request, { increment: false })`). */
    read(key: string, callback: StoreCallback): void {
      repo.readWindow(db, this.routeKey + key).then(
        ({ hits, ttlMs }) => callback(null, { current: hits, ttl: ttlMs }),
        (error: Error) => callback(error),
      );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // The plugin passes the route's merged limit options, the route itself under routeInfo
      // (its typings say RouteOptions, which is what routeInfo holds).
      const route = (routeOptions as unknown as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
      const store = new PostgresRateLimitStore();
      store.routeKey = `${String(route?.method ?? '')}${String(route?.url ?? '')}:`;
      return store;
    }
  };
}

/** Opens the Redis connection at start, so a wrong REDIS_URL stops start-up instead of the first sign-in. */
async function connectRedis(url: string): Promise<Redis> {
  // Loaded only with REDIS_URL.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 5_000,
    // A request waits at most this long on Redis; then it fails rather than hangs.
    commandTimeout: 2_000,
    maxRetriesPerRequest: 1,
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(`REDIS_URL: cannot connect (${(error as Error).message})`, { cause: error });
  }
  return redis;
}

/**
 * Registers @fastify/rate-limit for the whole app (routes opt in with `config.rateLimit`), its
 * counters shared by all API processes: in Redis when REDIS_URL is set, else in Postgres. A limited
 * request is answered 429 with Retry-After.
 */
export async function registerRateLimits(app: FastifyInstance, config: Config, db: DbOrTx): Promise<void> {
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  if (redis) {
    app.addHook('onClose', async () => {
      await redis.quit();
    });
  }
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: REDIS_KEY_PREFIX } : { store: postgresRateLimitStore(db) }),
    errorResponseBuilder: (_request, context) =>
      new AppError(
        'rate_limited',
        `Too many requests. Please try again in ${Math.max(1, Math.ceil(context.ttl / 1000))} seconds.`,
      ),
  });
}
