import { DEFAULT_BOUNCE_SETTINGS, type BounceSettings, type BounceVerdictResponse } from '@sendwell/contract/bounces';
import type { Config } from '../../config.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { withoutMboxSeparator } from '../../lib/mbox.ts';
import { endSequenceEnrolmentsOf, suppress } from '../delivery/index.ts';
import { notifyUser } from '../notifications/index.ts';
import { classify, type Verdict } from './classify.ts';
import { parseHeaders, splitHead } from './mime-lite.ts';
import * as repo from './bounces.repo.ts';
import { sendOfVerpAddress, type VerpLedger } from './verp.ts';
import { recordWebhookEvent } from '../webhooks/index.ts';

export { isBounceAddress } from './verp.ts';

/** A campaign whose complaints pass this share of its sent mail pauses itself. */
const COMPLAINT_PAUSE_RATE = 0.003;
/** A campaign whose hard bounces pass this share of its first HARD_BOUNCE_WINDOW messages pauses itself. */
const HARD_BOUNCE_PAUSE_RATE = 0.05;
const HARD_BOUNCE_WINDOW = 1000;
/**
 * Until this many messages are out, the hard-bounce share is taken of this many: 2 bounces in the
 * first 10 messages say little about a list, 6 in the first 100 do.
 */
const HARD_BOUNCE_MIN_BASE = 100;
/** Soft bounces of one address within the window (softBounceWindowDays) that suppress it, unless the account says otherwise. */
export const SOFT_BOUNCE_LIMIT = DEFAULT_BOUNCE_SETTINGS.softBounceLimit;

/** The account's bounce settings: what it saved, else the defaults. */
export async function bounceSettingsOf(db: Db, userId: string): Promise<BounceSettings> {
  const row = await repo.findBounceSettings(db, userId);
  if (!row) return DEFAULT_BOUNCE_SETTINGS;
  return {
    suppressHardBounces: row.suppressHardBounces,
    softBounceLimit: row.softBounceLimit,
    softBounceWindowDays: row.softBounceWindowDays,
    unsubscribeOnComplaint: row.unsubscribeOnComplaint,
  };
}

export async function saveBounceSettings(db: Db, userId: string, settings: BounceSettings): Promise<BounceSettings> {
  await repo.saveBounceSettings(db, userId, settings);
  return bounceSettingsOf(db, userId);
}

export interface BounceMessage {
  /** The message as it arrived (raw RFC 5322 bytes). */
  raw: Buffer;
  /** The SMTP envelope recipient (RCPT TO) it arrived for: a VERP return path names its send row. */
  envelopeTo?: string | null;
  /** The account it arrived for (the inbound webhook's token): matching by Message-ID is within it only. */
  accountId?: string | null;
}

/**
 * Reads a message that came back to us and acts on it, by the account's settings (defaults shown):
 * - a hard bounce (the address itself is bad) marks the send bounced and suppresses the address at once;
 * - a soft bounce is recorded, and the address's 3rd within 30 days suppresses it;
 * - a complaint suppresses the address, unsubscribes the contact, and can pause the campaign;
 * - an auto-reply or a delivery report is recorded only.
 * It is tied to the send row its VERP return path names (the MAC checked; a forged or unknown token
 * is ignored), else, for a known account, to that account's message with the quoted Message-ID. A
 * message tied to no send row of the account changes nothing and answers `matched: false`: the answer
 * tells no account about another's mail.
 */
export async function handleBounceMessage(
  ctx: { db: Db; config: Config },
  received: BounceMessage,
): Promise<BounceVerdictResponse> {
  const message = { ...received, raw: withoutMboxSeparator(received.raw) };
  const verdict = classify(message.raw);
  const send = await matchSend(ctx, message, verdict);
  const answer = (matched: boolean, recipient = verdict.recipient): BounceVerdictResponse => ({
    kind: verdict.kind,
    reason: verdict.kind === 'bounce' ? verdict.reason : null,
    hard: verdict.hard,
    recipient,
    matched,
  });
  if (verdict.kind === 'other' || !send) return answer(false);
  await record(ctx.db, send, verdict);
  return answer(true, verdict.recipient ?? send.email);
}

const campaignMail = (send: repo.SendRow): repo.BouncedMail => ({
  ledger: 'campaign',
  id: send.id,
  userId: send.userId,
  email: send.email,
  contactId: send.contactId,
  campaignId: send.campaignId,
  sequenceId: null,
});

/** The campaign or sequence send a message is about (see handleBounceMessage), or null. */
async function matchSend(
  ctx: { db: Db; config: Config },
  message: BounceMessage,
  verdict: Verdict,
): Promise<repo.BouncedMail | null> {
  const named = verpSend(ctx.config.sessionSecret, message);
  if (named !== null) {
    const send =
      named.ledger === 'sequence'
        ? await repo.findSequenceSendById(ctx.db, named.sendId)
        : await repo.findSendById(ctx.db, named.sendId).then((row) => row && campaignMail(row));
    if (send && (!message.accountId || send.userId === message.accountId)) return send;
    return null;
  }
  if (!message.accountId || !verdict.originalMessageId) return null;
  const campaignSend = await repo.findSendByMessageId(ctx.db, message.accountId, verdict.originalMessageId);
  if (campaignSend) return campaignMail(campaignSend);
  return (await repo.findSequenceSendByMessageId(ctx.db, message.accountId, verdict.originalMessageId)) ?? null;
}

/**
 * The send row a VERP return path names (campaign or sequence ledger): the envelope recipient's,
 * else (a report forwarded by a provider or a mailbox, whose envelope is gone) the address the
 * report itself was sent to, which a bounce addresses to the return path. Only a token whose MAC checks counts.
 */
function verpSend(secret: string, message: BounceMessage): { ledger: VerpLedger; sendId: number } | null {
  const fromEnvelope = sendOfVerpAddress(secret, message.envelopeTo);
  if (fromEnvelope !== null || message.envelopeTo) return fromEnvelope;
  const headers = parseHeaders(splitHead(message.raw.subarray(0, 64 * 1024).toString('latin1')).head);
  for (const name of ['delivered-to', 'x-original-to', 'envelope-to', 'to']) {
    for (const candidate of (headers.get(name) ?? '').split(',')) {
      const address = /<([^<>]+)>/.exec(candidate)?.[1] ?? candidate;
      const send = sendOfVerpAddress(secret, address);
      if (send !== null) return send;
    }
  }
  return null;
}

/** The event detail of a bounce: its reason, status and the receiver's words (≤ 500 characters). */
function bounceDetail(verdict: Verdict): string {
  const words = [verdict.status, verdict.diagnostic].filter(Boolean).join(' ');
  return `${verdict.reason ?? 'undetermined'}${words ? `: ${words}` : ''}`.replaceAll('\u0000', '').slice(0, 500);
}

/**
 * Acts on a verdict about one of our sends (a bounce message's or a provider event's), by the
 * account's settings; the one place bounce actions happen. A bounce or complaint already recorded
 * for the send is not counted again.
 */
export async function applyVerdict(db: Db, send: repo.SendRow, verdict: Verdict): Promise<void> {
  await record(db, campaignMail(send), verdict);
}

/** Whose an event about this send is: a campaign send's carries its campaign, a sequence send's its sequence. */
const eventOwner = (send: repo.BouncedMail) =>
  send.ledger === 'campaign'
    ? { userId: send.userId, campaignId: send.campaignId, sendId: send.id, contactId: send.contactId }
    : { userId: send.userId, sequenceId: send.sequenceId, sequenceSendId: send.id, contactId: send.contactId };

/**
 * A hard rejection in the SMTP conversation, for campaign and sequence mail alike (the sender has
 * marked the send row bounced under its claim): a bounce event, and the address suppressed, which
 * ends its sequence enrolments.
 */
export async function recordHardRejection(
  db: DbOrTx,
  send: repo.BouncedMail,
  error: string,
  reason: string | null,
): Promise<void> {
  await repo.insertEmailEvent(db, { ...eventOwner(send), type: 'bounce', detail: error, reason });
  await recordWebhookEvent(db, send.userId, 'email.bounced', {
    ...eventOwner(send),
    email: send.email,
    hard: true,
    reason,
    detail: error,
  });
  await suppress(db, send.userId, send.email, 'bounce', {
    detail: `${reason ?? 'undetermined'}: ${error}`,
    campaignId: send.campaignId,
  });
  if (send.ledger === 'campaign' && send.campaignId !== null)
    await pauseOnHardBounceSpike(db, send.userId, send.campaignId);
}

/** A sequence send's events carry its sequence and send row (no campaign); suppressing an address ends its sequence enrolments (see suppress). */
async function record(db: Db, send: repo.BouncedMail, verdict: Verdict): Promise<void> {
  const settings = await bounceSettingsOf(db, send.userId);
  const base = eventOwner(send);
  switch (verdict.kind) {
    case 'bounce': {
      const detail = bounceDetail(verdict);
      if (await repo.hasSendEvent(db, send, 'bounce', !verdict.hard)) return;
      if (verdict.hard) {
        await db.transaction(async (tx) => {
          await repo.markSendBounced(tx, send, detail);
          // The address is bad: its sequence enrolments end even when the account keeps it unsuppressed.
          if (settings.suppressHardBounces)
            await suppress(tx, send.userId, send.email, 'bounce', { detail, campaignId: send.campaignId });
          else await endSequenceEnrolmentsOf(tx, send.userId, send.email, 'bounce');
          await repo.insertEmailEvent(tx, { ...base, type: 'bounce', detail, reason: verdict.reason });
          await recordWebhookEvent(tx, send.userId, 'email.bounced', {
            ...base,
            email: send.email,
            hard: true,
            reason: verdict.reason,
            detail,
          });
        });
        if (send.ledger === 'campaign' && send.campaignId !== null)
          await pauseOnHardBounceSpike(db, send.userId, send.campaignId);
        return;
      }
      // Soft: counted (the 'soft:' detail keeps it out of reputation's hard-bounce figures).
      await db.transaction(async (tx) => {
        await repo.insertEmailEvent(tx, {
          ...base,
          type: 'bounce',
          detail: `soft: ${detail}`.slice(0, 500),
          reason: verdict.reason,
        });
        await recordWebhookEvent(tx, send.userId, 'email.bounced', {
          ...base,
          email: send.email,
          hard: false,
          reason: verdict.reason,
          detail,
        });
        if (settings.softBounceLimit === 0) return;
        const since = new Date(Date.now() - settings.softBounceWindowDays * 24 * 3600 * 1000);
        const softBounces = await repo.softBouncesSince(tx, send.userId, send.email, since);
        if (softBounces >= settings.softBounceLimit)
          await suppress(tx, send.userId, send.email, 'bounce', {
            detail: `${softBounces} soft bounces within ${settings.softBounceWindowDays} days; last: ${detail}`,
            campaignId: send.campaignId,
          });
      });
      return;
    }
    case 'complaint':
      if (await repo.hasSendEvent(db, send, 'complaint')) return;
      await db.transaction(async (tx) => {
        await suppress(tx, send.userId, send.email, 'complaint', {
          detail: verdict.feedbackType ?? 'abuse',
          campaignId: send.campaignId,
        });
        await repo.insertEmailEvent(tx, { ...base, type: 'complaint', detail: verdict.feedbackType ?? 'abuse' });
        await recordWebhookEvent(tx, send.userId, 'email.complained', {
          ...base,
          email: send.email,
          feedbackType: verdict.feedbackType ?? 'abuse',
        });
        if (send.contactId !== null && settings.unsubscribeOnComplaint)
          await repo.deactivateContact(tx, send.userId, send.contactId);
      });
      if (send.campaignId !== null) await pauseOnComplaintSpike(db, send.userId, send.campaignId);
      return;
    case 'auto-reply':
      await repo.insertEmailEvent(db, { ...base, type: 'auto-reply', detail: null });
      return;
    case 'delivered':
      await repo.insertEmailEvent(db, {
        ...base,
        type: 'delivered',
        detail: verdict.diagnostic?.slice(0, 500) ?? null,
      });
      return;
    case 'other':
      return;
  }
}

/**
 * The bounce-rate guard: a sending campaign whose hard bounces pass 5% of its first 1,000 messages
 * pauses itself and its owner is told. A list that bounces that much was not collected by consent
 * or has gone stale, and the mailbox providers judge the sender by it. (Pausing happens here, where
 * bounces are recorded: the campaigns module uses this one, so it cannot be asked through its face.)
 */
async function pauseOnHardBounceSpike(db: DbOrTx, userId: string, campaignId: number): Promise<void> {
  const { sent, hardBounced } = await repo.earlyHardBounces(db, campaignId, HARD_BOUNCE_WINDOW);
  if (hardBounced / Math.max(sent, HARD_BOUNCE_MIN_BASE) <= HARD_BOUNCE_PAUSE_RATE) return;
  const campaign = await repo.pauseSendingCampaign(db, userId, campaignId);
  if (campaign) {
    await notifyUser(db, campaign.userId, {
      title: `Campaign “${campaign.name}” paused`,
      body: `${hardBounced} of its first ${sent.toLocaleString('en')} messages hard-bounced (${((100 * hardBounced) / sent).toFixed(1)}%; the limit is ${HARD_BOUNCE_PAUSE_RATE * 100}% of the first ${HARD_BOUNCE_WINDOW.toLocaleString('en')}). Remove the addresses that no longer exist before resuming.`,
      link: '/campaigns',
    });
  }
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
