import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notificationListSchema } from '@sendwell/contract/notifications';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../auth/index.ts';
import * as notifications from './notifications.service.ts';

/**
 * Route table (signed-in, scoped to the user):
 *   GET  /api/notifications            newest 20 and the unread count
 *   POST /api/notifications/read-all   marks every notification read (204)
 */
export const notificationRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db } = ctx;
  const signedIn = requireUser(db, ctx.config);

  app.get(
    '/api/notifications',
    { guard: signedIn, schema: { response: { 200: notificationListSchema } } },
    async (request) => notifications.notificationsOf(db, request.signedIn.user.id),
  );

  app.post('/api/notifications/read-all', { guard: signedIn }, async (request, reply) => {
    await notifications.markAllNotificationsRead(db, request.signedIn.user.id);
    return reply.status(204).send();
  });
};
