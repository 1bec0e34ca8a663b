import { createHash } from 'node:crypto';
import { campaignSendBatchJobSchema } from '@sendwell/contract/jobs';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../lib/queue.ts';
import {
  claimsStaleAfterMs,
  sendBatch,
  buildRawMessage,
  listIdOf,
  newMessageId,
  signDkim,
  returnPathFor,
  type Allowance,
  type BatchStore,
} from '../delivery/index.ts';
import { classifySmtpResponse, verpLocalPart, recordHardRejection } from '../bounces/index.ts';
import { userById, type UserRow } from '../auth/index.ts';
import {
  releaseDailySends,
  reserveDailySends,
  bounceHostFor,
  sendingDomainFor,
  signingKeyForMail,
} from '../domains/index.ts';
import { retryOnConnectionLoss } from '../../lib/db-errors.ts';
import { compileCampaign, senderFooter } from './campaigns.service.ts';
import type { CampaignRow } from './campaigns.repo.ts';
import { renderForRecipient, trackedLinks, type CompiledEmail } from '../rendering/index.ts';
import * as ledger from './campaign-send.repo.ts';

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
 * The send ledger of one batch of a campaign as the delivery engine sees it: claims, renders and
 * signs its rows, keeps within the domain's warming cap, and reports progress on the campaign.
 * Null when the campaign is gone or no longer sending. Calls that are safe to repeat are tried
 * again when the database connection drops (a claim whose answer was lost is read back), so a
 * dropped connection does not fail the whole batch.
 */
async function campaignBatchStore(ctx: AppContext, batch: ledger.Batch): Promise<BatchStore<ledger.LedgerRow> | null> {
  const campaign = await ledger.findCampaignById(ctx.db, batch.campaignId);
  if (!campaign || campaign.status !== 'sending') return null;
  const user = await userById(ctx.db, campaign.userId);
  if (!user) return null;
  const compiled = compiledFor(campaign, user, ctx.config.publicUrl);
  const linkIds = await ledger.linkIds(ctx.db, campaign.id, compiled.links);
  const fromDomain = campaign.fromEmail.split('@')[1] ?? '';
  const dkimKey = await signingKeyForMail(ctx.db, ctx.config, user.id, fromDomain);
  const sendingDomain = await sendingDomainFor(ctx.db, user.id, fromDomain);
  const bounceDomain = await bounceHostFor(ctx.db, ctx.config, user.id, dkimKey?.domainName ?? null);
  const returnPathOf = (sendId: number) =>
    returnPathFor({
      signingDomain: dkimKey?.domainName ?? null,
      installationDomain: ctx.config.mailFromDomain,
      verpLocalPart: verpLocalPart(ctx.config.sessionSecret, sendId),
      bounceDomain,
    });
  // The same on every message of the campaign: made once, not per recipient.
  const listId = { name: campaign.name, id: listIdOf('campaign', campaign.id, user.id, ctx.config.publicUrl) };
  const { db, config } = ctx;
  const sends = ledger.campaignSendClaim(db, campaign.id);
  const claimToken = sends.token;
  let pausedUntil = campaign.pausedUntil;

  return {
    claimToken,
    claim: (limit) =>
      sends.claim(
        async () => {
          await ledger.requeueStale(db, new Date(Date.now() - claimsStaleAfterMs(config)), {
            ...batch,
            ownClaimToken: claimToken,
          });
          return ledger.claimRows(db, batch, claimToken, limit);
        },
        (token) => ledger.claimedRows(db, batch, token),
      ),
    async compose(row) {
      const links = trackedLinks(config.publicUrl, config.sessionSecret, row.id, linkIds);
      const { subject, html, text } = renderForRecipient(compiled, row, links);
      const messageId = newMessageId(campaign.fromEmail);
      const unsigned = buildRawMessage({
        from: { name: campaign.fromName, address: campaign.fromEmail },
        to: row.email,
        replyTo: campaign.replyTo,
        subject,
        html,
        text,
        messageId,
        unsubscribeUrl: links.unsubscribe,
        isTest: false,
        listId,
      });
      return {
        userId: user.id,
        campaignId: campaign.id,
        messageId,
        returnPath: returnPathOf(row.id),
        from: campaign.fromEmail,
        to: row.email,
        subject,
        raw: dkimKey ? await signDkim(unsigned, dkimKey) : unsigned,
        isTest: false,
      };
    },
    async allowance(wanted): Promise<Allowance> {
      if (!sendingDomain) return { granted: wanted, resumesAt: null, giveBack: async () => undefined };
      // Repeating a reservation whose answer was lost reserves twice: the cap errs on the safe side.
      const reservation = await retryOnConnectionLoss(() => reserveDailySends(db, sendingDomain.id, wanted));
      return {
        granted: reservation.granted,
        resumesAt: reservation.resumesAt,
        giveBack: (count) =>
          count > 0 ? releaseDailySends(db, sendingDomain.id, count, reservation.day) : Promise.resolve(),
      };
    },
    async isActive() {
      return (await retryOnConnectionLoss(() => ledger.campaignStatus(db, campaign.id))) === 'sending';
    },
    requeue: (row, error) => sends.requeue(row.id, error),
    async fail(row, error) {
      // The rejection the relay gave in the SMTP conversation, read like a bounce report: only an
      // address-level failure (user or host unknown, moved, null MX) is hard and suppresses.
      const verdict = classifySmtpResponse(error, row.email);
      await sends.fail(row.id, error, verdict.hard);
      if (verdict.hard)
        await recordHardRejection(
          db,
          { ...row, ledger: 'campaign', userId: user.id, campaignId: campaign.id, sequenceId: null },
          error,
          verdict.reason,
        );
    },
    // Repeating an addition whose answer was lost over-counts until the end, when the exact count is taken.
    progress: (newlySent) => retryOnConnectionLoss(() => ledger.refreshCampaignProgress(db, campaign.id, newlySent)),
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
      pausedUntil = null;
      await retryOnConnectionLoss(() => ledger.setPausedUntil(db, campaign.id, null));
    },
    releaseClaims: () => sends.release(),
    renewClaims: () => sends.renew(),
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
  const store = await campaignBatchStore(ctx, batch);
  if (!store) return;
  const result = await sendBatch(
    { store, recorder: ctx.recorders.for(ledger.campaignLedger(ctx.db)), transport: ctx.transport },
    { concurrency: ctx.config.smtpMaxConnections, claimsStaleAfterMs: claimsStaleAfterMs(ctx.config) },
  );
  if (result.retryLater > 0) {
    throw new Error(`${result.retryLater} recipients were deferred by the mail server; the batch will be retried`);
  }
}
