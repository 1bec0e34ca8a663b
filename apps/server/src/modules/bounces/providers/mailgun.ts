import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  bracketedMessageId,
  isRecord,
  jsonOf,
  ProviderRejection,
  stringOf,
  type ProviderEvent,
  type ProviderPost,
} from './types.ts';
import { providerBounce, providerComplaint, providerOther } from './verdicts.ts';

/** How old a Mailgun signature may be: its timestamp is made per delivery attempt, so a replay is older. */
const MAILGUN_MAX_AGE_SECONDS = 15 * 60;

/**
 * Mailgun's webhooks (https://documentation.mailgun.com/docs/mailgun/user-manual/tracking-messages/#securing-webhooks):
 * `{ signature: { timestamp, token, signature }, "event-data": {...} }`, the signature being
 * HMAC-SHA256 (hex) of timestamp + token under the account's HTTP webhook signing key.
 */
export function readMailgun(post: ProviderPost): ProviderEvent[] {
  if (!post.secret) throw new ProviderRejection('unauthorized', 'No Mailgun signing key is saved for this account');
  const body = jsonOf(post.rawBody);
  if (!isRecord(body) || !isRecord(body.signature) || !isRecord(body['event-data']))
    throw new ProviderRejection('bad_request', 'Expected Mailgun\'s { signature, "event-data" } body');
  const timestamp = stringOf(body.signature.timestamp) ?? String(body.signature.timestamp ?? '');
  const token = stringOf(body.signature.token) ?? '';
  const signature = stringOf(body.signature.signature) ?? '';
  const expected = createHmac('sha256', post.secret)
    .update(timestamp + token)
    .digest();
  const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new ProviderRejection('unauthorized', 'The Mailgun signature does not match');
  const age = post.now.getTime() / 1000 - Number(timestamp);
  if (!Number.isFinite(age) || Math.abs(age) > MAILGUN_MAX_AGE_SECONDS)
    throw new ProviderRejection('unauthorized', 'The Mailgun signature is too old');
  return [mailgunEvent(body['event-data'])];
}

/**
 * The token of a Mailgun post whose signature readMailgun accepted, and until when a replay of it
 * would still pass the signature's age check: the caller remembers it that long (a second post
 * with it is a replay, 409). Mailgun: "cache the token … and not allow subsequent requests with the same token".
 */
export function mailgunReplayToken(post: ProviderPost): { token: string; expiresAt: Date } {
  const body = jsonOf(post.rawBody) as { signature: Record<string, unknown> };
  const timestamp = Number(stringOf(body.signature.timestamp) ?? body.signature.timestamp);
  const token = stringOf(body.signature.token) ?? '';
  return { token, expiresAt: new Date((timestamp + MAILGUN_MAX_AGE_SECONDS) * 1000 + 60_000) };
}

function mailgunEvent(data: Record<string, unknown>): ProviderEvent {
  const recipient = stringOf(data.recipient)?.toLowerCase() ?? null;
  const message = isRecord(data.message) ? data.message : {};
  const headers = isRecord(message.headers) ? message.headers : {};
  const messageId = bracketedMessageId(headers['message-id']);
  const event = stringOf(data.event);
  if (event === 'complained')
    return { verdict: providerComplaint(recipient, messageId, 'abuse'), recipient, messageId };
  if (event === 'delivered') return { verdict: providerOther('delivered', recipient, messageId), recipient, messageId };
  if (event !== 'failed') return { verdict: providerOther('other', recipient, messageId), recipient, messageId };
  const status = isRecord(data['delivery-status']) ? data['delivery-status'] : {};
  const enhanced = stringOf(status['enhanced-code']);
  const code = typeof status.code === 'number' ? String(status.code) : stringOf(status.code);
  const diagnostic = [stringOf(status.message), stringOf(status.description)].filter(Boolean).join(' ').trim();
  const permanent = data.severity === 'permanent';
  return {
    verdict: providerBounce({
      recipient,
      status: enhanced ?? null,
      diagnostic: [code, diagnostic].filter(Boolean).join(' ') || null,
      permanent,
      // suppress-bounce: Mailgun dropped it because the address bounced hard before.
      fallbackReason: data.reason === 'suppress-bounce' ? 'user-unknown' : 'undetermined',
      messageId,
    }),
    recipient,
    messageId,
  };
}
