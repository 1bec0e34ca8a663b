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
  /** Checked on its own (inboundEnvelopeSchema), after the body's shape, so that its errors name the field. */
  envelope: z.unknown().optional(),
});
export type InboundWebhookJson = z.infer<typeof inboundWebhookJsonSchema>;

/** Most recipients one message may name (as Postfix's smtpd_recipient_limit); the SMTP server answers 452 past it. */
export const INBOUND_MAX_RECIPIENTS = 100;

/**
 * One envelope address: `local@domain`, optionally in one pair of angle brackets; no white space,
 * CR/LF or other controls, commas, quotes, brackets inside, nor a list of addresses.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what it refuses
const ENVELOPE_ADDRESS = /^<?[^\s<>,;"()[\]\\@\u0000-\u001f\u007f]+@[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?>?$/;
const isEnvelopeAddress = (value: string) =>
  ENVELOPE_ADDRESS.test(value.trim()) && value.trim().startsWith('<') === value.trim().endsWith('>');
const oneAddress = (field: string) =>
  `${field} must be one email address like a@b.example (no list, comma, angle list, space or line break)`;
const envelopeAddress = (field: string) =>
  z
    .string({ error: `${field} must be one email address` })
    .max(320, `${field} must be at most 320 characters`)
    .refine(isEnvelopeAddress, oneAddress(field))
    .transform((value) => value.trim().replace(/^<|>$/g, ''));

/**
 * The envelope of a webhook post (JSON `envelope`, multipart `envelope` or `sender`/`recipient`):
 * `from` is one address, or '' / '<>' for a null sender; `to` one address, or a list of them (an
 * array, or a string with commas between addresses), at most INBOUND_MAX_RECIPIENTS. A bad value
 * is a 400 naming its field: nothing is stored.
 */
export const inboundEnvelopeSchema = z.object(
  {
    from: z
      .string({ error: 'envelope.from must be one email address, or empty for a null sender' })
      .max(320, 'envelope.from must be at most 320 characters')
      .refine((value) => ['', '<>'].includes(value.trim()) || isEnvelopeAddress(value), oneAddress('envelope.from'))
      .transform((value) => value.trim().replace(/^<|>$/g, ''))
      .optional(),
    to: z
      .union([
        z
          .string({ error: 'envelope.to must be an address or a list of addresses' })
          .max(64 * 1024)
          .transform((value) =>
            value
              .split(',')
              .map((entry) => entry.trim())
              .filter((entry) => entry !== ''),
          ),
        z.array(z.string({ error: 'envelope.to must be an address or a list of addresses' })),
      ])
      .pipe(
        z
          .array(envelopeAddress('envelope.to'))
          .max(INBOUND_MAX_RECIPIENTS, `envelope.to names at most ${INBOUND_MAX_RECIPIENTS} recipients`),
      )
      .optional(),
  },
  { error: 'envelope must be an object like {"from":"a@b.example","to":["c@d.example"]}' },
);
export type InboundEnvelopeInput = z.input<typeof inboundEnvelopeSchema>;

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
