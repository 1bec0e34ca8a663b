import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` and base64
 * key bytes; the signature is base64 HMAC-SHA256 of `id.timestamp.body`, sent as `v1,<signature>`,
 * several space-separated while a rotated secret still signs beside the new one.
 */

const SECRET_PREFIX = 'whsec_';

/** A new signing secret: 24 random bytes (Standard Webhooks asks for 24 to 64). */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

/** A new message id, the `webhook-id` header: unique per event, the same on every retry. */
export function newWebhookMessageId(): string {
  return `msg_${randomBytes(18).toString('base64url')}`;
}

/** `v1,<base64 HMAC-SHA256>` of one message under one secret. */
function webhookSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three Standard Webhooks headers of one attempt, signed by every secret given (newest first). */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((secret) => webhookSignature(secret, id, timestampSeconds, body)).join(' '),
  };
}
