import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeyScope } from '@sendwell/contract/api-keys';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError, RetryLaterError } from '../../lib/app-error.ts';
import { guardHook } from '../../lib/route-guard.ts';
import { requireUser, type RequestCompanion } from '../auth/index.ts';
import { countHitWithReset } from '../rate-limits/index.ts';
import { authenticateApiKey, type ApiKeyGrant } from './api-keys.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The key a request was made with (set by requireUserOrKey); undefined for a signed-in person. */
    apiKey: ApiKeyGrant | undefined;
  }
}

/** Each key's requests are counted in windows of one second. */
const RATE_WINDOW_MS = 1000;

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * Counts the request against its key's limit (the account's requests per second) and says so in the
 * IETF draft's RateLimit-Limit/-Remaining/-Reset headers; beyond it, 429 with Retry-After.
 */
async function limitKeyRate(db: Db, reply: FastifyReply, keyId: string, perSecond: number): Promise<void> {
  const { hits, ttlMs } = await countHitWithReset(db, `api-key:${keyId}`, RATE_WINDOW_MS);
  const resetSeconds = Math.max(1, Math.ceil(ttlMs / 1000));
  reply.header('ratelimit-limit', String(perSecond));
  reply.header('ratelimit-remaining', String(Math.max(0, perSecond - hits)));
  reply.header('ratelimit-reset', String(resetSeconds));
  if (hits > perSecond) {
    throw new RetryLaterError(
      `This API key is limited to ${perSecond} requests per second. Please slow down.`,
      resetSeconds,
    );
  }
}

/**
 * The guard of routes a program may call (their `guard` option): a request with an
 * `Authorization: Bearer` header is let in by a live API key of the account whose scope allows the
 * route ('full' routes take full keys; 'sending' routes take either), and only by its header, never
 * a cookie; any other request needs a signed-in person (requireUser, with its companion). Either way
 * request.signedIn names the account; request.apiKey is the key, if one was used.
 */
export function requireUserOrKey(db: Db, config: Config, scope: ApiKeyScope, companion?: RequestCompanion) {
  const session = requireUser(db, config, companion);
  return guardHook(`session-or-key:${scope}`, async (request: FastifyRequest, reply: FastifyReply) => {
    const authorization = request.headers.authorization;
    if (authorization === undefined) return session.onRequest(request, reply);
    const secret = BEARER.exec(authorization)?.[1];
    if (secret === undefined) throw new AppError('unauthorized', 'Send the API key as "Authorization: Bearer <key>"');
    const found = await authenticateApiKey(db, secret);
    if (!found) throw new AppError('unauthorized', 'This API key is not valid or has been revoked');
    await limitKeyRate(db, reply, found.grant.id, found.user.apiRequestsPerSecond);
    if (scope === 'full' && found.grant.scope !== 'full') {
      throw new AppError('forbidden', 'This API key may only send: this route needs a key with full access');
    }
    request.signedIn = { user: found.user, sessionId: `api-key:${found.grant.id}`, refreshed: false };
    request.apiKey = found.grant;
  });
}
