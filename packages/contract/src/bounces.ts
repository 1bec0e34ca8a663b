import { z } from 'zod';

/** What a message that came back to us is. */
export const BOUNCE_KINDS = ['bounce', 'complaint', 'auto-reply', 'delivered', 'other'] as const;
export const bounceKindSchema = z.enum(BOUNCE_KINDS);
export type BounceKind = z.infer<typeof bounceKindSchema>;

/**
 * Why a message bounced: a fixed set, modelled on Sisimai's reason names (the reference set most
 * bounce handlers share). Only the first four say the address itself is bad (a hard bounce); every
 * other reason is about this message, the sender or the moment, and must not suppress the address
 * as if it did not exist.
 *
 * - user-unknown: the mailbox does not exist at that domain
 * - host-unknown: the domain does not exist or has no mail server
 * - has-moved: the address has moved (551, x.1.6) and no longer receives mail here
 * - not-accepting-mail: the domain accepts no mail at all (null MX, RFC 7505)
 * - mailbox-full: over quota
 * - message-too-big: over the receiver's size limit
 * - blocked: our sending IP or domain is on a block list or has a poor reputation
 * - policy-violation: the receiver's local policy refused it (relaying, sender not allowed, …)
 * - spam-detected: the content was judged spam
 * - content-error: the content or its format was refused (virus, attachment, bad headers)
 * - security-error: authentication failed (SPF, DKIM, DMARC, TLS)
 * - rate-limited: too many messages or connections; try later
 * - expired: delivery was retried until the message's time ran out
 * - system-error: the receiving system failed (configuration, disk, internal error)
 * - network-error: the receiver could not be reached (connection, DNS lookup failure, mail loop)
 * - suspended: the mailbox exists but is disabled or inactive
 * - filtered: the recipient's own filter refused it
 * - undetermined: a bounce whose reason could not be read
 */
export const BOUNCE_REASONS = [
  'user-unknown',
  'host-unknown',
  'has-moved',
  'not-accepting-mail',
  'mailbox-full',
  'message-too-big',
  'blocked',
  'policy-violation',
  'spam-detected',
  'content-error',
  'security-error',
  'rate-limited',
  'expired',
  'system-error',
  'network-error',
  'suspended',
  'filtered',
  'undetermined',
] as const;
export const bounceReasonSchema = z.enum(BOUNCE_REASONS);
export type BounceReason = z.infer<typeof bounceReasonSchema>;

/** The reasons that make a bounce hard: the address itself is bad, so it is suppressed at once. */
export const HARD_BOUNCE_REASONS: readonly BounceReason[] = [
  'user-unknown',
  'host-unknown',
  'has-moved',
  'not-accepting-mail',
];

/**
 * POST /api/webhook/email: what the message was read as, and whether it was tied to a message we
 * sent (`matched`). `reason` is set for bounces only; `hard` is true only for an address-level failure.
 */
export const bounceVerdictResponseSchema = z.object({
  kind: bounceKindSchema,
  reason: bounceReasonSchema.nullable(),
  hard: z.boolean(),
  recipient: z.string().nullable(),
  matched: z.boolean(),
});
export type BounceVerdictResponse = z.infer<typeof bounceVerdictResponseSchema>;

/**
 * GET and PUT /api/bounce-settings: what the account does with what comes back. A complaint always
 * suppresses the address; whether it also unsubscribes the contact is the account's choice.
 */
export const bounceSettingsSchema = z.object({
  suppressHardBounces: z.boolean(),
  softBounceLimit: z
    .number({ error: 'Enter a whole number of soft bounces from 0 to 20' })
    .int('Enter a whole number of soft bounces from 0 to 20')
    .min(0, 'Enter a whole number of soft bounces from 0 to 20')
    .max(20, 'Enter a whole number of soft bounces from 0 to 20'),
  softBounceWindowDays: z
    .number({ error: 'Enter a number of days from 1 to 365' })
    .int('Enter a number of days from 1 to 365')
    .min(1, 'Enter a number of days from 1 to 365')
    .max(365, 'Enter a number of days from 1 to 365'),
  unsubscribeOnComplaint: z.boolean(),
});
export type BounceSettings = z.infer<typeof bounceSettingsSchema>;

export const DEFAULT_BOUNCE_SETTINGS: BounceSettings = {
  suppressHardBounces: true,
  softBounceLimit: 3,
  softBounceWindowDays: 30,
  unsubscribeOnComplaint: true,
};

/**
 * Sending providers whose bounce and complaint events Sendwell reads, each at its own webhook
 * POST /api/webhook/bounces/<provider>/<account's inbound token>, each checked its own way:
 * - ses: Amazon SES through SNS; the message signature is verified against the SNS signing
 *   certificate, and only the topic the account names (its ARN is the setting) is accepted
 * - sendgrid: the Event Webhook's ECDSA signature, with the account's verification public key
 * - mailgun: HMAC-SHA256 of timestamp + token with the account's webhook signing key
 * - postmark: a shared secret, as the basic-auth password of the webhook URL or a header
 */
export const BOUNCE_PROVIDERS = ['ses', 'sendgrid', 'mailgun', 'postmark'] as const;
export const bounceProviderSchema = z.enum(BOUNCE_PROVIDERS, { error: 'Choose ses, sendgrid, mailgun or postmark' });
export type BounceProvider = z.infer<typeof bounceProviderSchema>;

/** The header Postmark (or anything else) can carry the webhook secret in, instead of basic auth. */
export const PROVIDER_SECRET_HEADER = 'X-Sendwell-Webhook-Secret';

/** What each provider's setting is, and its shape (checked on save, so a typo fails at once, not at the first event). */
export const BOUNCE_PROVIDER_SECRET_RULES: Record<BounceProvider, { label: string; pattern: RegExp; message: string }> =
  {
    ses: {
      label: 'SNS topic ARN',
      pattern: /^arn:aws(-[a-z]+)*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}(\.fifo)?$/,
      message: 'Enter the SNS topic ARN, like arn:aws:sns:us-east-1:123456789012:ses-bounces',
    },
    sendgrid: {
      label: 'Verification public key',
      pattern: /^[A-Za-z0-9+/=\s-]{80,1000}$/,
      message: 'Paste the verification key from SendGrid (Mail Settings → Signed Event Webhook), in base64',
    },
    mailgun: {
      label: 'HTTP webhook signing key',
      pattern: /^[A-Za-z0-9_-]{16,200}$/,
      message: 'Paste the HTTP webhook signing key from Mailgun (Sending → Webhooks)',
    },
    postmark: {
      label: 'Webhook secret',
      pattern: /^[!-~]{16,200}$/,
      message: 'Choose a secret of 16 to 200 printable characters, without spaces',
    },
  };

/** PUT /api/bounce-providers/:provider */
export const bounceProviderSecretBodySchema = z.object({
  secret: z
    .string({ error: 'Enter the setting' })
    .trim()
    .min(1, 'Enter the setting')
    .max(1000, 'At most 1,000 characters'),
});
export type BounceProviderSecretBody = z.infer<typeof bounceProviderSecretBodySchema>;

/** One provider as GET /api/bounce-providers shows it: where to point it, and whether it is set up (the secret is never shown). */
export const bounceProviderStatusSchema = z.object({
  provider: bounceProviderSchema,
  label: z.string(),
  configured: z.boolean(),
  /** The last 4 characters of what was saved, so a person can tell which key it is. */
  hint: z.string().nullable(),
  webhookUrl: z.string(),
  updatedAt: z.string().nullable(),
});
export type BounceProviderStatus = z.infer<typeof bounceProviderStatusSchema>;
export const bounceProvidersResponseSchema = z.object({ providers: z.array(bounceProviderStatusSchema) });
export type BounceProvidersResponse = z.infer<typeof bounceProvidersResponseSchema>;

/**
 * POST /api/webhook/bounces/:provider/:accountToken answers what it read of each event in the post
 * (SendGrid and SES batch several), and `subscribed` for an SNS SubscriptionConfirmation it confirmed.
 */
export const providerWebhookResponseSchema = z.object({
  verdicts: z.array(bounceVerdictResponseSchema),
  subscribed: z.boolean().optional(),
});
export type ProviderWebhookResponse = z.infer<typeof providerWebhookResponseSchema>;

/**
 * GET /api/bounce-mailbox: how the installation's bounce mailbox (BOUNCE_IMAP_URL) is doing, for the
 * Domain Settings page. Never its password. status: 'not_configured' (no BOUNCE_IMAP_URL), 'waiting'
 * (not polled yet), 'ok' (the last poll worked), 'failing' (the last poll failed: `error` says why).
 */
export const bounceMailboxStatusSchema = z.object({
  status: z.enum(['not_configured', 'waiting', 'ok', 'failing']),
  /** user@host/mailbox, or null when not configured. */
  mailbox: z.string().nullable(),
  lastPolledAt: z.string().nullable(),
  lastSuccessAt: z.string().nullable(),
  error: z.string().nullable(),
  processedCount: z.number().int(),
});
export type BounceMailboxStatus = z.infer<typeof bounceMailboxStatusSchema>;
