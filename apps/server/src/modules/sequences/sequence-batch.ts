import type { FlowNode } from '@sendwell/contract/sequences';
import type { AppContext } from '../../context.ts';
import { retryOnConnectionLoss } from '../../lib/db-errors.ts';
import { signSequenceToken } from '../../lib/signed-token.ts';
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
import { recordHardRejection, classifySmtpResponse, verpLocalPart } from '../bounces/index.ts';
import { userById } from '../auth/index.ts';
import {
  monthlySendAllowance,
  sendingBlockedReason,
  warnEmailUsageOnce,
  lockAccountAndCountSent,
} from '../billing/index.ts';
import { releaseDailySends, reserveDailySends, sendingDomainFor, signingKeyForMail } from '../domains/index.ts';
import { compileCampaign } from '../campaigns/index.ts';
import { renderForRecipient, untrackedLinks, type CompiledEmail } from '../rendering/index.ts';
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
 * The queued sends of one sequence as the delivery engine sees them: claims them (SKIP LOCKED),
 * renders each step's email with the campaign renderer (merge tags, footer), signs it with the
 * domain's DKIM key, keeps within the domain's warming cap and records results through the
 * sequence ledger. Null when the sequence is gone or not active. Sends of contacts who may no
 * longer be mailed end as 'suppressed' before any claim.
 *
 * One sequence token naming the send row is in every URL of the message, as a campaign send's
 * recipient token is: the open pixel, the clicks, and the unsubscribe and preferences links (the
 * footer's, and the List-Unsubscribe header with RFC 8058 one-click), all served by modules/tracking.
 * The return path is a VERP address naming the sequence send, so a later DSN is tied to it.
 */
export async function sequenceBatchStore(
  ctx: AppContext,
  sequenceId: number,
): Promise<BatchStore<ledger.SequenceSendRow> | null> {
  const { db, config } = ctx;
  const sequence = await ledger.sequenceById(db, sequenceId);
  if (!sequence || sequence.status !== 'active') return null;
  const user = await userById(db, sequence.userId);
  if (!user) return null;
  await ledger.suppressStopped(db, sequenceId);
  const fromEmail = sequence.fromEmail ?? user.email;
  const fromName = sequence.fromName ?? (`${user.firstName} ${user.lastName}`.trim() || fromEmail);
  const fromDomain = fromEmail.split('@')[1] ?? '';
  const dkimKey = await signingKeyForMail(db, config, user.id, fromDomain);
  const sendingDomain = await sendingDomainFor(db, user.id, fromDomain);
  const compiledByNode = new Map<string, CompiledEmail | null>();
  // The Outbox names the step a message came from: its label in the builder, else its subject.
  const stepNames = new Map<string, string>();
  const compiledFor = async (nodeId: string) => {
    if (!compiledByNode.has(nodeId)) {
      const node = await emailNode(ctx, sequence, nodeId);
      stepNames.set(nodeId, node?.data.label?.trim() || node?.data.subject?.trim() || nodeId);
      compiledByNode.set(
        nodeId,
        node
          ? compileCampaign(
              {
                subject: node.data.subject ?? '',
                blocks: node.data.blocks ?? null,
                contentHtml: node.data.content ?? '',
              },
              user,
              config.publicUrl,
            )
          : null,
      );
    }
    return compiledByNode.get(nodeId) ?? null;
  };
  // The same on every message of the sequence: made once, not per recipient.
  const listId = { name: sequence.name, id: listIdOf('sequence', sequenceId, user.id, config.publicUrl) };
  const sends = ledger.sequenceSendClaim(db, sequenceId);
  const claimToken = sends.token;
  const { maxEmailsPerContactPerDay } = await sequenceSettingsOf(db, user.id);
  // Warming: the claim reserves the domain's slots in its own transaction and stamps each on the row
  // it took, handing back at once what no row took, so a worker killed at any moment leaves no slot
  // without a row. A row not sent hands its slot back itself (requeued, failed, released, or
  // recovered after its worker died); a sent row keeps it. So the engine's allowance is only asked
  // for the count (it grants all), and its count-based give-back has nothing to do.
  const letGo = (ids: number[] | 'unsent') =>
    retryOnConnectionLoss(() =>
      db.transaction(async (tx) => giveBackSlots(tx, await ledger.releaseHeldSlots(tx, claimToken, ids))),
    );

  const store: BatchStore<ledger.SequenceSendRow> = {
    claimToken,
    async claim(limit) {
      const rows = await sends.claim(
        async () => {
          await requeueStaleSends(db, staleBefore(ctx), { sequenceId, ownClaimToken: claimToken });
          // The plan first, as for a campaign: with the account row locked, count this month's mail and
          // claim no more than the allowance left. Sending paused by billing or the month used up:
          // nothing is claimed and the sends stay queued, to leave once the plan allows (the minute
          // tick hands them over again), never dropped.
          return db.transaction(async (tx) => {
            const sentThisMonth = await lockAccountAndCountSent(tx, user.id);
            const account = (await userById(tx, user.id)) ?? user;
            if (sendingBlockedReason(config, account) !== null) return [];
            const left = monthlySendAllowance(config, account, sentThisMonth);
            const allowed = left === null ? limit : Math.min(limit, left);
            if (allowed <= 0) return [];
            const reservation = sendingDomain ? await reserveDailySends(tx, sendingDomain.id, allowed) : null;
            const granted = reservation ? reservation.granted : allowed;
            if (granted <= 0) return [];
            const claimed = await ledger.claimRows(tx, {
              sequenceId,
              claimToken,
              limit: granted,
              maxPerContactPerDay: maxEmailsPerContactPerDay,
              warming: sendingDomain && reservation ? { domainId: sendingDomain.id, day: reservation.day } : null,
            });
            // Slots no row took (the frequency cap or an empty queue held rows back) go back in the same step.
            if (sendingDomain && reservation && claimed.length < granted)
              await releaseDailySends(tx, sendingDomain.id, granted - claimed.length, reservation.day);
            await warnEmailUsageOnce(tx, config, account, {
              before: sentThisMonth,
              after: sentThisMonth + claimed.length,
            });
            return claimed;
          });
        },
        (token) => ledger.claimedRows(db, sequenceId, token),
      );
      // A step gone from every version cannot be rendered: its send fails rather than stall the batch.
      const sendable: ledger.SequenceSendRow[] = [];
      const unsendable: number[] = [];
      for (const row of rows) {
        if (await compiledFor(row.nodeId)) sendable.push(row);
        else {
          await sends.fail(row.id, `The email step ${row.nodeId} no longer exists`, false);
          unsendable.push(row.id);
        }
      }
      if (unsendable.length > 0) await letGo(unsendable);
      return sendable;
    },
    async compose(row) {
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
      const unsigned = buildRawMessage({
        from: { name: fromName, address: fromEmail },
        to: row.email,
        replyTo: null,
        subject,
        html,
        text,
        messageId,
        unsubscribeUrl: unsubscribe,
        isTest: false,
        listId,
      });
      return {
        userId: user.id,
        campaignId: null,
        sequence: { id: sequenceId, step: stepNames.get(row.nodeId) ?? row.nodeId },
        messageId,
        // A VERP return path naming this sequence send (its own ledger letter): a DSN that comes back
        // later is tied to it by modules/bounces.
        returnPath: returnPathFor({
          signingDomain: dkimKey?.domainName ?? null,
          installationDomain: config.mailFromDomain,
          verpLocalPart: verpLocalPart(config.sessionSecret, row.id, 'sequence'),
          bounceDomain: config.bounceDomain,
        }),
        from: fromEmail,
        to: row.email,
        subject,
        raw: dkimKey ? await signDkim(unsigned, dkimKey) : unsigned,
        isTest: false,
      };
    },
    // The warming cap is kept by claim (see above): a capped claim takes nothing, and the minute tick
    // offers the queued sends again (sequences have nothing to show as deferred).
    allowance: async (wanted): Promise<Allowance> => ({
      granted: wanted,
      resumesAt: null,
      giveBack: async () => undefined,
    }),
    async isActive() {
      return (await retryOnConnectionLoss(() => ledger.sequenceStatus(db, sequenceId))) === 'active';
    },
    async requeue(row, error) {
      await letGo([row.id]);
      await sends.requeue(row.id, error);
    },
    async fail(row, error) {
      const verdict = classifySmtpResponse(error, row.email);
      await sends.fail(row.id, error, verdict.hard);
      await letGo([row.id]);
      if (verdict.hard)
        await recordHardRejection(
          db,
          { ...row, ledger: 'sequence', userId: user.id, campaignId: null, sequenceId },
          error,
          verdict.reason,
        );
    },
    // The counts are read from sequence_sends (the analytics): nothing to move while sending.
    progress: async () => undefined,
    // The minute tick hands queued sends to the engine again; the warming cap resumes them then.
    deferRest: async () => undefined,
    resumed: async () => undefined,
    async releaseClaims() {
      await letGo('unsent');
      await sends.release();
    },
    renewClaims: () => sends.renew(),
  };
  return store;
}

/** Sends what the sequence has queued now through the delivery engine. */
export async function sendSequenceEmails(ctx: AppContext, sequenceId: number): Promise<void> {
  const store = await sequenceBatchStore(ctx, sequenceId);
  if (!store) return;
  const result = await sendBatch(
    { store, recorder: ctx.recorders.for(ledger.sequenceLedger(ctx.db)), transport: ctx.transport },
    { concurrency: ctx.config.smtpMaxConnections, claimsStaleAfterMs: claimsStaleAfterMs(ctx.config) },
  );
  if (result.retryLater > 0) {
    throw new Error(`${result.retryLater} sequence emails were deferred by the mail server; the batch will be retried`);
  }
}

export const sequencesWithQueuedSends = (ctx: AppContext) => ledger.sequencesWithQueuedSends(ctx.db);
