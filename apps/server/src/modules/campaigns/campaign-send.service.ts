import { campaignStartJobSchema, emptyJobSchema } from '@sendwell/contract/jobs';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { uncoveredParts } from '../../lib/id-ranges.ts';
import { defineJob, liveJobs, stableJobId } from '../../lib/queue.ts';
import { claimsStaleAfterMs } from '../delivery/index.ts';
import { requireConfirmedAccount, userById, type UserRow } from '../auth/index.ts';
import { checkSender, confirmedAddressesOf } from '../sender-addresses/index.ts';
import { assertCanSend, warnEmailUsageOnce, emailsSentThisMonth } from '../billing/index.ts';
import { notifyUser } from '../notifications/index.ts';
import { refreshAutoSegmentsIn } from '../segments/index.ts';
import { batchExpirySeconds, sendBatchJob } from './campaign-batch.ts';
import * as ledger from './campaign-send.repo.ts';
import { refreshProgressAndAnnounce } from './campaign-finished.ts';
import { CAMPAIGN_NOT_FOUND, compileCampaign } from './campaigns.service.ts';
import { findCampaign, lockCampaign, type CampaignRow } from './campaigns.repo.ts';
import { renderForRecipient } from '../rendering/index.ts';

/** Recipients per batch job: large enough to amortise job overhead, small enough to retry cheaply. */
const SEND_BATCH_SIZE = 1000;
/** Test mails an account may send in an hour. */
export const TEST_SENDS_PER_HOUR = 20;
const HOUR_MS = 60 * 60 * 1000;
const POSTAL_ADDRESS_REQUIRED =
  'Add your postal address before sending: the law requires it in every campaign footer. Set it on your Profile page (avatar menu → Profile).';

/**
 * Starts sending a draft or scheduled campaign: resolves the recipients once into the send ledger
 * (UNIQUE per campaign and contact), stores its links, moves it to 'sending' and queues one job per
 * batch of recipients. Checks first that the account's own address is confirmed and its From
 * address proven (403, see checkSender), the postal address (422) and the plan's monthly limit (403).
 */
export async function startCampaignSend(ctx: AppContext, userId: string, campaignId: number): Promise<CampaignRow> {
  const user = await userById(ctx.db, userId);
  const found = user && (await findCampaign(ctx.db, userId, campaignId));
  if (!user || !found) throw new AppError('not_found', CAMPAIGN_NOT_FOUND);
  requireConfirmedAccount(user);
  await checkSender(ctx.db, user, found.fromEmail, 'send');
  if (!user.postalAddress.trim()) throw new AppError('unprocessable', POSTAL_ADDRESS_REQUIRED);

  const started = await ctx.db.transaction(async (tx) => {
    // The account row first: sends of one account are counted against its plan one at a time.
    await ledger.lockAccount(tx, userId);
    const account = (await userById(tx, userId)) ?? user;
    const campaign = await lockCampaign(tx, userId, campaignId);
    if (!campaign) throw new AppError('not_found', CAMPAIGN_NOT_FOUND);
    if (campaign.status !== 'draft' && campaign.status !== 'scheduled') {
      throw new AppError('conflict', `This campaign is ${campaign.status} and cannot be sent again`);
    }
    // Auto-updating segments are brought up to date before the audience is fixed.
    await refreshAutoSegmentsIn(tx, userId, campaign.segmentIds);
    // Counted before this campaign's own rows join the ledger (the account row is locked meanwhile).
    const sentBefore = await emailsSentThisMonth(tx, userId);
    const recipients = await ledger.insertLedger(tx, campaign);
    if (recipients === 0) {
      throw new AppError(
        'bad_request',
        'This campaign has no recipients: choose at least one list or segment with active contacts.',
      );
    }
    assertCanSend(
      ctx.config,
      account,
      recipients,
      sentBefore,
      (left) =>
        `This campaign has ${recipients.toLocaleString('en-US')} recipients but your plan has ${left} emails left this month.`,
    );
    await ledger.insertLinks(tx, campaign.id, compileCampaign(campaign, user, ctx.config.publicUrl).links);
    const row = await ledger.setStatus(tx, campaign.id, {
      status: 'sending',
      totalRecipients: recipients,
      scheduledAt: null,
    });
    await warnEmailUsageOnce(tx, ctx.config, account, { before: sentBefore, after: sentBefore + recipients });
    return { row: row ?? campaign, range: await ledger.ledgerRange(tx, campaign.id) };
  });
  if (started.range) await queueBatches(ctx, campaignId, started.range.min, started.range.max);
  return started.row;
}

/** One job per id range of the ledger; a job that dies is retried and skips rows already sent. */
async function queueBatches(ctx: AppContext, campaignId: number, minId: number, maxId: number): Promise<void> {
  const items = [];
  for (let from = minId; from <= maxId; from += SEND_BATCH_SIZE) {
    items.push({
      data: { campaignId, fromId: from, toId: Math.min(maxId, from + SEND_BATCH_SIZE - 1) },
      options: { expireInSeconds: batchExpirySeconds(ctx) },
    });
  }
  await sendBatchJob.enqueueMany(ctx.queue, items);
}

/** Queues the start of a scheduled campaign at its time. */
export async function scheduleCampaignStart(ctx: AppContext, campaignId: number, at: Date): Promise<void> {
  await startScheduledJob.enqueue(
    ctx.queue,
    { campaignId },
    { startAfter: at, singletonKey: `campaign-${campaignId}-${at.getTime()}` },
  );
}

/** Starts a scheduled campaign when its job fires (idempotent: only if it is still scheduled and due). */
export async function startScheduledCampaign(ctx: AppContext, campaignId: number): Promise<void> {
  const campaign = await ledger.findCampaignById(ctx.db, campaignId);
  if (!campaign || campaign.status !== 'scheduled' || !campaign.scheduledAt) return;
  // Fired early (this process's clock is behind the database's): wait for the time again rather
  // than leave the campaign scheduled forever. No singleton key: this job is still active and would
  // block its own successor.
  if (campaign.scheduledAt.getTime() > Date.now() + 1000) {
    await startScheduledJob.enqueue(ctx.queue, { campaignId }, { startAfter: campaign.scheduledAt });
    return;
  }
  try {
    await startCampaignSend(ctx, campaign.userId, campaignId);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // It cannot start (no recipients left, no postal address, over the plan): rather than stay
    // 'scheduled' forever, it goes back to a draft and its owner is told why.
    await ledger.setStatus(ctx.db, campaignId, { status: 'draft', scheduledAt: null });
    await notifyUser(ctx.db, campaign.userId, {
      title: `“${campaign.name}” was not sent`,
      body: `It was scheduled, but could not start: ${error.message} It is a draft again.`,
      link: '/campaigns',
    });
  }
}

/**
 * Sends the rendered campaign, marked as a test, to the given addresses (nothing is tracked). Only
 * from a confirmed account and a proven From address (403), only to the account's own confirmed
 * addresses or its contacts (400 naming the address); each one counts against the plan's monthly
 * emails (403 when they would exceed it), and at most TEST_SENDS_PER_HOUR go in an hour (429). The limits are
 * counted and the mails recorded with the account's row locked; a mail that does not go is taken back.
 */
export async function sendTestEmails(
  ctx: AppContext,
  user: UserRow,
  campaignId: number,
  requested: string[],
): Promise<number> {
  const campaign = await findCampaign(ctx.db, user.id, campaignId);
  if (!campaign) throw new AppError('not_found', CAMPAIGN_NOT_FOUND);
  requireConfirmedAccount(user);
  await checkSender(ctx.db, user, campaign.fromEmail, 'send');
  const emails = [...new Set(requested.map((email) => email.trim().toLowerCase()))];
  const own = new Set(await confirmedAddressesOf(ctx.db, user));
  const contacts = await ledger.contactEmailsAmong(ctx.db, user.id, emails);
  const stranger = emails.find((email) => !own.has(email) && !contacts.has(email));
  if (stranger) {
    throw new AppError(
      'bad_request',
      `${stranger} is not one of your confirmed addresses or contacts. Send tests to your own confirmed addresses, or to people on your contact lists.`,
    );
  }
  const recorded = await ctx.db.transaction(async (tx) => {
    await ledger.lockAccount(tx, user.id);
    assertCanSend(
      ctx.config,
      (await userById(tx, user.id)) ?? user,
      emails.length,
      await emailsSentThisMonth(tx, user.id),
      (left) => `Test emails count against your plan, which has ${left} emails left this month.`,
    );
    const now = Date.now();
    const lastHour = await ledger.testSendsSince(tx, user.id, new Date(now - HOUR_MS));
    if (lastHour.count + emails.length > TEST_SENDS_PER_HOUR) {
      const minutes = Math.max(1, Math.ceil(((lastHour.oldest?.getTime() ?? now) + HOUR_MS - now) / 60000));
      throw new AppError(
        'rate_limited',
        `You can send ${TEST_SENDS_PER_HOUR} test emails an hour and have ${Math.max(0, TEST_SENDS_PER_HOUR - lastHour.count)} left. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      );
    }
    return ledger.insertTestSends(tx, user.id, campaign.id, emails);
  });

  const compiled = compileCampaign(campaign, user, ctx.config.publicUrl);
  let sent = 0;
  try {
    for (const email of emails) {
      const { subject, html, text } = renderForRecipient(
        compiled,
        { firstName: user.firstName, lastName: user.lastName, email, company: user.company || null },
        {
          click: (i) => compiled.links[i] ?? '#',
          openPixel: null,
          unsubscribe: `${ctx.config.publicUrl}/u/test`,
          preferences: `${ctx.config.publicUrl}/u/test`,
        },
      );
      let result;
      try {
        result = await ctx.mailer.sendTransactional({
          userId: user.id,
          campaignId: campaign.id,
          from: { name: campaign.fromName, address: campaign.fromEmail },
          to: email,
          replyTo: campaign.replyTo,
          subject,
          html,
          text,
          isTest: true,
        });
      } catch (error) {
        throw new AppError(
          'bad_request',
          `The mail server did not accept the test for ${email}: ${(error as Error).message}`,
        );
      }
      if (result.status === 'suppressed') {
        throw new AppError(
          'bad_request',
          `${email} is on your suppression list (unsubscribed, bounced or complained), so no test was sent to it.`,
        );
      }
      sent += 1;
    }
  } finally {
    await ledger.deleteTestSends(ctx.db, recorded.slice(sent));
  }
  return sent;
}

/** What each control does, the statuses it applies to, and the 409's words for any other status. */
const CONTROLS = {
  pause: { from: ['sending'], to: 'paused', only: 'only a sending campaign can be paused' },
  resume: { from: ['paused'], to: 'sending', only: 'only a paused campaign can be resumed' },
  cancel: {
    from: ['scheduled', 'sending', 'paused'],
    to: 'canceled',
    only: 'only a scheduled, sending or paused campaign can be canceled',
  },
} as const;

const STATUS_WORDS: Record<string, string> = {
  draft: 'a draft',
  scheduled: 'scheduled',
  sending: 'sending',
  sent: 'already sent',
  paused: 'paused',
  canceled: 'canceled',
  failed: 'failed',
};

async function changeStatus(
  ctx: AppContext,
  userId: string,
  campaignId: number,
  control: keyof typeof CONTROLS,
): Promise<CampaignRow> {
  const { from, to, only } = CONTROLS[control];
  return ctx.db.transaction(async (tx) => {
    const campaign = await lockCampaign(tx, userId, campaignId);
    if (!campaign) throw new AppError('not_found', CAMPAIGN_NOT_FOUND);
    if (!(from as readonly string[]).includes(campaign.status)) {
      const now = STATUS_WORDS[campaign.status] ?? campaign.status;
      throw new AppError('conflict', `This campaign is ${now}: ${only}.`);
    }
    // A warming hold's time means nothing once the owner paused or canceled it: a resume sends at
    // once, and the engine sets a new hold if the domain's daily limit is still reached.
    if (to !== 'sending' && campaign.pausedUntil) await ledger.setPausedUntil(tx, campaignId, null);
    const row = await ledger.setStatus(tx, campaignId, { status: to });
    if (to === 'canceled') await ledger.cancelQueued(tx, campaignId);
    return row ?? campaign;
  });
}

/**
 * Stops a sending campaign: batches see it within a second (the engine's pause watcher) and put
 * the rows they claimed but did not send back in the queue; nothing queued is lost.
 */
export function pauseCampaign(ctx: AppContext, userId: string, campaignId: number): Promise<CampaignRow> {
  return changeStatus(ctx, userId, campaignId, 'pause');
}

/** Continues a paused campaign with the recipients still queued (rows already sent stay sent). */
export async function resumeCampaign(ctx: AppContext, userId: string, campaignId: number): Promise<CampaignRow> {
  const row = await changeStatus(ctx, userId, campaignId, 'resume');
  if ((await queueUncoveredSends(ctx, campaignId)) === 0) await refreshProgressAndAnnounce(ctx.db, campaignId);
  return row;
}

/**
 * Cancels a scheduled, sending or paused campaign: recipients not yet sent are marked canceled (a
 * scheduled one's start job finds it no longer scheduled and does nothing).
 */
export function cancelCampaign(ctx: AppContext, userId: string, campaignId: number): Promise<CampaignRow> {
  return changeStatus(ctx, userId, campaignId, 'cancel');
}

/**
 * Picks up sends left half done: in every campaign still 'sending', claims older than half the
 * batch timeout go back to the queue (their worker died or lost the database), a campaign whose
 * every recipient is done but whose last progress report was lost is finished, and queued rows that
 * no live batch job covers get one. Runs every minute and when a worker starts. It never queues a
 * second job for rows a waiting, retrying or running job covers: duplicate jobs for one range
 * were what stalled sends after lost connections (delivery/DESIGN.md).
 */
export async function recoverCampaignSends(ctx: AppContext): Promise<number> {
  await ledger.requeueStale(ctx.db, new Date(Date.now() - claimsStaleAfterMs(ctx.config)));
  for (const campaignId of await ledger.drainedCampaignIds(ctx.db))
    await refreshProgressAndAnnounce(ctx.db, campaignId);
  return queueUncoveredSends(ctx);
}

/**
 * Queues a batch job for each range of queued rows (of one campaign, or all) that no live batch job
 * covers. Two sweeps at once in one minute give their jobs the same ids, so only one is stored.
 */
async function queueUncoveredSends(ctx: AppContext, campaignId?: number): Promise<number> {
  const live = await liveJobs(ctx.queue, sendBatchJob);
  const minute = Math.floor(Date.now() / 60_000);
  const items = [];
  for (const range of await ledger.pendingSends(ctx.db, SEND_BATCH_SIZE, campaignId)) {
    const covering = live.filter((job) => job.campaignId === range.campaignId);
    for (const part of uncoveredParts(range, covering)) {
      const data = { campaignId: range.campaignId, ...part };
      items.push({
        data,
        options: {
          id: stableJobId(`${sendBatchJob.name}:${data.campaignId}:${data.fromId}:${data.toId}:${minute}`),
          expireInSeconds: batchExpirySeconds(ctx),
        },
      });
    }
  }
  await sendBatchJob.enqueueMany(ctx.queue, items);
  return items.length;
}

/** A scheduled campaign's start, at its time. */
export const startScheduledJob = defineJob({
  name: 'campaign.start-scheduled',
  payload: campaignStartJobSchema,
  handler: (ctx: AppContext, { campaignId }) => startScheduledCampaign(ctx, campaignId),
});

/** Every minute: sends a dead worker left half done are picked up again. */
export const recoverSendsJob = defineJob({
  name: 'campaign.recover-sends',
  payload: emptyJobSchema,
  worker: { cron: '* * * * *' },
  handler: async (ctx: AppContext) => void (await recoverCampaignSends(ctx)),
});
