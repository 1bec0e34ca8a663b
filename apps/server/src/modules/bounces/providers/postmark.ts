import { timingSafeEqual, createHash } from 'node:crypto';
import { PROVIDER_SECRET_HEADER, type BounceReason } from '@sendwell/contract/bounces';
import {
  headerOf,
  isRecord,
  jsonOf,
  ProviderRejection,
  stringOf,
  type ProviderEvent,
  type ProviderPost,
} from './types.ts';
import { providerBounce, providerComplaint, providerOther } from './verdicts.ts';

/**
 * Postmark's bounce and spam-complaint webhooks (https://postmarkapp.com/developer/webhooks/bounce-webhook)
 * carry no signature: the account's secret comes as the basic-auth password Postmark sends when the
 * webhook URL has credentials in it (https://any:<secret>@host/...), or in the X-Sendwell-Webhook-Secret
 * header (Postmark's custom webhook headers).
 */
export function readPostmark(post: ProviderPost): ProviderEvent[] {
  if (!post.secret) throw new ProviderRejection('unauthorized', 'No Postmark webhook secret is saved for this account');
  const presented = presentedSecret(post);
  if (presented === null || !sameSecret(presented, post.secret))
    throw new ProviderRejection('unauthorized', 'The Postmark webhook secret does not match');
  const body = jsonOf(post.rawBody);
  if (!isRecord(body) || typeof body.RecordType !== 'string')
    throw new ProviderRejection('bad_request', 'Expected a Postmark webhook body with a RecordType');
  return [postmarkEvent(body)];
}

function presentedSecret(post: ProviderPost): string | null {
  const header = headerOf(post.headers, PROVIDER_SECRET_HEADER);
  if (header) return header;
  const authorization = headerOf(post.headers, 'authorization');
  if (!authorization?.toLowerCase().startsWith('basic ')) return null;
  const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 ? decoded.slice(colon + 1) : null;
}

/** Compared as SHA-256 digests: equal lengths for timingSafeEqual whatever was presented. */
function sameSecret(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** Postmark's bounce types (https://postmarkapp.com/developer/api/bounce-api#bounce-types) in our reasons. */
const POSTMARK_TYPES: Record<string, { permanent: boolean; reason: BounceReason } | 'complaint' | 'auto-reply'> = {
  HardBounce: { permanent: true, reason: 'user-unknown' },
  BadEmailAddress: { permanent: true, reason: 'user-unknown' },
  AddressChange: { permanent: true, reason: 'has-moved' },
  DnsError: { permanent: false, reason: 'network-error' },
  SoftBounce: { permanent: false, reason: 'undetermined' },
  Transient: { permanent: false, reason: 'undetermined' },
  Blocked: { permanent: false, reason: 'blocked' },
  SpamNotification: { permanent: false, reason: 'spam-detected' },
  VirusNotification: { permanent: false, reason: 'content-error' },
  DMARCPolicy: { permanent: false, reason: 'security-error' },
  ChallengeVerification: { permanent: false, reason: 'filtered' },
  ManuallyDeactivated: { permanent: false, reason: 'suspended' },
  Unknown: { permanent: false, reason: 'undetermined' },
  SpamComplaint: 'complaint',
  AutoResponder: 'auto-reply',
};

function postmarkEvent(body: Record<string, unknown>): ProviderEvent {
  const recipient = stringOf(body.Email)?.toLowerCase() ?? null;
  // Postmark's MessageID is its own id, not our Message-ID header: the recipient ties it to our send.
  const messageId = null;
  const type = body.RecordType === 'SpamComplaint' ? 'SpamComplaint' : (stringOf(body.Type) ?? 'Unknown');
  const known = POSTMARK_TYPES[type];
  if (known === 'complaint') return { verdict: providerComplaint(recipient, messageId, 'abuse'), recipient, messageId };
  if (known === 'auto-reply')
    return { verdict: providerOther('auto-reply', recipient, messageId), recipient, messageId };
  if (body.RecordType === 'Delivery')
    return { verdict: providerOther('delivered', recipient, messageId), recipient, messageId };
  if (body.RecordType !== 'Bounce' || !known)
    return { verdict: providerOther('other', recipient, messageId), recipient, messageId };
  return {
    verdict: providerBounce({
      recipient,
      diagnostic: stringOf(body.Details) ?? stringOf(body.Description),
      permanent: known.permanent,
      fallbackReason: known.reason,
      messageId,
    }),
    recipient,
    messageId,
  };
}
