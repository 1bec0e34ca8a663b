import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  changePasswordBodySchema,
  currentUserSchema,
  loginBodySchema,
  okSchema,
  setupUnlimitedBodySchema,
  setupUnlimitedResponseSchema,
  signupBodySchema,
  updateProfileBodySchema,
} from '@sendwell/contract/auth';
import type { AppContext } from '../../context.ts';
import { clearSessionCookie, requireUser, sessionToken, setSessionCookie } from './session-guard.ts';
import { publicRoute } from '../../lib/route-guard.ts';
import * as auth from './auth.service.ts';

/** The request's address (as TRUST_PROXY lets Fastify read it), keyed for pacing like the rate limits key it (IPv6 by /64). */
function requestMeta(request: FastifyRequest): auth.RequestMeta {
  return {
    ip: request.ip ?? null,
    client: normalizeIP(request.ip ?? ''),
    userAgent: request.headers['user-agent'] ?? null,
  };
}

/**
 * Route table (guard → route):
 *   public  GET  /api/login                       → redirect to /login
 *   public  POST /api/auth/signup                 (per-IP limit)
 *   public  POST /api/auth/login                  (per-IP limit, paced per email and client address)
 *   public  POST /api/auth/logout
 *   public  POST /api/admin/setup-unlimited-user  (per-IP limit; checked by credentials, paced like login)
 *   user    GET  /api/auth/user
 *   user    PATCH /api/auth/user
 *   user    POST /api/auth/change-password
 */
export const authRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db, config } = ctx;
  const signedIn = requireUser(db, config);

  // Counted in the shared store app.ts registers (Postgres, or Redis with REDIS_URL), per client address.
  const publicPerIpLimit = { ...publicRoute, rateLimit: { max: config.authRateLimitPerMinute, timeWindow: 60_000 } };

  app.get('/api/login', { config: publicRoute }, async (_request, reply) => reply.redirect('/login'));

  app.post(
    '/api/auth/signup',
    { config: publicPerIpLimit, schema: { body: signupBodySchema, response: { 201: currentUserSchema } } },
    async (request, reply) => {
      const { user, token } = await auth.signUp(db, request.body, requestMeta(request));
      setSessionCookie(reply, config, token);
      return reply.status(201).send(auth.toCurrentUser(user));
    },
  );

  app.post(
    '/api/auth/login',
    { config: publicPerIpLimit, schema: { body: loginBodySchema, response: { 200: currentUserSchema } } },
    async (request, reply) => {
      const { user, token } = await auth.logIn(db, request.body, requestMeta(request));
      // A new session id at every login; the one the browser had (if any) ends.
      await auth.logOut(db, sessionToken(request));
      setSessionCookie(reply, config, token);
      return auth.toCurrentUser(user);
    },
  );

  app.post(
    '/api/auth/logout',
    { config: publicRoute, schema: { response: { 200: okSchema } } },
    async (request, reply) => {
      await auth.logOut(db, sessionToken(request));
      clearSessionCookie(reply, config);
      return { success: true as const };
    },
  );

  app.get(
    '/api/auth/user',
    { onRequest: signedIn, schema: { response: { 200: currentUserSchema } } },
    async (request) => auth.toCurrentUser(request.signedIn.user),
  );

  app.patch(
    '/api/auth/user',
    { onRequest: signedIn, schema: { body: updateProfileBodySchema, response: { 200: currentUserSchema } } },
    async (request) => auth.toCurrentUser(await auth.updateProfile(db, request.signedIn.user.id, request.body)),
  );

  app.post(
    '/api/auth/change-password',
    { onRequest: signedIn, schema: { body: changePasswordBodySchema, response: { 200: okSchema } } },
    async (request) => {
      await auth.changePassword(db, request.signedIn, request.body);
      return { success: true as const };
    },
  );

  app.post(
    '/api/admin/setup-unlimited-user',
    {
      config: publicPerIpLimit,
      schema: { body: setupUnlimitedBodySchema, response: { 200: setupUnlimitedResponseSchema } },
    },
    async (request, reply) => {
      const { token, ...answer } = await auth.activateUnlimited(
        db,
        config.unlimitedEmails,
        request.body,
        requestMeta(request),
      );
      if (token) {
        await auth.logOut(db, sessionToken(request));
        setSessionCookie(reply, config, token);
      }
      return answer;
    },
  );
};
