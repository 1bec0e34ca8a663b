import { z } from 'zod';

/** What POST /api/webhook/email did with a message: recorded a bounce or complaint, or let it be. */
export const feedbackOutcomeSchema = z.enum(['bounce', 'soft-bounce', 'complaint', 'unmatched', 'ignored']);
export type FeedbackOutcome = z.infer<typeof feedbackOutcomeSchema>;

/** POST /api/webhook/email (raw MIME body). */
export const inboundWebhookResponseSchema = z.object({ handled: feedbackOutcomeSchema });

/**
 * GET /api/webhook/email-address and POST /api/inbound/regenerate-address: the account's own webhook
 * address, with its token, to give a mail provider. The token is the account's alone: what is posted
 * with it only ever touches that account's messages.
 */
export const inboundAddressResponseSchema = z.object({ url: z.string(), token: z.string() });
export type InboundAddress = z.infer<typeof inboundAddressResponseSchema>;

/**
 * Where the webhook takes its token, besides `?token=` (kept for providers that can only call a
 * URL): this header, or `Authorization: Bearer <token>`. A header keeps it out of request logs.
 */
export const INBOUND_TOKEN_HEADER = 'X-Sendwell-Token';

export const SEND_RAW_MESSAGE = 'Send the raw message as a message/rfc822 body';
