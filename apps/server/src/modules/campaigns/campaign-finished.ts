import type { DbOrTx } from '../../db/client.ts';
import { notifyUser } from '../notifications/index.ts';
import { recordWebhookEvent } from '../webhooks/index.ts';
import { refreshCampaignProgress, type FinishedCampaign } from './campaign-send.repo.ts';

/**
 * Moves a campaign's progress (see refreshCampaignProgress) and, when that sent its last message,
 * tells its owner in the bell and its webhooks (campaign.sent): once, by whichever worker finished it.
 */
export async function refreshProgressAndAnnounce(db: DbOrTx, campaignId: number, newlySent?: number): Promise<void> {
  // One transaction: a retry after a lost connection finds the campaign either unfinished or announced.
  await db.transaction(async (tx) => {
    const finished = await refreshCampaignProgress(tx, campaignId, newlySent);
    if (finished) await announce(tx, finished);
  });
}

async function announce(db: DbOrTx, finished: FinishedCampaign): Promise<void> {
  const people = `${finished.totalSent.toLocaleString('en-US')} ${finished.totalSent === 1 ? 'recipient' : 'recipients'}`;
  await notifyUser(db, finished.userId, {
    title: `“${finished.name}” was sent`,
    body: `It went to ${people}. Opens, clicks and bounces come in on its report.`,
    link: `/campaigns/${finished.campaignId}/report`,
  });
  await recordWebhookEvent(db, finished.userId, 'campaign.sent', {
    campaignId: finished.campaignId,
    name: finished.name,
    totalSent: finished.totalSent,
  });
}
