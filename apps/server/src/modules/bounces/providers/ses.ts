import { createVerify, X509Certificate } from 'node:crypto';
import type { BounceReason } from '@sendwell/contract/bounces';
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

/** How old an SNS message may be (its Timestamp) before it counts as a replay: SNS retries within an hour. */
const SNS_MAX_AGE_SECONDS = 60 * 60;
/** Where SNS signing certificates and subscription links live in production. */
const SNS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;

export interface SnsOptions {
  /**
   * Another origin trusted for certificates and subscription links (SNS_CERT_ORIGIN; tests point it
   * at a local server). Never set in production, where only https://sns.<region>.amazonaws.com counts.
   */
  trustedOrigin: string | null;
  /** Fetches a certificate or subscription link (global fetch; tests can swap it). */
  fetchText: (url: string) => Promise<string>;
}

/** Whether a certificate or SubscribeURL is SNS's own: https on sns.<region>.amazonaws.com, or the trusted test origin. */
function isSnsUrl(url: string, options: Pick<SnsOptions, 'trustedOrigin'>): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  if (options.trustedOrigin && parsed.origin === new URL(options.trustedOrigin).origin) return true;
  return parsed.protocol === 'https:' && SNS_HOST.test(parsed.hostname) && parsed.port === '' && parsed.username === '';
}

const certificates = new Map<string, X509Certificate>();

async function signingCertificate(url: string, options: SnsOptions, now: Date): Promise<X509Certificate> {
  let certificate = certificates.get(url);
  if (!certificate) {
    try {
      certificate = new X509Certificate(await options.fetchText(url));
    } catch {
      throw new ProviderRejection('unauthorized', 'The SNS signing certificate could not be fetched');
    }
    if (certificates.size > 100) certificates.clear();
    certificates.set(url, certificate);
  }
  if (new Date(certificate.validTo) < now || new Date(certificate.validFrom) > now)
    throw new ProviderRejection('unauthorized', 'The SNS signing certificate has expired');
  return certificate;
}

/** The fields SNS signs, in its order (https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message.html). */
function stringToSign(message: Record<string, unknown>): string {
  const fields =
    message.Type === 'Notification'
      ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  return fields
    .filter((field) => typeof message[field] === 'string')
    .map((field) => `${field}\n${message[field] as string}\n`)
    .join('');
}

export type SnsReading = { kind: 'events'; events: ProviderEvent[] } | { kind: 'subscribed' } | { kind: 'ignored' };

/**
 * Amazon SES notifications delivered by SNS: the SNS message signature (SignatureVersion 1,
 * SHA1withRSA, or 2, SHA256withRSA) is verified against the certificate at SigningCertURL, which
 * must be SNS's own; the message must come from the topic the account saved, and be fresh. A
 * SubscriptionConfirmation is confirmed by fetching its SubscribeURL (also SNS's own).
 */
export async function readSes(post: ProviderPost, options: SnsOptions): Promise<SnsReading> {
  if (!post.secret) throw new ProviderRejection('unauthorized', 'No SNS topic ARN is saved for this account');
  const message = jsonOf(post.rawBody);
  if (!isRecord(message) || typeof message.Type !== 'string' || typeof message.Signature !== 'string')
    throw new ProviderRejection('bad_request', 'Expected an SNS message (Type, Message, Signature, …)');
  const certUrl = stringOf(message.SigningCertURL) ?? stringOf(message.SigningCertUrl) ?? '';
  if (!isSnsUrl(certUrl, options) || !certUrl.endsWith('.pem'))
    throw new ProviderRejection('unauthorized', 'SigningCertURL is not an SNS certificate');
  const algorithm =
    message.SignatureVersion === '1' ? 'RSA-SHA1' : message.SignatureVersion === '2' ? 'RSA-SHA256' : null;
  if (!algorithm) throw new ProviderRejection('unauthorized', 'Unknown SNS SignatureVersion');
  const certificate = await signingCertificate(certUrl, options, post.now);
  const verifier = createVerify(algorithm);
  verifier.update(stringToSign(message), 'utf8');
  let valid: boolean;
  try {
    valid = verifier.verify(certificate.publicKey, message.Signature, 'base64');
  } catch {
    valid = false;
  }
  if (!valid) throw new ProviderRejection('unauthorized', 'The SNS signature does not match');
  const sentAt = Date.parse(stringOf(message.Timestamp) ?? '');
  if (!Number.isFinite(sentAt) || Math.abs(post.now.getTime() - sentAt) > SNS_MAX_AGE_SECONDS * 1000)
    throw new ProviderRejection('unauthorized', 'The SNS message is too old');
  if (message.TopicArn !== post.secret)
    throw new ProviderRejection('unauthorized', 'The SNS message is from another topic than the one saved');

  if (message.Type === 'SubscriptionConfirmation') {
    const subscribeUrl = stringOf(message.SubscribeURL) ?? '';
    if (!isSnsUrl(subscribeUrl, options)) throw new ProviderRejection('bad_request', 'SubscribeURL is not an SNS link');
    try {
      await options.fetchText(subscribeUrl);
    } catch {
      throw new ProviderRejection('bad_request', 'The subscription could not be confirmed at SubscribeURL');
    }
    return { kind: 'subscribed' };
  }
  if (message.Type !== 'Notification') return { kind: 'ignored' };
  let notification: unknown;
  try {
    notification = JSON.parse(stringOf(message.Message) ?? '');
  } catch {
    return { kind: 'ignored' };
  }
  return { kind: 'events', events: isRecord(notification) ? sesEvents(notification) : [] };
}

/** SES bounce sub-types (https://docs.aws.amazon.com/ses/latest/dg/notification-contents.html) in our reasons. */
const SES_SUBTYPES: Record<string, BounceReason> = {
  NoEmail: 'user-unknown',
  Suppressed: 'user-unknown',
  OnAccountSuppressionList: 'user-unknown',
  MailboxFull: 'mailbox-full',
  MessageTooLarge: 'message-too-big',
  ContentRejected: 'content-error',
  AttachmentRejected: 'content-error',
};

/** Our Message-ID, when SES was asked to include the original headers. */
function sesMessageId(mail: Record<string, unknown>): string | null {
  const common = isRecord(mail.commonHeaders) ? mail.commonHeaders : {};
  const fromCommon = bracketedMessageId(common.messageId);
  if (fromCommon) return fromCommon;
  const headers = Array.isArray(mail.headers) ? mail.headers.filter(isRecord) : [];
  return bracketedMessageId(headers.find((h) => String(h.name).toLowerCase() === 'message-id')?.value);
}

function sesEvents(notification: Record<string, unknown>): ProviderEvent[] {
  const type = stringOf(notification.notificationType) ?? stringOf(notification.eventType);
  const mail = isRecord(notification.mail) ? notification.mail : {};
  const messageId = sesMessageId(mail);
  if (type === 'Bounce' && isRecord(notification.bounce)) {
    const bounce = notification.bounce;
    const permanent = bounce.bounceType === 'Permanent';
    const subtype = stringOf(bounce.bounceSubType) ?? 'General';
    const recipients = Array.isArray(bounce.bouncedRecipients) ? bounce.bouncedRecipients.filter(isRecord) : [];
    return recipients.slice(0, 100).map((entry) => {
      const recipient = stringOf(entry.emailAddress)?.toLowerCase() ?? null;
      return {
        verdict: providerBounce({
          recipient,
          status: stringOf(entry.status),
          diagnostic: stringOf(entry.diagnosticCode),
          permanent,
          fallbackReason: SES_SUBTYPES[subtype] ?? (permanent ? 'user-unknown' : 'undetermined'),
          messageId,
        }),
        recipient,
        messageId,
      };
    });
  }
  if (type === 'Complaint' && isRecord(notification.complaint)) {
    const complaint = notification.complaint;
    const recipients = Array.isArray(complaint.complainedRecipients)
      ? complaint.complainedRecipients.filter(isRecord)
      : [];
    return recipients.slice(0, 100).map((entry) => {
      const recipient = stringOf(entry.emailAddress)?.toLowerCase() ?? null;
      return {
        verdict: providerComplaint(recipient, messageId, stringOf(complaint.complaintFeedbackType)),
        recipient,
        messageId,
      };
    });
  }
  if (type === 'Delivery' && isRecord(notification.delivery)) {
    const recipients = Array.isArray(notification.delivery.recipients) ? notification.delivery.recipients : [];
    return recipients
      .filter((r): r is string => typeof r === 'string')
      .slice(0, 100)
      .map((r) => ({ verdict: providerOther('delivered', r, messageId), recipient: r.toLowerCase(), messageId }));
  }
  return [];
}
