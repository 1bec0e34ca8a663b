import type { FlowNode } from '@sendwell/contract/sequences';
import type { AppContext } from '../../context.ts';
import { retryOnConnectionLoss } from '../../lib/db-errors.ts';
import { signSequenceToken } from '../../lib/signed-token.ts';
import { claimsStaleAfterMs, buildRawMessage, listIdOf, newMessageId } from '../delivery/index.ts';
import { userById } from '../auth/index.ts';
import { releaseDailySends } from '../domains/index.ts';
import { compileCampaign } from '../campaigns/index.ts';
import { renderForRecipient, untrackedLinks, type CompiledEmail } from '../rendering/index.ts';
import { notifyUserAtMostEvery } from '../notifications/index.ts';
import { sendFeed, type Feed } from '../sending/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import * as ledger from './sequence-send.repo.ts';
import { sequenceSettingsOf } from './sequences.repo.ts';

/** Hands warming slots back to their domains' days (rows that held them will not be sent by their claim). */
async function giveBackSlots(tx: DbOrTx, slots: ledger.HeldSlots): Promise<void> {
  for (const slot of slots) await releaseDailySends(tx, slot.domainId, slot.count, slot.day);
}

/**
 * Puts sends whose claim went stale (older than `staleBefore`: their worker died, or stalled past
 * half the batch timeout) back in the queue, of one sequence or all, and hands back the warming
 * slots they held, in one transaction. Answers how many slots went back.
 */
async function requeueStaleSends(
  db: DbOrTx,
  staleBefore: Date,
  of: { sequenceId: number; ownClaimToken: string } | null,
): Promise<number> {
  return db.transaction(async (tx) => {
    const slots = await ledger.requeueStale(tx, staleBefore, of);
    await giveBackSlots(tx, slots);
    return slots.reduce((sum, slot) => sum + slot.count, 0);
  });
}

/** When a claim counts as stale: as for campaign sends, once its batch stopped renewing it for that long. */
const staleBefore = (ctx: AppContext) => new Date(Date.now() - claimsStaleAfterMs(ctx.config));

/**
 * Recovers sequence sends left 'sending' by a dead process, in every sequence (paused ones too):
 * back to the queue, their warming slots handed back. Runs when a worker starts and every minute
 * (sequences.tick), which then hands the queued sends to the engine again.
 */
export async function recoverSequenceSends(ctx: AppContext): Promise<void> {
  await retryOnConnectionLoss(() => requeueStaleSends(ctx.db, staleBefore(ctx), null));
}

/** The email node a send row names: in the published flow, else in the newest older version that has it. */
async function emailNode(ctx: AppContext, sequence: ledger.SequenceForSend, nodeId: string): Promise<FlowNode | null> {
  const inCurrent = sequence.flowData.nodes.find((node) => node.id === nodeId && node.type === 'email');
  if (inCurrent) return inCurrent;
  for (const flow of await ledger.versionFlows(ctx.db, sequence.id)) {
    const node = flow.nodes.find((n) => n.id === nodeId && n.type === 'email');
    if (node) return node;
  }
  return null;
}

/**
 * The queued sends of one sequence as a feed of the sending policy (modules/sending): its rows are
 * the sequence's queued sends, claimed under the frequency cap (no contact more than the account's
 * marketing emails a day), each composed from its step's email with the renderer (merge tags,
 * footer); each claim takes no more than the account's monthly allowance left, and stamps the
 * domain's warming slot on each row, handed back when the row leaves unsent. Null when the sequence
 * is gone or not active. Sends of contacts who may no longer be mailed end as 'suppressed' before
 * any claim.
 *
 * One sequence token naming the send row is in every URL of the message, as a campaign send's
 * recipient token is: the open pixel, the clicks, and the unsubscribe and preferences links (the
 * footer's, and the List-Unsubscribe header with RFC 8058 one-click), all served by modules/tracking.
 */
async function sequenceFeed(ctx: AppContext, sequenceId: number): Promise<Feed<ledger.SequenceSendRow> | null> {
  const { db, config } = ctx;
  const sequence = await ledger.sequenceById(db, sequenceId);
  if (!sequence || sequence.status !== 'active') return null;
  const user = await userById(db, sequence.userId);
  if (!user) return null;
  await ledger.suppressStopped(db, sequenceId);
  const fromEmail = sequence.fromEmail ?? user.email;
  const fromName = sequence.fromName ?? (`${user.firstName} ${user.lastName}`.trim() || fromEmail);
  // Promises, so messages composed side by side (the engine composes a chunk at once) compile a step once.
  const compiledByNode = new Map<string, Promise<CompiledEmail | null>>();
  // The Outbox names the step a message came from: its label in the builder, else its subject.
  const stepNames = new Map<string, string>();
  const compile = async (nodeId: string): Promise<CompiledEmail | null> => {
    const node = await emailNode(ctx, sequence, nodeId);
    stepNames.set(nodeId, node?.data.label?.trim() || node?.data.subject?.trim() || nodeId);
    return node
      ? compileCampaign(
          {
            subject: node.data.subject ?? '',
            blocks: node.data.blocks ?? null,
            contentHtml: node.data.content ?? '',
          },
          user,
          config.publicUrl,
        )
      : null;
  };
  const compiledFor = (nodeId: string): Promise<CompiledEmail | null> => {
    let compiled = compiledByNode.get(nodeId);
    if (!compiled) compiledByNode.set(nodeId, (compiled = compile(nodeId)));
    return compiled;
  };
  // The same on every message of the sequence: made once, not per recipient.
  const listId = { name: sequence.name, id: listIdOf('sequence', sequenceId, user.id, config.publicUrl) };
  const sends = ledger.sequenceSendClaim(db, sequenceId);
  const { maxEmailsPerContactPerDay } = await sequenceSettingsOf(db, user.id);

  return {
    ledger: 'sequence',
    sends,
    recordsTo: ledger.sequenceLedger(db),
    user,
    fromEmail,
    signing: 'from-domain',
    campaignId: null,
    sequenceId,
    // Sending paused by billing or the month used up: nothing is claimed and the sends stay queued,
    // to leave once the plan allows (the minute tick hands them over again), never dropped.
    plan: 'per-claim',
    // A capped claim takes nothing, and the minute tick offers the queued sends again (sequences
    // have nothing to show as deferred).
    warming: 'per-row',
    requeueStale: (ownClaimToken, staleBefore) =>
      requeueStaleSends(db, staleBefore, { sequenceId, ownClaimToken }).then(() => undefined),
    take: (tx, limit, warming) =>
      ledger.claimRows(tx, {
        sequenceId,
        claimToken: sends.token,
        limit,
        maxPerContactPerDay: maxEmailsPerContactPerDay,
        warming,
      }),
    readBack: (claimToken) => ledger.claimedRows(db, sequenceId, claimToken),
    // A step gone from every version cannot be rendered: its send fails rather than stall the batch.
    unsendable: async (row) =>
      (await compiledFor(row.nodeId)) ? null : `The email step ${row.nodeId} no longer exists`,
    async compose(row, { unsubscribeMailto }) {
      const compiled = await compiledFor(row.nodeId);
      if (!compiled) throw new Error(`Sequence ${sequenceId} has no email step ${row.nodeId}`);
      // Every URL carries one token naming this send: opens, clicks and unsubscribing (modules/tracking).
      const token = signSequenceToken(config.sessionSecret, row.id);
      const unsubscribe = `${config.publicUrl}/u/${token}`;
      const links = {
        ...untrackedLinks(compiled, unsubscribe, `${unsubscribe}?preferences=1`),
        click: (index: number) => `${config.publicUrl}/t/c/${token}/${index}`,
        openPixel: `${config.publicUrl}/t/o/${token}`,
      };
      const { subject, html, text } = renderForRecipient(compiled, row, links);
      const messageId = newMessageId(fromEmail);
      const raw = buildRawMessage({
        from: { name: fromName, address: fromEmail },
        to: row.email,
        replyTo: null,
        subject,
        html,
        text,
        messageId,
        unsubscribeUrl: unsubscribe,
        unsubscribeMailto,
        isTest: false,
        listId,
      });
      const step = stepNames.get(row.nodeId) ?? row.nodeId;
      return { messageId, from: fromEmail, to: row.email, subject, raw, sequence: { id: sequenceId, step } };
    },
    isActive: async () => (await ledger.sequenceStatus(db, sequenceId)) === 'active',
    // A sent row keeps its warming slot (a real send); one that leaves unsent hands it back.
    letGo: (ids) =>
      retryOnConnectionLoss(() =>
        db.transaction(async (tx) => giveBackSlots(tx, await ledger.releaseHeldSlots(tx, sends.token, ids))),
      ),
  };
}

/** How often at most the owner hears that a sequence's emails fail (the sends themselves fail at once). */
const SEND_FAILURE_NOTICE_MS = 24 * 60 * 60 * 1000;

/**
 * Tells the sequence's owner that emails of a batch could not be sent (bounces apart: those are the
 * contacts'), and why (the last failure), at most daily.
 */
async function notifySendsFailed(ctx: AppContext, sequenceId: number, claimToken: string): Promise<void> {
  const failures = await ledger.failuresOfClaim(ctx.db, claimToken);
  const sequence = failures.count > 0 ? await ledger.sequenceById(ctx.db, sequenceId) : undefined;
  if (!sequence) return;
  const emails = failures.count === 1 ? '1 email' : `${failures.count.toLocaleString('en-US')} emails`;
  await notifyUserAtMostEvery(ctx.db, sequence.userId, SEND_FAILURE_NOTICE_MS, {
    title: `Sequence “${sequence.name}”: emails could not be sent`,
    body: `${emails} failed${failures.lastError ? `; the last: ${failures.lastError}` : ''}.`,
    link: '/email-sequences',
  });
}

/** Sends what the sequence has queued now through the delivery engine. */
export async function sendSequenceEmails(ctx: AppContext, sequenceId: number): Promise<void> {
  const feed = await sequenceFeed(ctx, sequenceId);
  if (!feed) return;
  const result = await sendFeed(ctx, feed);
  if (result.failed > 0) await notifySendsFailed(ctx, sequenceId, feed.sends.token);
  if (result.retryLater > 0) {
    throw new Error(`${result.retryLater} sequence emails were deferred by the mail server; the batch will be retried`);
  }
}

export const sequencesWithQueuedSends = (ctx: AppContext) => ledger.sequencesWithQueuedSends(ctx.db);
