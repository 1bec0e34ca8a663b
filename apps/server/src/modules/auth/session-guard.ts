import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { guardHook } from '../../lib/route-guard.ts';
import { resolveSessionAsking, SESSION_IDLE_MS, type SignedIn } from './auth.service.ts';
import type { SessionCompanion } from './session-companion.ts';

const SESSION_COOKIE = 'sendwell_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the requireUser guard on signed-in routes. */
    signedIn: SignedIn;
  }
}

export function setSessionCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.secureCookies,
    maxAge: SESSION_IDLE_MS / 1000,
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: config.secureCookies });
}

export function sessionToken(request: FastifyRequest): string | undefined {
  return request.cookies[SESSION_COOKIE];
}

/**
 * A question a module asks along the session lookup of its requests (one round trip instead of
 * two; see SessionCompanion): `ask` gives the values for this request, or null to
 * ask nothing; `answered` hears the answer once the session proved live (undefined if not asked).
 */
export type RequestCompanion = {
  question: SessionCompanion;
  ask(request: FastifyRequest, sessionId: string): Record<string, unknown> | null;
  answered(request: FastifyRequest, answer: boolean | undefined): void;
};

/**
 * The guard of signed-in routes (their `guard` option), run as their first onRequest hook (before
 * body validation, so signed-out calls get 401): 401 without a live session, else request.signedIn
 * is set (and a companion hears its answer). The route table shows it as the 'session' guard.
 */
export function requireUser(db: Db, config: Config, companion?: RequestCompanion) {
  return guardHook('session', async (request: FastifyRequest, reply: FastifyReply) => {
    const resolved = await resolveSessionAsking(db, sessionToken(request), (sessionId) => {
      const values = companion?.ask(request, sessionId) ?? null;
      return companion && values ? { question: companion.question, values } : null;
    });
    if (!resolved) throw new AppError('unauthorized', 'Unauthorized');
    const { signedIn } = resolved;
    request.signedIn = signedIn;
    companion?.answered(request, resolved.answer);
    // Keep the cookie's lifetime in step with the sliding server-side expiry.
    if (signedIn.refreshed) setSessionCookie(reply, config, sessionToken(request) ?? '');
  });
}
