import type { BounceReason } from '@sendwell/contract/bounces';
import { HARD_BOUNCE_REASONS } from '@sendwell/contract/bounces';
import { addressIn, classifySmtpResponse, type Verdict } from '../classify.ts';

const HARD = new Set<BounceReason>(HARD_BOUNCE_REASONS);

/**
 * A provider's bounce in our terms: the receiver's words read by the same rules as a bounce
 * message (classifySmtpResponse), then the provider's own judgement where the words say nothing:
 * `fallbackReason` when the text gave no reason, and `permanent` deciding hard vs soft (a
 * "permanent" reason that is not about the address, like a block list, stays soft).
 */
export function providerBounce(input: {
  recipient: string | null;
  status?: string | null;
  diagnostic?: string | null;
  permanent: boolean;
  fallbackReason: BounceReason;
  messageId: string | null;
}): Verdict {
  const words = [input.status, input.diagnostic].filter(Boolean).join(' ');
  const read = words ? classifySmtpResponse(words, input.recipient) : null;
  const reason = read && read.reason !== 'undetermined' ? read.reason : input.fallbackReason;
  return {
    kind: 'bounce',
    reason,
    hard: input.permanent && reason !== null && HARD.has(reason),
    recipient: addressIn(input.recipient),
    originalMessageId: input.messageId,
    status: input.status ?? read?.status ?? null,
    diagnostic: input.diagnostic?.slice(0, 1000) ?? null,
    feedbackType: null,
  };
}

export function providerComplaint(
  recipient: string | null,
  messageId: string | null,
  feedbackType: string | null,
): Verdict {
  return {
    kind: 'complaint',
    reason: null,
    hard: false,
    recipient: addressIn(recipient),
    originalMessageId: messageId,
    status: null,
    diagnostic: null,
    feedbackType: feedbackType ?? 'abuse',
  };
}

export function providerOther(
  kind: 'delivered' | 'auto-reply' | 'other',
  recipient: string | null,
  messageId: string | null,
): Verdict {
  return {
    kind,
    reason: null,
    hard: false,
    recipient: addressIn(recipient),
    originalMessageId: messageId,
    status: null,
    diagnostic: null,
    feedbackType: null,
  };
}
