import { and, count, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { campaigns, campaignSends, contacts, emailEvents, notifications, suppressions } from '../../db/schema/index.ts';
import type { Feedback } from './feedback.ts';

/** A campaign whose complaints pass this share of its sent mail pauses itself. */
export const COMPLAINT_PAUSE_RATE = 0.003;

export type FeedbackOutcome = 'bounce' | 'soft-bounce' | 'complaint' | 'unmatched' | 'ignored';

/**
 * Records a bounce or complaint against the message it concerns (matched by Message-ID): a hard
 * bounce or a complaint suppresses the address; a complaint also unsubscribes the contact and can
 * pause the campaign.
 */
export async function recordFeedback(db: Db, feedback: Feedback): Promise<FeedbackOutcome> {
  if (feedback.kind === 'other') return 'ignored';
  if (!feedback.originalMessageId) return 'unmatched';
  const [send] = await db
    .select()
    .from(campaignSends)
    .where(eq(campaignSends.messageId, feedback.originalMessageId))
    .limit(1);
  if (!send) return 'unmatched';
  const base = { userId: send.userId, campaignId: send.campaignId, sendId: send.id, contactId: send.contactId };

  if (feedback.kind === 'bounce') {
    const detail = [feedback.status, feedback.diagnostic].filter(Boolean).join(' ').slice(0, 500) || null;
    if (!feedback.hard) {
      await db.insert(emailEvents).values({ ...base, type: 'bounce', detail: `soft: ${detail ?? ''}`.trim() });
      return 'soft-bounce';
    }
    await db.transaction(async (tx) => {
      await tx.update(campaignSends).set({ status: 'bounced', error: detail }).where(eq(campaignSends.id, send.id));
      await tx
        .insert(suppressions)
        .values({ userId: send.userId, email: send.email, reason: 'bounce' })
        .onConflictDoNothing();
      await tx.insert(emailEvents).values({ ...base, type: 'bounce', detail });
    });
    return 'bounce';
  }

  await db.transaction(async (tx) => {
    await tx
      .insert(suppressions)
      .values({ userId: send.userId, email: send.email, reason: 'complaint' })
      .onConflictDoNothing()
      .catch(() => undefined);
    await tx.insert(emailEvents).values({ ...base, type: 'complaint', detail: feedback.feedbackType });
    if (send.contactId !== null)
      await tx.update(contacts).set({ isActive: false, updatedAt: new Date() }).where(eq(contacts.id, send.contactId));
  });
  await pauseOnComplaintSpike(db, send.campaignId);
  return 'complaint';
}

async function pauseOnComplaintSpike(db: Db, campaignId: number): Promise<void> {
  const [complaints] = await db
    .select({ n: count() })
    .from(emailEvents)
    .where(and(eq(emailEvents.campaignId, campaignId), eq(emailEvents.type, 'complaint')));
  const [sent] = await db
    .select({ n: count() })
    .from(campaignSends)
    .where(and(eq(campaignSends.campaignId, campaignId), inArray(campaignSends.status, ['sent', 'bounced'])));
  const rate = (complaints?.n ?? 0) / Math.max(1, sent?.n ?? 0);
  if (rate <= COMPLAINT_PAUSE_RATE) return;
  const paused = await db
    .update(campaigns)
    .set({ status: 'paused', updatedAt: new Date() })
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.status, 'sending')))
    .returning();
  const campaign = paused[0];
  if (campaign) {
    await db.insert(notifications).values({
      userId: campaign.userId,
      title: `Campaign “${campaign.name}” paused`,
      body: `Spam complaints reached ${(rate * 100).toFixed(2)}% of sent mail (the limit is ${COMPLAINT_PAUSE_RATE * 100}%). Check the audience before resuming.`,
      link: '/campaigns',
    });
  }
}
