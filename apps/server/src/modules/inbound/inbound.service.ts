import type { FeedbackOutcome } from '@sendwell/contract/inbound';
import type { Db } from '../../db/client.ts';
import { notifyUser } from '../notifications/notifications.service.ts';
import type { Feedback } from './feedback.ts';
import * as repo from './inbound.repo.ts';

export type { FeedbackOutcome };

/** A campaign whose complaints pass this share of its sent mail pauses itself. */
export const COMPLAINT_PAUSE_RATE = 0.003;

/**
 * Records a bounce or complaint against the message it concerns (matched by Message-ID): a hard
 * bounce or a complaint suppresses the address; a complaint also unsubscribes the contact and can
 * pause the campaign.
 */
export async function recordFeedback(db: Db, feedback: Feedback): Promise<FeedbackOutcome> {
  if (feedback.kind === 'other') return 'ignored';
  if (!feedback.originalMessageId) return 'unmatched';
  const send = await repo.findSendByMessageId(db, feedback.originalMessageId);
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
    if (send.contactId !== null) await repo.deactivateContact(tx, send.contactId);
  });
  await pauseOnComplaintSpike(db, send.campaignId);
  return 'complaint';
}

async function pauseOnComplaintSpike(db: Db, campaignId: number): Promise<void> {
  const { complaints, sent } = await repo.complaintsAndSent(db, campaignId);
  const rate = complaints / Math.max(1, sent);
  if (rate <= COMPLAINT_PAUSE_RATE) return;
  const campaign = await repo.pauseSendingCampaign(db, campaignId);
  if (campaign) {
    await notifyUser(db, campaign.userId, {
      title: `Campaign “${campaign.name}” paused`,
      body: `Spam complaints reached ${(rate * 100).toFixed(2)}% of sent mail (the limit is ${COMPLAINT_PAUSE_RATE * 100}%). Check the audience before resuming.`,
      link: '/campaigns',
    });
  }
}
