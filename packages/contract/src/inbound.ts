import { z } from 'zod';
import { bounceVerdictResponseSchema } from './bounces.ts';

/**
 * POST /api/webhook/email: raw MIME (message/rfc822), multipart with a raw `email` field, or JSON
 * with the raw message in base64. A message for one of the account's aliases answers `handled:
 * 'routed'` (stored, forwards queued) with what each alias decided; anything else (a bounce, a
 * complaint, an auto-reply) answers the bounce classifier's verdict: { kind, reason, hard, recipient, matched }.
 */
export const inboundRoutedResponseSchema = z.object({
  handled: z.literal('routed'),
  messageId: z.string(),
  /** What each alias recipient decided. */
  recipients: z.array(
    z.object({ recipient: z.string(), outcome: z.string(), detail: z.string(), duplicate: z.boolean() }),
  ),
});
export const inboundWebhookResponseSchema = z.union([inboundRoutedResponseSchema, bounceVerdictResponseSchema]);
export type InboundWebhookResponse = z.infer<typeof inboundWebhookResponseSchema>;

/** JSON form of POST /api/webhook/email: the raw message in base64, and the envelope when the provider gives it. */
export const inboundWebhookJsonSchema = z.object({
  raw: z.string({ error: 'raw must be the base64 of the raw message' }).min(1, 'raw must not be empty').optional(),
  /** Some providers name the field `email` or `rawEmail`. */
  email: z.string().min(1).optional(),
  rawEmail: z.string().min(1).optional(),
  envelope: z
    .object({
      from: z.string().max(512).optional(),
      to: z.union([z.string().max(512), z.array(z.string().max(512)).max(100)]).optional(),
    })
    .optional(),
});
export type InboundWebhookJson = z.infer<typeof inboundWebhookJsonSchema>;

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

export const SEND_RAW_MESSAGE =
  'Send the raw message as a message/rfc822 body, a multipart form with an email field, or JSON with raw in base64';
