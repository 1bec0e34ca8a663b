import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, count, desc, eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { idParamsSchema } from '@sendwell/contract/contacts';
import { outboxListSchema, outboxMessageSchema, outboxQuerySchema, type OutboxItem } from '@sendwell/contract/outbox';
import type { AppContext } from '../../context.ts';
import { outboxMessages } from '../../db/schema/index.ts';
import { requireUser } from '../../plugins/session.ts';
import { setTotalHeaders } from '../../lib/paging.ts';
import { AppError } from '../../lib/app-error.ts';

type Row = typeof outboxMessages.$inferSelect;
function toItem(row: Row): OutboxItem {
  return {
    id: row.id,
    campaignId: row.campaignId,
    messageId: row.messageId,
    from: row.fromAddress,
    to: row.toAddress,
    subject: row.subject,
    isTest: row.isTest === 1,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Route table (signed-in, the user's own mail only):
 *   GET /api/outbox        what the built-in catcher stored (and which transport is in use)
 *   GET /api/outbox/:id    one message with its HTML, text and headers
 */
export const outboxRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  app.addHook('onRequest', requireUser(ctx.db, ctx.config));

  app.get('/api/outbox', { schema: { querystring: outboxQuerySchema, response: { 200: outboxListSchema } } }, async (request, reply) => {
    const userId = request.signedIn.user.id;
    const { page, pageSize } = request.query;
    const [rows, total] = await Promise.all([
      ctx.db.select().from(outboxMessages).where(eq(outboxMessages.userId, userId)).orderBy(desc(outboxMessages.id)).limit(pageSize).offset((page - 1) * pageSize),
      ctx.db.select({ n: count() }).from(outboxMessages).where(eq(outboxMessages.userId, userId)),
    ]);
    setTotalHeaders(reply, { total: total[0]?.n ?? 0 });
    return { transport: ctx.transport.name, messages: rows.map(toItem) };
  });

  app.get('/api/outbox/:id', { schema: { params: idParamsSchema, response: { 200: outboxMessageSchema } } }, async (request) => {
    const [row] = await ctx.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.userId, request.signedIn.user.id), eq(outboxMessages.id, request.params.id)))
      .limit(1);
    if (!row) throw new AppError('not_found', 'Message not found');
    const parsed = await simpleParser(row.raw, { skipImageLinks: true });
    const headerEnd = row.raw.search(/\r?\n\r?\n/);
    return {
      ...toItem(row),
      html: typeof parsed.html === 'string' ? parsed.html : null,
      text: parsed.text ?? null,
      headers: headerEnd > 0 ? row.raw.slice(0, headerEnd) : '',
    };
  });
};
