import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bounceMailboxStatusSchema, bounceSettingsSchema } from '@sendwell/contract/bounces';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../auth/index.ts';
import { bounceMailboxStatusOf } from './bounce-mailbox.ts';
import { bounceSettingsOf, saveBounceSettings } from './bounces.service.ts';

/**
 * Route table (signed-in, the account's own settings only):
 *   GET /api/bounce-settings   what the account does with bounces and complaints (defaults until saved)
 *   PUT /api/bounce-settings   saves them
 *   GET /api/bounce-mailbox    how the installation's bounce mailbox (BOUNCE_IMAP_URL) fares: its last poll, its error
 */
export const bounceRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db } = ctx;
  const signedIn = requireUser(db, ctx.config);

  app.get(
    '/api/bounce-settings',
    { guard: signedIn, schema: { response: { 200: bounceSettingsSchema } } },
    async (request) => bounceSettingsOf(db, request.signedIn.user.id),
  );

  app.put(
    '/api/bounce-settings',
    { guard: signedIn, schema: { body: bounceSettingsSchema, response: { 200: bounceSettingsSchema } } },
    async (request) => saveBounceSettings(db, request.signedIn.user.id, request.body),
  );

  app.get(
    '/api/bounce-mailbox',
    { guard: signedIn, schema: { response: { 200: bounceMailboxStatusSchema } } },
    async () => bounceMailboxStatusOf(db, ctx.config),
  );
};
