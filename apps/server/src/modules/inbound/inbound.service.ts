import { INBOUND_WEBHOOK_PATH } from '@sendwell/contract/domains';
import type { FeedbackOutcome, InboundAddress } from '@sendwell/contract/inbound';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { openSecret, sealSecret } from '../../lib/secret-box.ts';
import { newToken, sha256Hex } from '../../lib/tokens.ts';
import { notifyUser } from '../notifications/notifications.service.ts';
import type { Feedback } from './feedback.ts';
import * as repo from './inbound.repo.ts';

export type { FeedbackOutcome };

/** secret-box purpose of the sealed copies of inbound tokens. */
const TOKEN_PURPOSE = 'inbound-webhook-token';
/** What newToken() makes (base64url); anything else is no token of ours and is not looked up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,100}$/;

/**
 * The account an inbound webhook token belongs to, or null: the one place a presented token is
 * checked (the webhook's guard uses it; so can any other inbound route). Tokens are looked up by
 * their SHA-256, like session tokens: a 256-bit random value needs no constant-time comparison.
 */
export async function accountOfInboundToken(db: Db, token: string): Promise<string | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  return (await repo.findInboundTokenOwner(db, sha256Hex(token))) ?? null;
}

function addressFor(config: Config, token: string): InboundAddress {
  return { url: `${config.publicUrl}${INBOUND_WEBHOOK_PATH}?token=${token}`, token };
}

function sealedToken(config: Config, userId: string, token: string) {
  return { userId, tokenHash: sha256Hex(token), tokenSealed: sealSecret(config.sessionSecret, TOKEN_PURPOSE, token) };
}

/**
 * The account's inbound webhook address, its token made on first use. A token sealed under another
 * SESSION_SECRET cannot be shown again, so it is replaced (the old address stops working).
 */
export async function inboundAddressOf(db: Db, config: Config, userId: string): Promise<InboundAddress> {
  const stored = await repo.findInboundToken(db, userId);
  if (stored) {
    try {
      return addressFor(config, openSecret(config.sessionSecret, TOKEN_PURPOSE, stored.tokenSealed));
    } catch {
      return regenerateInboundAddress(db, config, userId);
    }
  }
  const token = newToken();
  // Two first requests at once: the one that stored its token first wins, and the other shows that one.
  if (await repo.insertInboundToken(db, sealedToken(config, userId, token))) return addressFor(config, token);
  return inboundAddressOf(db, config, userId);
}

/** Gives the account a new inbound token; the old address stops working at once. */
export async function regenerateInboundAddress(db: Db, config: Config, userId: string): Promise<InboundAddress> {
  const token = newToken();
  await repo.replaceInboundToken(db, sealedToken(config, userId, token));
  return addressFor(config, token);
}

/** A campaign whose complaints pass this share of its sent mail pauses itself. */
export const COMPLAINT_PAUSE_RATE = 0.003;

/**
 * Records a bounce or complaint against the account's message it concerns (matched by Message-ID):
 * a hard bounce or a complaint suppresses the address; a complaint also unsubscribes the contact
 * and can pause the campaign. A report about another account's message is 'unmatched', exactly as
 * one about a message nobody sent: the webhook's answer tells no account about another's mail.
 */
export async function recordFeedback(db: Db, userId: string, feedback: Feedback): Promise<FeedbackOutcome> {
  if (feedback.kind === 'other') return 'ignored';
  if (!feedback.originalMessageId) return 'unmatched';
  const send = await repo.findSendByMessageId(db, userId, feedback.originalMessageId);
  if (!send) return 'unmatched';
  const base = { userId: send.userId, campaignId: send.campaignId, sendId: send.id, contactId: send.contactId };

  if (feedback.kind === 'bounce') {
    const detail = [feedback.status, feedback.diagnostic].filter(Boolean).join(' ').slice(0, 500) || null;
    if (!feedback.hard) {
      await repo.insertEmailEvent(db, { ...base, type: 'bounce', detail: `soft: ${detail ?? ''}`.trim() });
      return 'soft-bounce';
    }
    await db.transaction(async (tx) => {
      await repo.markSendBounced(tx, send.id, detail);
      await repo.suppressAddress(tx, send.userId, send.email, 'bounce');
      await repo.insertEmailEvent(tx, { ...base, type: 'bounce', detail });
    });
    return 'bounce';
  }

  await db.transaction(async (tx) => {
    await repo.suppressAddress(tx, send.userId, send.email, 'complaint').catch(() => undefined);
    await repo.insertEmailEvent(tx, { ...base, type: 'complaint', detail: feedback.feedbackType });
    if (send.contactId !== null) await repo.deactivateContact(tx, send.userId, send.contactId);
  });
  await pauseOnComplaintSpike(db, send.userId, send.campaignId);
  return 'complaint';
}

async function pauseOnComplaintSpike(db: Db, userId: string, campaignId: number): Promise<void> {
  const { complaints, sent } = await repo.complaintsAndSent(db, campaignId);
  const rate = complaints / Math.max(1, sent);
  if (rate <= COMPLAINT_PAUSE_RATE) return;
  const campaign = await repo.pauseSendingCampaign(db, userId, campaignId);
  if (campaign) {
    await notifyUser(db, campaign.userId, {
      title: `Campaign “${campaign.name}” paused`,
      body: `Spam complaints reached ${(rate * 100).toFixed(2)}% of sent mail (the limit is ${COMPLAINT_PAUSE_RATE * 100}%). Check the audience before resuming.`,
      link: '/campaigns',
    });
  }
}
