import { createHash } from 'node:crypto';
import { campaignSendBatchJobSchema } from '@sendwell/contract/jobs';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../lib/queue.ts';
import { buildRawMessage, listIdOf, newMessageId } from '../delivery/index.ts';
import { userById, type UserRow } from '../auth/index.ts';
import { sendFeed, type Feed } from '../sending/index.ts';
import { compileCampaign, senderFooter } from './campaigns.service.ts';
import type { CampaignRow } from './campaigns.repo.ts';
import { renderForRecipient, trackedLinks, type CompiledEmail } from '../rendering/index.ts';
import * as ledger from './campaign-send.repo.ts';
import { refreshProgressAndAnnounce } from './campaign-finished.ts';

/** Compiled emails by content (subject, blocks, HTML, footer, public URL), the most recent few per process. */
const COMPILED_CACHE_SIZE = 32;
const compiledCache = new Map<string, CompiledEmail>();

/**
 * A campaign's compiled email, compiled once per content per process: keyed on what goes into it,
 * so a progress update does not miss it and an edit cannot hit a stale one; the oldest entry goes
 * when the cache is full.
 */
export function compiledFor(campaign: CampaignRow, user: UserRow, publicUrl: string): CompiledEmail {
  const key = createHash('sha256')
    .update(
      JSON.stringify([
        campaign.subject,
        campaign.preheader,
        campaign.blocks,
        campaign.contentHtml,
        campaign.contentText,
        senderFooter(user),
        publicUrl,
      ]),
    )
    .digest('base64url');
  let compiled = compiledCache.get(key);
  if (compiled) {
    // Most recently used last.
    compiledCache.delete(key);
  } else {
    compiled = compileCampaign(campaign, user, publicUrl);
    if (compiledCache.size >= COMPILED_CACHE_SIZE) compiledCache.delete(compiledCache.keys().next().value as string);
  }
  compiledCache.set(key, compiled);
  return compiled;
}

export const compiledCacheSize = () => compiledCache.size;

/**
 * One batch of a campaign as a feed of the sending policy (modules/sending): its rows are the
 * batch's range of the send ledger, each composed from the campaign's compiled email with the
 * recipient's tracked links; progress moves the campaign's live count, and once the domain's warming
 * cap is reached the rest resumes when it allows (the campaign shows it paused until then). The
 * audience was counted against the plan when the campaign started. Null when the campaign is gone
 * or no longer sending.
 */
async function campaignFeed(ctx: AppContext, batch: ledger.Batch): Promise<Feed<ledger.LedgerRow> | null> {
  const campaign = await ledger.findCampaignById(ctx.db, batch.campaignId);
  if (!campaign || campaign.status !== 'sending') return null;
  const user = await userById(ctx.db, campaign.userId);
  if (!user) return null;
  const { db, config } = ctx;
  const compiled = compiledFor(campaign, user, config.publicUrl);
  // Conditional blocks for segments: the batch's members of each, read once.
  const segmentIds = [
    ...new Set(compiled.conditions.flatMap((condition) => (condition.kind === 'segment' ? [condition.segmentId] : []))),
  ];
  const audience = { segmentMembers: await ledger.segmentMembersInBatch(db, batch, segmentIds) };
  const linkIds = await ledger.linkIds(db, campaign.id, compiled.links);
  // The same on every message of the campaign: made once, not per recipient.
  const listId = { name: campaign.name, id: listIdOf('campaign', campaign.id, user.id, config.publicUrl) };
  const sends = ledger.campaignSendClaim(db, campaign.id);
  let pausedUntil = campaign.pausedUntil;

  return {
    ledger: 'campaign',
    sends,
    recordsTo: ledger.campaignLedger(db),
    user,
    fromEmail: campaign.fromEmail,
    signing: 'from-domain',
    campaignId: campaign.id,
    sequenceId: null,
    plan: 'at-start',
    warming: 'per-chunk',
    requeueStale: (ownClaimToken, staleBefore) => ledger.requeueStale(db, staleBefore, { ...batch, ownClaimToken }),
    take: (tx, limit) => ledger.claimRows(tx, batch, sends.token, limit),
    readBack: (claimToken) => ledger.claimedRows(db, batch, claimToken),
    async compose(row, { unsubscribeMailto }) {
      const links = trackedLinks(config.publicUrl, config.sessionSecret, row.id, linkIds);
      const { subject, html, text } = renderForRecipient(compiled, row, links, audience);
      const messageId = newMessageId(campaign.fromEmail);
      const raw = buildRawMessage({
        from: { name: campaign.fromName, address: campaign.fromEmail },
        to: row.email,
        replyTo: campaign.replyTo,
        subject,
        html,
        text,
        messageId,
        unsubscribeUrl: links.unsubscribe,
        unsubscribeMailto,
        isTest: false,
        listId,
      });
      return { messageId, from: campaign.fromEmail, to: row.email, subject, raw };
    },
    isActive: async () => (await ledger.campaignStatus(db, campaign.id)) === 'sending',
    progress: (newlySent) => refreshProgressAndAnnounce(db, campaign.id, newlySent),
    async deferRest(resumesAt) {
      if ((await ledger.queuedInRange(db, batch)) === 0) return;
      await ledger.setPausedUntil(db, campaign.id, resumesAt);
      await sendBatchJob.enqueue(ctx.queue, batch, {
        startAfter: resumesAt,
        retryDelay: 30,
        expireInSeconds: batchExpirySeconds(ctx),
      });
    },
    async resumed() {
      if (!pausedUntil) return;
      await ledger.setPausedUntil(db, campaign.id, null);
      pausedUntil = null;
    },
  };
}

/**
 * One range of a campaign's send ledger. Three at once per process, so the others' messages fill
 * the SMTP connections while one claims, renders, starts or ends (two left them idle 15% of the
 * time, three 7%); a quick poll so a Send starts going out at once. A job that fails (the database
 * went away, the server deferred some rows) is retried 5 s later, without a growing delay, so a send
 * resumes within seconds of the database answering again; it skips rows already sent. One whose
 * worker died expires after half the batch timeout (given at enqueue) and runs again. After its
 * last retry the minute sweep queues a fresh job for what is left.
 */
export const sendBatchJob = defineJob({
  name: 'campaign.send-batch',
  payload: campaignSendBatchJobSchema,
  worker: { concurrency: 3, pollingIntervalSeconds: 0.5 },
  send: { retryLimit: 10, retryDelay: 5 },
  handler: (ctx: AppContext, batch) => runSendBatch(ctx, batch),
});

/**
 * A batch job's worker keeps its job alive while it runs (the runner's heartbeat), so the job
 * expires only once its worker died: after half the batch timeout, when its claims go stale too.
 */
export function batchExpirySeconds(ctx: AppContext): number {
  return Math.max(2, Math.ceil(ctx.config.sendBatchTimeoutSeconds / 2));
}

/**
 * Sends one batch of a campaign's ledger through the delivery engine. Rows the server deferred (4xx,
 * network) are back in the queue, and the job fails so that it is retried a little later.
 */
async function runSendBatch(ctx: AppContext, batch: ledger.Batch): Promise<void> {
  const feed = await campaignFeed(ctx, batch);
  if (!feed) return;
  let result;
  try {
    result = await sendFeed(ctx, feed);
  } finally {
    // Canceled while this batch held rows: cancelCampaign marked what was queued then, and the rows
    // this batch put back since (claimed, not sent) are canceled too rather than left queued.
    if ((await ledger.campaignStatus(ctx.db, batch.campaignId).catch(() => null)) === 'canceled')
      await ledger.cancelQueued(ctx.db, batch.campaignId);
  }
  if (result.retryLater > 0) {
    throw new Error(`${result.retryLater} recipients were deferred by the mail server; the batch will be retried`);
  }
}
