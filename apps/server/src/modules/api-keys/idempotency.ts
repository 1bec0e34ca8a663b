import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_MAX } from '@sendwell/contract/api-keys';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { sha256Hex } from '../../lib/tokens.ts';
import * as repo from './api-keys.repo.ts';

/** How long an answer is kept for replay. */
const IDEMPOTENCY_KEPT_MS = 24 * 60 * 60 * 1000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this request claimed, until its answer is stored or the key released. */
    idempotencyClaim: { userId: string; key: string; settled: boolean } | undefined;
  }
}

function isJsonRequest(request: FastifyRequest): boolean {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === '' || type === 'application/json';
}

/** What makes two requests the same: method, URL (with its query) and the parsed JSON body. */
function requestHash(request: FastifyRequest): string {
  return sha256Hex(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`);
}

/**
 * Before the handler of a POST made with an API key and an `Idempotency-Key` header: the first
 * request with the key runs and its answer is kept 24 hours; a repeat with the same method, URL
 * and body gets that answer again (with `Idempotent-Replayed: true`); a repeat with another request,
 * or while the first is still running, gets 409. Keys are the account's own: another account's
 * requests never see them.
 */
async function claimOrReplay(db: Db, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  if (request.apiKey === undefined || request.method !== 'POST') return undefined;
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || header.trim() === '' || header.length > IDEMPOTENCY_KEY_MAX) {
    throw new AppError('bad_request', `Idempotency-Key must be one value of 1 to ${IDEMPOTENCY_KEY_MAX} characters`);
  }
  if (!isJsonRequest(request)) {
    throw new AppError('bad_request', 'Idempotency-Key works with JSON bodies only; send this request without it');
  }
  const userId = request.signedIn.user.id;
  const hash = requestHash(request);
  if (await repo.claimIdempotencyKey(db, userId, header, hash, IDEMPOTENCY_KEPT_MS)) {
    request.idempotencyClaim = { userId, key: header, settled: false };
    return undefined;
  }
  const stored = await repo.findIdempotencyKey(db, userId, header);
  // Released between the claim and this read (the first request failed): this one may try again.
  if (!stored) throw new AppError('conflict', 'A request with this Idempotency-Key just failed; please retry');
  if (stored.requestHash !== hash) {
    throw new AppError('conflict', 'This Idempotency-Key was already used with a different request');
  }
  if (stored.responseStatus === null) {
    throw new AppError('conflict', 'A request with this Idempotency-Key is still being processed; retry later');
  }
  reply.status(stored.responseStatus).header('idempotent-replayed', 'true');
  if (stored.responseType) reply.type(stored.responseType);
  return reply.send(stored.responseBody ?? '');
}

/**
 * Adds Idempotency-Key handling (see claimOrReplay) to every route registered after it: the claim
 * is taken once the body is parsed, the answer kept as it is sent. A server error or an answer that
 * is a stream is not kept, and releases the key so the request may be tried again.
 */
export function registerIdempotency(app: FastifyInstance, db: Db): void {
  app.decorateRequest('apiKey', undefined);
  app.decorateRequest('idempotencyClaim', undefined);
  app.addHook('preHandler', async (request, reply) => claimOrReplay(db, request, reply));
  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (!claim || claim.settled) return payload;
    claim.settled = true;
    const kept = payload === undefined || payload === null || typeof payload === 'string' || Buffer.isBuffer(payload);
    if (reply.statusCode < 500 && kept) {
      const type = reply.getHeader('content-type');
      await repo.storeIdempotentAnswer(db, claim.userId, claim.key, {
        status: reply.statusCode,
        type: typeof type === 'string' ? type : null,
        body: payload?.toString() ?? '',
      });
    } else {
      await repo.releaseIdempotencyKey(db, claim.userId, claim.key);
    }
    return payload;
  });
  const release = async (request: FastifyRequest) => {
    const claim = request.idempotencyClaim;
    if (!claim || claim.settled) return;
    claim.settled = true;
    await repo.releaseIdempotencyKey(db, claim.userId, claim.key);
  };
  app.addHook('onResponse', release);
  app.addHook('onRequestAbort', release);
}

/** Housekeeping (hourly job): answers kept longer than a day. */
export async function cleanUpIdempotencyKeys(db: Db): Promise<void> {
  await repo.deleteOldIdempotencyKeys(db, IDEMPOTENCY_KEPT_MS);
}
