import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  changePasswordBodySchema,
  currentUserSchema,
  FORGOT_PASSWORD_ANSWER,
  forgotPasswordBodySchema,
  forgotPasswordResponseSchema,
  resetPasswordBodySchema,
  loginBodySchema,
  okSchema,
  setupUnlimitedBodySchema,
  sessionProbeSchema,
  setupUnlimitedResponseSchema,
  signupBodySchema,
  updateProfileBodySchema,
} from '@sendwell/contract/auth';
import type { AppContext } from '../../context.ts';
import { clearSessionCookie, requireUser, sessionToken, setSessionCookie } from './session-guard.ts';
import { confirmationPage, serveConfirmationLink, type LinkState } from '../../lib/confirmation-link.ts';
import { originMismatchWarner } from '../../lib/public-url-check.ts';
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
 *   public  POST /api/auth/forgot-password        (per-IP limit; 3 mails an hour per account; same answer for any address)
 *   public  POST /api/auth/reset-password         (per-IP limit) the mailed link's token and a new password
 *   public  POST /api/admin/setup-unlimited-user  (per-IP limit; checked by credentials, paced like login)
 *   public  GET  /confirm-email?token=…           the emailed link's page: says what it confirms, changes nothing
 *   public  POST /confirm-email?token=…           confirms, for the account's owner signed in (read inside)
 *   user    POST /api/auth/resend-confirmation    another link (one a minute)
 *   public  GET  /api/auth/session                the web app's quiet probe: 200 with user null when signed out
 *   user    GET  /api/auth/user
 *   user    PATCH /api/auth/user
 *   user    POST /api/auth/change-password
 */
export const authRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db, config } = ctx;
  const signedIn = requireUser(db, config);

  // Counted in the shared store app.ts registers (Postgres, or Redis with REDIS_URL), per client address.
  const perIpLimit = { rateLimit: { max: config.authRateLimitPerMinute, timeWindow: 60_000 } };

  app.get('/api/login', { guard: 'public' }, async (_request, reply) => reply.redirect('/login'));

  app.post(
    '/api/auth/signup',
    { guard: 'public', config: perIpLimit, schema: { body: signupBodySchema, response: { 201: currentUserSchema } } },
    async (request, reply) => {
      const { user, token } = await auth.signUp(db, request.body, requestMeta(request));
      setSessionCookie(reply, config, token);
      await auth.sendSignupConfirmation(ctx, user, (error) =>
        request.log.error({ err: error }, 'the sign-up confirmation email was not sent'),
      );
      return reply.status(201).send(auth.toCurrentUser(user));
    },
  );

  app.post(
    '/api/auth/login',
    { guard: 'public', config: perIpLimit, schema: { body: loginBodySchema, response: { 200: currentUserSchema } } },
    async (request, reply) => {
      const { user, token } = await auth.logIn(db, request.body, requestMeta(request));
      // A new session id at every login; the one the browser had (if any) ends.
      await auth.logOut(db, sessionToken(request));
      setSessionCookie(reply, config, token);
      return auth.toCurrentUser(user);
    },
  );

  app.post('/api/auth/logout', { guard: 'public', schema: { response: { 200: okSchema } } }, async (request, reply) => {
    await auth.logOut(db, sessionToken(request));
    clearSessionCookie(reply, config);
    return { success: true as const };
  });

  app.post(
    '/api/auth/forgot-password',
    {
      guard: 'public',
      config: perIpLimit,
      schema: { body: forgotPasswordBodySchema, response: { 200: forgotPasswordResponseSchema } },
    },
    async (request) => {
      await auth.requestPasswordReset(ctx, request.body.email, (error) =>
        request.log.error({ err: error }, 'the password reset email was not sent'),
      );
      return { message: FORGOT_PASSWORD_ANSWER };
    },
  );

  app.post(
    '/api/auth/reset-password',
    { guard: 'public', config: perIpLimit, schema: { body: resetPasswordBodySchema, response: { 200: okSchema } } },
    async (request) => {
      await auth.resetPassword(db, config.sessionSecret, request.body);
      return { success: true as const };
    },
  );

  app.post(
    '/api/auth/resend-confirmation',
    { guard: signedIn, schema: { response: { 200: okSchema } } },
    async (request) => {
      await auth.resendAccountConfirmation(ctx, request.signedIn.user);
      return { success: true as const };
    },
  );

  await serveConfirmationLink(app, '/confirm-email', async (request, token, confirm) => {
    const signedIn = await auth.resolveSession(db, sessionToken(request));
    const { state, email } = await auth.accountConfirmation(
      db,
      config.sessionSecret,
      token,
      signedIn?.user ?? null,
      confirm,
    );
    return { state, html: accountConfirmationPage(state, email, `/confirm-email?token=${encodeURIComponent(token)}`) };
  });

  // The browser asks this at every page load: the one place that hears which origin it has the app open at.
  const checkPageOrigin = originMismatchWarner(config.publicUrl, (message) => app.log.warn(message));
  app.get(
    '/api/auth/session',
    { guard: 'public', schema: { response: { 200: sessionProbeSchema } } },
    async (request, reply) => {
      checkPageOrigin(request.headers.origin ?? `${request.protocol}://${request.host}`);
      const session = await auth.resolveSession(db, sessionToken(request));
      // Slide the cookie with the server-side expiry, as the signed-in guard does.
      if (session?.refreshed) setSessionCookie(reply, config, sessionToken(request) ?? '');
      return { user: session ? auth.toCurrentUser(session.user) : null, publicUrl: config.publicUrl };
    },
  );

  app.get('/api/auth/user', { guard: signedIn, schema: { response: { 200: currentUserSchema } } }, async (request) =>
    auth.toCurrentUser(request.signedIn.user),
  );

  app.patch(
    '/api/auth/user',
    { guard: signedIn, schema: { body: updateProfileBodySchema, response: { 200: currentUserSchema } } },
    async (request) => auth.toCurrentUser(await auth.updateProfile(db, request.signedIn.user.id, request.body)),
  );

  app.post(
    '/api/auth/change-password',
    { guard: signedIn, schema: { body: changePasswordBodySchema, response: { 200: okSchema } } },
    async (request) => {
      await auth.changePassword(db, request.signedIn, request.body);
      return { success: true as const };
    },
  );

  app.post(
    '/api/admin/setup-unlimited-user',
    {
      guard: 'public',
      config: perIpLimit,
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

/** The page of the account confirmation link, per state. */
function accountConfirmationPage(state: LinkState, email: string | null, action: string): string {
  const address = email ?? 'your address';
  switch (state) {
    case 'ready':
      return confirmationPage({
        title: 'Confirm your email address',
        paragraphs: [`Confirm that ${address} is your address, so that your Sendwell account can send campaigns.`],
        form: { action, button: 'Confirm my email address' },
      });
    case 'confirmed':
    case 'already':
      return confirmationPage({
        title: 'Email address confirmed',
        paragraphs: [`${address} is confirmed. Your account can send campaigns now.`],
        link: { href: '/', label: 'Go to Dashboard' },
      });
    case 'expired':
      return confirmationPage({
        title: 'This link has expired',
        paragraphs: [
          'Confirmation links work for 48 hours. Sign in and choose Resend link in the banner at the top of the page to get a new one.',
        ],
        link: { href: '/login', label: 'Sign in' },
      });
    case 'sign-in':
      return confirmationPage({
        title: 'Sign in to confirm',
        paragraphs: [`Sign in to Sendwell as ${address}, then open this link again to confirm the address.`],
        link: { href: `/login?return=${encodeURIComponent(action)}`, label: 'Sign in' },
      });
    case 'other-account':
      return confirmationPage({
        title: 'This link is for another account',
        paragraphs: [
          `This link confirms ${address}, but you are signed in to a different Sendwell account. Sign out, sign in as ${address} and open the link again.`,
        ],
        link: { href: '/', label: 'Go to Dashboard' },
      });
    case 'invalid':
      return confirmationPage({
        title: 'This link is not valid',
        paragraphs: [
          'The link may have been cut short or changed. Open it again from the email, or sign in and choose Resend link in the banner at the top of the page.',
        ],
        link: { href: '/', label: 'Go to Sendwell' },
      });
  }
}
