import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import { verifyIds } from '../../lib/signed-token.ts';
import { escapeHtml } from '../campaigns/email-renderer.ts';
import * as tracking from './tracking.service.ts';

const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

function page(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>` +
        `<body style="margin:0;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;background:#f4f4f5;color:#18181b;">` +
        `<main style="max-width:440px;margin:64px auto;padding:32px;background:#fff;border-radius:12px;border:1px solid #e4e4e7;">` +
        `<h1 style="font-size:22px;margin:0 0 12px;">${escapeHtml(title)}</h1>${body}</main></body></html>`,
    );
}

/**
 * Public routes that mail clients reach (no session, exempt from the cross-site check):
 *   GET  /t/o/:token   open pixel
 *   GET  /t/c/:token   click redirect to the stored link (unknown or forged token: 404)
 *   GET  /u/:token     unsubscribe confirmation (changes nothing) / preferences (?preferences=1)
 *   POST /u/:token     unsubscribe at once (form or RFC 8058 one-click), idempotent
 */
export const trackingRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const secret = ctx.config.sessionSecret;
  // One-click unsubscribe posts application/x-www-form-urlencoded ("List-Unsubscribe=One-Click").
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => done(null, body));

  app.get<{ Params: { token: string } }>('/t/o/:token', async (request, reply) => {
    const ids = verifyIds(secret, 'open', request.params.token, 1);
    if (!ids || !(await tracking.recordOpen(ctx.db, ids[0] as number))) return reply.status(404).send({ message: 'Not found' });
    return reply.type('image/gif').header('cache-control', 'no-store, max-age=0').send(PIXEL);
  });

  app.get<{ Params: { token: string } }>('/t/c/:token', async (request, reply) => {
    const ids = verifyIds(secret, 'click', request.params.token, 2);
    const url = ids ? await tracking.recordClick(ctx.db, ids[0] as number, ids[1] as number) : null;
    if (!url) return reply.status(404).send({ message: 'Not found' });
    return reply.header('cache-control', 'no-store').redirect(url, 302);
  });

  app.get<{ Params: { token: string }; Querystring: { preferences?: string } }>('/u/:token', async (request, reply) => {
    const ids = verifyIds(secret, 'unsubscribe', request.params.token, 1);
    const view = ids ? await tracking.unsubscribeView(ctx.db, ids[0] as number) : null;
    if (!view) return page(reply, 404, 'Link not recognised', '<p>This unsubscribe link is not valid. If you copied it, check that it is complete.</p>');
    const action = `/u/${encodeURIComponent(request.params.token)}`;
    if (view.unsubscribed) {
      return page(reply, 200, 'You are unsubscribed', `<p>${escapeHtml(view.email)} no longer receives email from ${escapeHtml(view.sender)}.</p>`);
    }
    const heading = request.query.preferences ? 'Email preferences' : `Unsubscribe from ${view.sender}?`;
    return page(
      reply,
      200,
      heading,
      `<p>${escapeHtml(view.email)} is subscribed to email from ${escapeHtml(view.sender)}.</p>` +
        `<form method="post" action="${action}"><button type="submit" style="margin-top:16px;padding:10px 18px;border:0;border-radius:8px;background:#18181b;color:#fff;font-size:15px;cursor:pointer;">Unsubscribe from all emails</button></form>`,
    );
  });

  app.post<{ Params: { token: string } }>('/u/:token', async (request, reply) => {
    const ids = verifyIds(secret, 'unsubscribe', request.params.token, 1);
    if (!ids || !(await tracking.unsubscribe(ctx.db, ids[0] as number))) {
      return page(reply, 404, 'Link not recognised', '<p>This unsubscribe link is not valid.</p>');
    }
    const view = await tracking.unsubscribeView(ctx.db, ids[0] as number);
    return page(reply, 200, 'You are unsubscribed', `<p>${escapeHtml(view?.email ?? '')} will not receive any more email from ${escapeHtml(view?.sender ?? 'this sender')}.</p>`);
  });
};
