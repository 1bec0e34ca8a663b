import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { verifyRecipientToken, verifySequenceToken } from '../../lib/signed-token.ts';
import * as pages from './preferences-page.ts';
import * as tracking from './tracking.service.ts';
import { legacyClick, mailOfUnsubscribeToken, parseLinkIndex, sendOfOpenToken } from './tracking-tokens.ts';

const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** Sends one of the recipient pages; never cached, since it shows where an address stands now. */
function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

/**
 * What a POST to /u/:token asks for. A mail client's RFC 8058 one-click sends
 * "List-Unsubscribe=One-Click" and a bare POST sends nothing: both unsubscribe. The preferences
 * page's forms send action=unsubscribe or action=resubscribe. Anything else is null (400).
 */
export function requestedAction(body: unknown): 'unsubscribe' | 'resubscribe' | 'leave-list' | null {
  let action: unknown;
  if (typeof body === 'string') action = new URLSearchParams(body).get('action');
  else if (body && typeof body === 'object' && 'action' in body) action = (body as { action: unknown }).action;
  if (action === undefined || action === null) return 'unsubscribe';
  return action === 'unsubscribe' || action === 'resubscribe' || action === 'leave-list' ? action : null;
}

/** The list a 'leave-list' form names (its `listId` field), or null. */
export function requestedListId(body: unknown): number | null {
  let value: unknown;
  if (typeof body === 'string') value = new URLSearchParams(body).get('listId');
  else if (body && typeof body === 'object' && 'listId' in body) value = (body as { listId: unknown }).listId;
  const id = Number(value);
  return Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null;
}

/**
 * Public routes that mail clients reach (no session, exempt from the cross-site check). Every URL
 * of a message carries the recipient's one token (delivery/tracked-links.ts); the older per-purpose
 * tokens of mail already sent are still accepted, each on its own route only (tracking-tokens.ts).
 *   GET  /t/o/:token          open pixel (unknown or forged token: 404); a sequence email's token
 *                             sets its send's opened_at (read by the sequences' condition steps)
 *   GET  /t/c/:token/:index   click redirect to the campaign's stored link at that index
 *                             (forged token, unknown send, index out of range: 404); a sequence
 *                             email's token: the link at that index of its email step, clicked_at set
 *   GET  /t/c/:token          click redirect of older mail (the token names the link's id)
 *   GET  /u/:token            unsubscribe confirmation / preferences (?preferences=1); changes nothing;
 *                             campaign and sequence mail alike (a sequence email's token names its send)
 *   POST /u/:token            unsubscribe (form, bare POST or RFC 8058 one-click) or action=resubscribe
 *                             (undoes the recipient's own unsubscribe only: 409 after a bounce or complaint);
 *                             both idempotent; no login; forged token 404, unknown action 400
 */
export const trackingRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const secret = ctx.config.sessionSecret;
  // One-click unsubscribe posts application/x-www-form-urlencoded ("List-Unsubscribe=One-Click").
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, body),
  );
  // The same { message } answer as every other 404, through the error handler.
  const notFound = (_reply: FastifyReply): never => {
    throw new AppError('not_found', 'Not found');
  };
  const redirect = (reply: FastifyReply, url: string | null) =>
    url ? reply.header('cache-control', 'no-store').redirect(url, 302) : notFound(reply);

  const requesterOf = (request: FastifyRequest): tracking.Requester => ({
    userAgent: request.headers['user-agent'],
    ip: request.ip,
  });

  app.get<{ Params: { token: string } }>('/t/o/:token', { guard: 'public' }, async (request, reply) => {
    const sendId = sendOfOpenToken(secret, request.params.token);
    const sequenceSendId = sendId === null ? verifySequenceToken(secret, request.params.token) : null;
    const known =
      sendId !== null
        ? await tracking.recordOpen(ctx.db, sendId, requesterOf(request))
        : sequenceSendId !== null && (await tracking.recordSequenceOpen(ctx.db, sequenceSendId, requesterOf(request)));
    if (!known) return notFound(reply);
    return reply.type('image/gif').header('cache-control', 'no-store, max-age=0').send(PIXEL);
  });

  app.get<{ Params: { token: string; index: string } }>(
    '/t/c/:token/:index',
    { guard: 'public' },
    async (request, reply) => {
      const sendId = verifyRecipientToken(secret, request.params.token);
      const index = parseLinkIndex(request.params.index);
      if (index === null) return notFound(reply);
      if (sendId !== null)
        return redirect(reply, await tracking.recordClick(ctx.db, sendId, { index }, requesterOf(request)));
      const sequenceSendId = verifySequenceToken(secret, request.params.token);
      if (sequenceSendId === null) return notFound(reply);
      return redirect(reply, await tracking.recordSequenceClick(ctx.db, sequenceSendId, index, requesterOf(request)));
    },
  );

  app.get<{ Params: { token: string } }>('/t/c/:token', { guard: 'public' }, async (request, reply) => {
    const old = legacyClick(secret, request.params.token);
    if (!old) return notFound(reply);
    return redirect(reply, await tracking.recordClick(ctx.db, old.sendId, { id: old.linkId }, requesterOf(request)));
  });

  app.get<{ Params: { token: string }; Querystring: { preferences?: string } }>(
    '/u/:token',
    { guard: 'public' },
    async (request, reply) => {
      const mail = mailOfUnsubscribeToken(secret, request.params.token);
      const view = mail === null ? null : await tracking.unsubscribeView(ctx.db, mail);
      if (!view) return sendPage(reply, 404, pages.linkNotRecognisedPage());
      const action = `/u/${encodeURIComponent(request.params.token)}`;
      return sendPage(
        reply,
        200,
        pages.subscriptionPage(view, { action, mode: request.query.preferences ? 'preferences' : 'unsubscribe' }),
      );
    },
  );

  app.post<{ Params: { token: string } }>('/u/:token', { guard: 'public' }, async (request, reply) => {
    const mail = mailOfUnsubscribeToken(secret, request.params.token);
    if (mail === null) return sendPage(reply, 404, pages.linkNotRecognisedPage());
    const wanted = requestedAction(request.body);
    if (!wanted) return sendPage(reply, 400, pages.unknownActionPage());
    const action = `/u/${encodeURIComponent(request.params.token)}`;

    if (wanted === 'leave-list') {
      const listId = requestedListId(request.body);
      if (listId === null) return sendPage(reply, 400, pages.unknownActionPage());
      const left = await tracking.leaveList(ctx.db, mail, listId);
      const view = await tracking.unsubscribeView(ctx.db, mail);
      if (!view) return sendPage(reply, 404, pages.linkNotRecognisedPage());
      return sendPage(reply, 200, pages.subscriptionPage(view, { action, mode: 'preferences', left: left }));
    }

    if (wanted === 'unsubscribe') {
      if (!(await tracking.unsubscribe(ctx.db, mail))) return sendPage(reply, 404, pages.linkNotRecognisedPage());
      const view = await tracking.unsubscribeView(ctx.db, mail);
      return view
        ? sendPage(reply, 200, pages.unsubscribedPage(view, action))
        : sendPage(reply, 404, pages.linkNotRecognisedPage());
    }
    const outcome = await tracking.resubscribe(ctx.db, mail);
    const view = outcome ? await tracking.unsubscribeView(ctx.db, mail) : null;
    if (!outcome || !view) return sendPage(reply, 404, pages.linkNotRecognisedPage());
    if (outcome === 'blocked') return sendPage(reply, 409, pages.resubscribeRefusedPage(view));
    return sendPage(reply, 200, pages.resubscribedPage(view, `${action}?preferences=1`));
  });
};
