import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '@sendwell/contract/common';
import {
  addSenderAddressBodySchema,
  senderAddressSchema,
  senderOverviewSchema,
} from '@sendwell/contract/sender-addresses';
import type { AppContext } from '../../context.ts';
import { confirmationPage, serveConfirmationLink, type LinkState } from '../../lib/confirmation-link.ts';
import { resolveSession, requireUser, sessionToken } from '../auth/index.ts';
import * as senders from './sender-addresses.service.ts';

/**
 * Route table (guard → route):
 *   user    GET    /api/sender-addresses             what the account may send from
 *   user    POST   /api/sender-addresses             {email}: adds a pending address and mails its link
 *   user    POST   /api/sender-addresses/:id/resend  another link (one a minute per address, 10 an hour)
 *   user    DELETE /api/sender-addresses/:id
 *   public  GET    /confirm-sender?token=…           the emailed link's page: says what it confirms, changes nothing
 *   public  POST   /confirm-sender?token=…           confirms, for the owning account signed in (read inside)
 */
export const senderAddressRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db, config } = ctx;
  const signedIn = requireUser(db, config);

  app.get(
    '/api/sender-addresses',
    { guard: signedIn, schema: { response: { 200: senderOverviewSchema } } },
    async (request) => senders.senderOverview(db, request.signedIn.user),
  );

  app.post(
    '/api/sender-addresses',
    { guard: signedIn, schema: { body: addSenderAddressBodySchema, response: { 201: senderAddressSchema } } },
    async (request, reply) =>
      reply.status(201).send(await senders.addSenderAddress(ctx, request.signedIn.user, request.body.email)),
  );

  app.post(
    '/api/sender-addresses/:id/resend',
    { guard: signedIn, schema: { params: idParamsSchema, response: { 200: senderAddressSchema } } },
    async (request) => senders.resendSenderConfirmation(ctx, request.signedIn.user, request.params.id),
  );

  app.delete(
    '/api/sender-addresses/:id',
    { guard: signedIn, schema: { params: idParamsSchema } },
    async (request, reply) => {
      await senders.deleteSenderAddress(db, request.signedIn.user.id, request.params.id);
      return reply.status(204).send();
    },
  );

  await serveConfirmationLink(app, '/confirm-sender', async (request, token, confirm) => {
    const session = await resolveSession(db, sessionToken(request));
    const { state, email } = await senders.senderConfirmation(
      db,
      config.sessionSecret,
      token,
      session?.user.id ?? null,
      confirm,
    );
    return { state, html: senderConfirmationPage(state, email, `/confirm-sender?token=${encodeURIComponent(token)}`) };
  });
};

/** The page of a sender confirmation link, per state. */
function senderConfirmationPage(state: LinkState, email: string | null, action: string): string {
  const address = email ?? 'this address';
  switch (state) {
    case 'ready':
      return confirmationPage({
        title: 'Confirm a sender address',
        paragraphs: [
          `Confirm that your Sendwell account may send campaigns from ${address}.`,
          'Only confirm an address whose mailbox is yours.',
        ],
        form: { action, button: 'Confirm sender address' },
      });
    case 'confirmed':
    case 'already':
      return confirmationPage({
        title: 'Sender address confirmed',
        paragraphs: [`${address} is confirmed. Choose it as the From address of your campaigns.`],
        link: { href: '/campaigns', label: 'Go to Campaigns' },
      });
    case 'expired':
      return confirmationPage({
        title: 'This link has expired',
        paragraphs: [
          `Confirmation links work for 48 hours. Send a new one for ${address} from Domain Settings → Sender Addresses.`,
        ],
        link: { href: '/domain-settings', label: 'Go to Domain Settings' },
      });
    case 'sign-in':
      return confirmationPage({
        title: 'Sign in to confirm',
        paragraphs: [
          `Sign in to the Sendwell account that added ${address}, then open this link again to confirm it.`,
          'If you did not ask to send from this address, ignore the email: nothing is sent from it without this confirmation.',
        ],
        link: { href: `/login?return=${encodeURIComponent(action)}`, label: 'Sign in' },
      });
    case 'other-account':
      return confirmationPage({
        title: 'This link is for another account',
        paragraphs: [
          `${address} was added by a different Sendwell account than the one you are signed in to, so only that account can confirm it.`,
        ],
        link: { href: '/', label: 'Go to Dashboard' },
      });
    case 'invalid':
      return confirmationPage({
        title: 'This link is not valid',
        paragraphs: [
          'The link may have been cut short or changed, or the address was removed. Open it again from the email, or send a new one from Domain Settings → Sender Addresses.',
        ],
        link: { href: '/', label: 'Go to Sendwell' },
      });
  }
}
