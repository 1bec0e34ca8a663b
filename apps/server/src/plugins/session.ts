import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { resolveSession, SESSION_IDLE_MS, type SignedIn } from '../modules/auth/auth.service.ts';

export const SESSION_COOKIE = 'sendwell_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireUser on signed-in routes. */
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

/** An onRequest hook for signed-in routes (before body validation, so signed-out calls get 401): 401 without a live session, else request.signedIn is set. */
export function requireUser(db: Db, config: Config) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const signedIn = await resolveSession(db, sessionToken(request));
    if (!signedIn) return reply.status(401).send({ message: 'Unauthorized' });
    request.signedIn = signedIn;
    // Keep the cookie's lifetime in step with the sliding server-side expiry.
    if (signedIn.refreshed) setSessionCookie(reply, config, sessionToken(request) ?? '');
  };
}
