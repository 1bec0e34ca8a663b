import { createPublicKey, createVerify, type KeyObject } from 'node:crypto';
import {
  bracketedMessageId,
  headerOf,
  isRecord,
  jsonOf,
  ProviderRejection,
  stringOf,
  type ProviderEvent,
  type ProviderPost,
} from './types.ts';
import { providerBounce, providerComplaint, providerOther } from './verdicts.ts';

const SENDGRID_SIGNATURE_HEADER = 'X-Twilio-Email-Event-Webhook-Signature';
const SENDGRID_TIMESTAMP_HEADER = 'X-Twilio-Email-Event-Webhook-Timestamp';
/** How old a SendGrid signature may be before the post counts as a replay. */
const SENDGRID_MAX_AGE_SECONDS = 15 * 60;

/** The verification key SendGrid shows: base64 DER (SPKI) of an ECDSA P-256 key, or the same in PEM. */
export function sendgridPublicKey(text: string): KeyObject {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) return createPublicKey(trimmed);
  return createPublicKey({ key: Buffer.from(trimmed.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'spki' });
}

/**
 * SendGrid's signed Event Webhook (https://www.twilio.com/docs/sendgrid/for-developers/tracking-events/getting-started-event-webhook-security-features):
 * an ECDSA (P-256, SHA-256) signature, base64 DER, over timestamp + the raw body, verified with the
 * account's verification public key. The body is an array of events.
 */
export function readSendgrid(post: ProviderPost): ProviderEvent[] {
  if (!post.secret)
    throw new ProviderRejection('unauthorized', 'No SendGrid verification key is saved for this account');
  const signature = headerOf(post.headers, SENDGRID_SIGNATURE_HEADER);
  const timestamp = headerOf(post.headers, SENDGRID_TIMESTAMP_HEADER);
  if (!signature || !timestamp)
    throw new ProviderRejection('unauthorized', 'The SendGrid signature headers are missing');
  let key: KeyObject;
  try {
    key = sendgridPublicKey(post.secret);
  } catch {
    throw new ProviderRejection('unauthorized', 'The saved SendGrid verification key is not a public key');
  }
  const verifier = createVerify('sha256');
  verifier.update(timestamp);
  verifier.update(post.rawBody);
  let valid: boolean;
  try {
    valid = verifier.verify(key, signature, 'base64');
  } catch {
    valid = false;
  }
  if (!valid) throw new ProviderRejection('unauthorized', 'The SendGrid signature does not match');
  const age = post.now.getTime() / 1000 - Number(timestamp);
  if (!Number.isFinite(age) || Math.abs(age) > SENDGRID_MAX_AGE_SECONDS)
    throw new ProviderRejection('unauthorized', 'The SendGrid signature is too old');
  const body = jsonOf(post.rawBody);
  if (!Array.isArray(body) || body.length > 1000)
    throw new ProviderRejection('bad_request', "Expected SendGrid's array of events (at most 1,000)");
  return body.filter(isRecord).map(sendgridEvent);
}

function sendgridEvent(data: Record<string, unknown>): ProviderEvent {
  const recipient = stringOf(data.email)?.toLowerCase() ?? null;
  const messageId = bracketedMessageId(data['smtp-id']);
  switch (data.event) {
    case 'spamreport':
      return { verdict: providerComplaint(recipient, messageId, 'abuse'), recipient, messageId };
    case 'delivered':
      return { verdict: providerOther('delivered', recipient, messageId), recipient, messageId };
    case 'bounce': {
      // type 'blocked' is SendGrid's "the receiver refused this message" (a soft bounce); 'bounce' a permanent failure.
      const blocked = data.type === 'blocked';
      return {
        verdict: providerBounce({
          recipient,
          status: stringOf(data.status),
          diagnostic: stringOf(data.reason),
          permanent: !blocked && !String(data.status ?? '').startsWith('4'),
          fallbackReason: blocked ? 'blocked' : 'undetermined',
          messageId,
        }),
        recipient,
        messageId,
      };
    }
    default:
      return { verdict: providerOther('other', recipient, messageId), recipient, messageId };
  }
}
