import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '@sendwell/contract/common';
import {
  aliasActivityListSchema,
  aliasFilterQuerySchema,
  createAliasBodySchema,
  createDestinationBodySchema,
  createRuleBodySchema,
  emailAliasListSchema,
  emailAliasSchema,
  forwardingDestinationListSchema,
  forwardingDestinationSchema,
  forwardingRuleListSchema,
  forwardingRuleSchema,
  forwardingStatsSchema,
  inboundMxSchema,
  resendConfirmationResponseSchema,
  updateAliasBodySchema,
  updateDestinationBodySchema,
  updateRuleBodySchema,
} from '@sendwell/contract/aliases';
import type { AppContext } from '../../context.ts';
import { confirmationPage, serveConfirmationLink, type LinkState } from '../../lib/confirmation-link.ts';
import { requireUser } from '../auth/index.ts';
import * as aliases from './aliases.service.ts';

/**
 * Route table (guard → route):
 *   user    GET    /api/domains/:id/aliases                          the domain's aliases (404: not the account's domain)
 *   user    POST   /api/domains/:id/aliases                          simple or advanced form; 409 when it exists
 *   user    GET    /api/email-aliases/:id                            one alias
 *   user    PATCH  /api/email-aliases/:id                            Overview settings, isActive
 *   user    DELETE /api/email-aliases/:id
 *   user    POST   /api/email-aliases/:id/resend-confirmation        the destination's link again
 *   user    GET    /api/email-aliases/:id/activity                   last 100 messages
 *   user    GET    /api/forwarding-rules?aliasId=                    rules (of one alias, or all)
 *   user    POST   /api/forwarding-rules
 *   user    PATCH  /api/forwarding-rules/:id                         name, priority, isActive, conditions, actions
 *   user    DELETE /api/forwarding-rules/:id
 *   user    GET    /api/forwarding-destinations?aliasId=
 *   user    POST   /api/forwarding-destinations                      Pending until confirmed
 *   user    PATCH  /api/forwarding-destinations/:id                  isActive, weight
 *   user    DELETE /api/forwarding-destinations/:id
 *   user    POST   /api/forwarding-destinations/:id/resend-confirmation
 *   user    GET    /api/forwarding-stats?aliasId=                    totals and the last 30 days
 *   user    GET    /api/domains/:id/inbound-mx                        the MX record to publish, checked live
 *   public  GET    /confirm-forwarding?token=…                       the emailed link's page: changes nothing
 *   public  POST   /confirm-forwarding?token=…                       confirms the address (its mailbox's owner agrees)
 */
export const aliasRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db, config } = ctx;
  const signedIn = requireUser(db, config);

  app.get(
    '/api/domains/:id/aliases',
    { guard: signedIn, schema: { params: idParamsSchema, response: { 200: emailAliasListSchema } } },
    async (request) => aliases.listAliases(db, request.signedIn.user, request.params.id),
  );

  app.post(
    '/api/domains/:id/aliases',
    {
      guard: signedIn,
      schema: { params: idParamsSchema, body: createAliasBodySchema, response: { 201: emailAliasSchema } },
    },
    async (request, reply) =>
      reply.status(201).send(await aliases.createAlias(ctx, request.signedIn.user, request.params.id, request.body)),
  );

  app.get(
    '/api/email-aliases/:id',
    { guard: signedIn, schema: { params: idParamsSchema, response: { 200: emailAliasSchema } } },
    async (request) => aliases.getAlias(db, request.signedIn.user, request.params.id),
  );

  app.patch(
    '/api/email-aliases/:id',
    {
      guard: signedIn,
      schema: { params: idParamsSchema, body: updateAliasBodySchema, response: { 200: emailAliasSchema } },
    },
    async (request) => aliases.updateAlias(ctx, request.signedIn.user, request.params.id, request.body),
  );

  app.delete(
    '/api/email-aliases/:id',
    { guard: signedIn, schema: { params: idParamsSchema } },
    async (request, reply) => {
      await aliases.deleteAlias(db, request.signedIn.user.id, request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/email-aliases/:id/resend-confirmation',
    { guard: signedIn, schema: { params: idParamsSchema, response: { 200: resendConfirmationResponseSchema } } },
    async (request) => aliases.resendAliasConfirmation(ctx, request.signedIn.user, request.params.id),
  );

  app.get(
    '/api/email-aliases/:id/activity',
    { guard: signedIn, schema: { params: idParamsSchema, response: { 200: aliasActivityListSchema } } },
    async (request) => aliases.aliasActivity(db, request.signedIn.user.id, request.params.id),
  );

  app.get(
    '/api/forwarding-rules',
    { guard: signedIn, schema: { querystring: aliasFilterQuerySchema, response: { 200: forwardingRuleListSchema } } },
    async (request) => aliases.listRules(db, request.signedIn.user, request.query.aliasId),
  );

  app.post(
    '/api/forwarding-rules',
    { guard: signedIn, schema: { body: createRuleBodySchema, response: { 201: forwardingRuleSchema } } },
    async (request, reply) =>
      reply.status(201).send(await aliases.createRule(ctx, request.signedIn.user, request.body)),
  );

  app.patch(
    '/api/forwarding-rules/:id',
    {
      guard: signedIn,
      schema: { params: idParamsSchema, body: updateRuleBodySchema, response: { 200: forwardingRuleSchema } },
    },
    async (request) => aliases.updateRule(ctx, request.signedIn.user, request.params.id, request.body),
  );

  app.delete(
    '/api/forwarding-rules/:id',
    { guard: signedIn, schema: { params: idParamsSchema } },
    async (request, reply) => {
      await aliases.deleteRule(db, request.signedIn.user.id, request.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/forwarding-destinations',
    {
      guard: signedIn,
      schema: { querystring: aliasFilterQuerySchema, response: { 200: forwardingDestinationListSchema } },
    },
    async (request) => aliases.listDestinations(db, request.signedIn.user, request.query.aliasId),
  );

  app.post(
    '/api/forwarding-destinations',
    { guard: signedIn, schema: { body: createDestinationBodySchema, response: { 201: forwardingDestinationSchema } } },
    async (request, reply) =>
      reply.status(201).send(await aliases.createDestination(ctx, request.signedIn.user, request.body)),
  );

  app.patch(
    '/api/forwarding-destinations/:id',
    {
      guard: signedIn,
      schema: {
        params: idParamsSchema,
        body: updateDestinationBodySchema,
        response: { 200: forwardingDestinationSchema },
      },
    },
    async (request) => aliases.updateDestination(db, request.signedIn.user, request.params.id, request.body),
  );

  app.delete(
    '/api/forwarding-destinations/:id',
    { guard: signedIn, schema: { params: idParamsSchema } },
    async (request, reply) => {
      await aliases.deleteDestination(db, request.signedIn.user.id, request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/forwarding-destinations/:id/resend-confirmation',
    { guard: signedIn, schema: { params: idParamsSchema, response: { 200: resendConfirmationResponseSchema } } },
    async (request) => aliases.resendDestinationConfirmation(ctx, request.signedIn.user, request.params.id),
  );

  app.get(
    '/api/forwarding-stats',
    { guard: signedIn, schema: { querystring: aliasFilterQuerySchema, response: { 200: forwardingStatsSchema } } },
    async (request) => aliases.forwardingStats(db, request.signedIn.user, request.query.aliasId),
  );

  app.get(
    '/api/domains/:id/inbound-mx',
    { guard: signedIn, schema: { params: idParamsSchema, response: { 200: inboundMxSchema } } },
    async (request) => aliases.inboundMx(db, config, request.signedIn.user.id, request.params.id),
  );

  await serveConfirmationLink(app, '/confirm-forwarding', async (_request, token, confirm) => {
    const { state, email } = await aliases.forwardConfirmation(db, config.sessionSecret, token, confirm);
    return {
      state,
      html: forwardingConfirmationPage(state, email, `/confirm-forwarding?token=${encodeURIComponent(token)}`),
    };
  });
};

/** The page of a forwarding confirmation link, per state. */
function forwardingConfirmationPage(state: LinkState, email: string | null, action: string): string {
  const address = email ?? 'this address';
  switch (state) {
    case 'ready':
      return confirmationPage({
        title: 'Confirm email forwarding',
        paragraphs: [
          `A Sendwell user asked to forward email to ${address}.`,
          'Confirm only if you want to receive it. You can ask the sender to remove the forwarding at any time.',
        ],
        form: { action, button: 'Confirm forwarding' },
      });
    case 'confirmed':
    case 'already':
      return confirmationPage({
        title: 'Forwarding confirmed',
        paragraphs: [`${address} is confirmed: forwarded email will now arrive there.`],
        link: { href: '/', label: 'Go to Sendwell' },
      });
    case 'expired':
      return confirmationPage({
        title: 'This link has expired',
        paragraphs: [
          `Confirmation links work for 48 hours. Ask for a new one for ${address} (Domain Settings → Aliases → Resend).`,
        ],
        link: { href: '/', label: 'Go to Sendwell' },
      });
    case 'sign-in':
    case 'other-account':
    case 'invalid':
      return confirmationPage({
        title: 'This link is not valid',
        paragraphs: [
          'The link may have been cut short or changed, or the forwarding was removed. Open it again from the email, or ask for a new one.',
        ],
        link: { href: '/', label: 'Go to Sendwell' },
      });
  }
}
