import { z } from 'zod';

/** What POST /api/webhook/email did with a message: recorded a bounce or complaint, or let it be. */
export const feedbackOutcomeSchema = z.enum(['bounce', 'soft-bounce', 'complaint', 'unmatched', 'ignored']);
export type FeedbackOutcome = z.infer<typeof feedbackOutcomeSchema>;

/** POST /api/webhook/email (raw MIME body). */
export const inboundWebhookResponseSchema = z.object({ handled: feedbackOutcomeSchema });

/** GET /api/webhook/email-address: the full webhook address, with its token, to give a mail provider. */
export const inboundAddressResponseSchema = z.object({ url: z.string() });

export const SEND_RAW_MESSAGE = 'Send the raw message as a message/rfc822 body';
