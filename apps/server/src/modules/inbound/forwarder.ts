import { randomUUID } from 'node:crypto';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { dmarc } from 'mailauth/lib/dmarc/index.js';
import type { AppContext } from '../../context.ts';
import { dnsResolver } from '../../lib/dns.ts';
import { TransportError } from '../../lib/mail-transport.ts';
import { newToken } from '../../lib/tokens.ts';
import * as aliases from '../aliases/aliases.inbound.ts';
import { userById } from '../auth/auth.service.ts';
import { monthlyLimitReachedReason, planLimitsOf, sendingBlockedReason } from '../billing/billing.service.ts';
import { warnEmailUsageOnce } from '../billing/usage-warnings.ts';
import { lockAccountAndCountSent } from '../campaigns/campaign-send.service.ts';
import { LOOP_HEADER } from '../aliases/routing.ts';
import { rewriteHeaders, sendRawMessage, splitMessage } from '../delivery/forward.ts';
import { buildRawMessage, newMessageId } from '../delivery/message.ts';
import { signingKeyForMail } from '../domains/domains.sending.ts';
import { srsForward, srsReverse } from './srs.ts';

/** A claim on a forward older than this belongs to a worker that died: another may take it over. */
export const FORWARD_CLAIM_STALE_MS = 5 * 60 * 1000;
/** Attempts of one forward before it counts as failed (4xx and network errors are retried). */
export const FORWARD_MAX_ATTEMPTS = 5;
/** Bounces relayed back through one SRS address at most. */
export const SRS_BOUNCES_PER_ADDRESS = 3;

const mailDate = (date: Date) => date.toUTCString().replace(/GMT$/, '+0000');

/** A resolver for mailauth: TXT through the app's DNS servers, anything else "not found". */
function mailauthResolver(ctx: AppContext) {
  const dns = dnsResolver(ctx.config.dnsServers);
  return async (name: string, type: string) => {
    if (type === 'TXT') return dns.resolveTxtRaw(name);
    const error = new Error(`no ${type} look-ups here`) as Error & { code: string };
    error.code = 'ENOTFOUND';
    throw error;
  };
}

/** The From header's address, from the raw header block. */
function fromHeader(raw: Buffer): { text: string; address: string } | null {
  const field = splitMessage(raw).headers.find((h) => h.name === 'from');
  if (!field) return null;
  const text = field.text.slice(field.text.indexOf(':') + 1).trim();
  const address = /<([^>]+)>/.exec(text)?.[1] ?? /[^\s<>"]+@[^\s<>"]+/.exec(text)?.[0] ?? '';
  return { text: text.replace(/\r?\n[ \t]*/g, ' '), address: address.toLowerCase() };
}

/**
 * Whether forwarding must rewrite the From: the sender's domain publishes DMARC p=quarantine or
 * p=reject and no DKIM signature aligned with it verifies (SPF cannot pass for us, so without an
 * aligned signature the forward would fail DMARC at the destination).
 */
export async function needsFromRewrite(ctx: AppContext, raw: Buffer, fromAddress: string): Promise<boolean> {
  if (!fromAddress.includes('@')) return false;
  const resolver = mailauthResolver(ctx);
  // First the domain's policy alone (cached a few minutes per domain): most senders publish none
  // that forwarding can break, and then no signature needs checking.
  if (!(await strictDmarcPolicy(ctx, fromAddress, resolver))) return false;
  let dkimDomains: { domain: string }[];
  try {
    const verified = await dkimVerify(raw, { resolver } as never);
    dkimDomains = (verified.results ?? [])
      .filter((r: { status: { result: string } }) => r.status.result === 'pass')
      .map((r: { signingDomain: string }) => ({ domain: r.signingDomain }));
  } catch {
    dkimDomains = [];
  }
  const result = await dmarc({ headerFrom: fromAddress, spfDomains: [], dkimDomains, resolver } as never).catch(
    () => false as const,
  );
  if (!result) return false;
  const status = (result as { status?: { result?: string } }).status?.result;
  return status === 'fail' && ['quarantine', 'reject'].includes(String(result.policy).toLowerCase());
}

const POLICY_CACHE_MS = 5 * 60 * 1000;
const policyCache = new Map<string, { strict: boolean; until: number }>();

/** Whether the From domain's DMARC policy is quarantine or reject (what the domain publishes, cached). */
async function strictDmarcPolicy(
  ctx: AppContext,
  fromAddress: string,
  resolver: ReturnType<typeof mailauthResolver>,
): Promise<boolean> {
  const domain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1).toLowerCase();
  const key = `${ctx.config.dnsServers.join(',')} ${domain}`;
  const cached = policyCache.get(key);
  if (cached && cached.until > Date.now()) return cached.strict;
  const result = await dmarc({ headerFrom: fromAddress, spfDomains: [], dkimDomains: [], resolver } as never).catch(
    () => false as const,
  );
  const strict = Boolean(result) && ['quarantine', 'reject'].includes(String(result && result.policy).toLowerCase());
  if (policyCache.size > 10_000) policyCache.clear();
  policyCache.set(key, { strict, until: Date.now() + POLICY_CACHE_MS });
  return strict;
}

/**
 * Sends one forward: the original with our trace headers, SRS envelope (`returnPath`, recorded by
 * the caller; '' for a null sender), DKIM of the alias's domain. X-Original-To is the envelope
 * recipient the mail came for (a catch-all's forwards name the real address, not `*@domain`).
 */
async function deliverForward(
  ctx: AppContext,
  alias: aliases.AliasWithDomain,
  forward: aliases.ForwardRow,
  stored: { raw: Buffer; mailFrom: string; via: string; messageId: string },
  recipient: string,
  returnPath: string,
  isTest: boolean,
  key: Awaited<ReturnType<typeof signingKeyForMail>>,
): Promise<void> {
  const aliasAddress = aliases.addressOf(alias);
  const now = new Date();
  const host = new URL(ctx.config.publicUrl).hostname;
  const add = [
    `Received: by ${host} (Sendwell forwarding) with ${stored.via.toUpperCase()} id ${forward.id}\r\n\tfor <${forward.toEmail}>; ${mailDate(now)}`,
    `${LOOP_HEADER}: ${aliasAddress}`,
    `X-Original-To: ${recipient.replace(/[\r\n]/g, '')}`,
    `X-Forwarded-To: ${forward.toEmail}`,
    `Resent-From: <${aliasAddress}>`,
    `Resent-To: <${forward.toEmail}>`,
    `Resent-Date: ${mailDate(now)}`,
    `Resent-Message-ID: <${randomUUID()}@${alias.domainName}>`,
  ];
  const drop: string[] = [];
  const from = fromHeader(stored.raw);
  if (from && (await needsFromRewrite(ctx, stored.raw, from.address))) {
    const name = /^"?([^"<]*)"?\s*</.exec(from.text)?.[1]?.trim() || from.address;
    add.push(`From: "${name.replace(/["\\]/g, '')} via ${aliasAddress}" <${aliasAddress}>`);
    add.push(`Reply-To: ${from.text}`);
    drop.push('from', 'reply-to');
  }
  const raw = rewriteHeaders(stored.raw, add, drop);
  const subjectField = splitMessage(stored.raw).headers.find((h) => h.name === 'subject');
  await sendRawMessage(ctx.transport, {
    userId: alias.userId,
    messageId: stored.messageId,
    returnPath,
    from: aliasAddress,
    to: forward.toEmail,
    subject: subjectField ? subjectField.text.slice(subjectField.text.indexOf(':') + 1).trim() : '',
    raw,
    key,
    isTest,
  });
}

/** Sends an alias's auto-reply (RFC 3834): to the envelope sender, Auto-Submitted: auto-replied, null return path. */
async function deliverAutoReply(
  ctx: AppContext,
  alias: aliases.AliasWithDomain,
  forward: aliases.ForwardRow,
  message: aliases.AliasMessageRow,
  stored: { messageId: string },
  text: string,
  isTest: boolean,
  key: Awaited<ReturnType<typeof signingKeyForMail>>,
): Promise<void> {
  const aliasAddress = aliases.addressOf(alias);
  const messageId = newMessageId(aliasAddress);
  const subject = /^re:/i.test(message.subject) ? message.subject : `Re: ${message.subject}`;
  const html = `<p>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '<br>')}</p>`;
  const raw = buildRawMessage({
    from: { name: null, address: aliasAddress },
    to: forward.toEmail,
    replyTo: null,
    subject,
    html,
    text,
    messageId,
    unsubscribeUrl: null,
    isTest: false,
    extraHeaders: [
      'Auto-Submitted: auto-replied',
      'X-Auto-Response-Suppress: All',
      `In-Reply-To: ${stored.messageId}`,
      `References: ${stored.messageId}`,
      `${LOOP_HEADER}: ${aliasAddress}`,
    ],
  });
  await sendRawMessage(ctx.transport, {
    userId: alias.userId,
    messageId,
    returnPath: '',
    from: aliasAddress,
    to: forward.toEmail,
    subject,
    raw,
    key,
    isTest,
  });
}

/**
 * Works one row of the forwarding ledger: claims it (a row sent, or held by a live worker, is left
 * alone), sends it, records the result, and settles the message's outcome when its forwards are
 * done. A transient failure leaves the row pending and throws, so pg-boss retries the job.
 */
export async function sendForward(ctx: AppContext, forwardId: number, now = new Date()): Promise<void> {
  await sendForwards(ctx, [forwardId], now);
}

/**
 * What the rows of one batch read, in one query each: their messages with their aliases, the raw
 * messages, the signing keys; and the SRS return paths of its forwards, recorded in one statement
 * before the first forward goes.
 */
type BatchReads = {
  contexts: Awaited<ReturnType<typeof aliases.forwardContexts>>;
  stored: Awaited<ReturnType<typeof aliases.findInboundRaws>>;
  key(userId: string, domainName: string): ReturnType<typeof signingKeyForMail>;
  /** The forward's SRS return path ('' for a null sender), once all of the batch's are recorded. */
  returnPath(forwardId: number): Promise<string>;
};

async function batchReads(ctx: AppContext, claimed: aliases.ForwardRow[]): Promise<BatchReads> {
  const contexts = await aliases.forwardContexts(
    ctx.db,
    claimed.map((row) => row.id),
  );
  const stored = await aliases.findInboundRaws(ctx.db, [
    ...new Set([...contexts.values()].map((context) => context.message.inboundMessageId)),
  ]);
  const keys = new Map<string, ReturnType<typeof signingKeyForMail>>();
  const key = (userId: string, domainName: string) => {
    let found = keys.get(`${userId} ${domainName}`);
    if (!found)
      keys.set(`${userId} ${domainName}`, (found = signingKeyForMail(ctx.db, ctx.config, userId, domainName)));
    return found;
  };
  const now = new Date();
  const returnPaths = new Map<number, string>();
  const toRecord = new Map<string, { address: string; userId: string; originalSender: string }>();
  for (const row of claimed) {
    const context = contexts.get(row.id);
    const mailFrom = context ? stored.get(context.message.inboundMessageId)?.mailFrom : undefined;
    if (!context || !mailFrom || row.kind !== 'forward') continue;
    const returnPath = srsForward(ctx.config.sessionSecret, mailFrom, context.alias.domainName, now);
    returnPaths.set(row.id, returnPath);
    const address = returnPath.toLowerCase();
    toRecord.set(address, { address, userId: context.alias.userId, originalSender: mailFrom });
  }
  let recorded: Promise<void> | undefined;
  const returnPath = async (forwardId: number) => {
    // Started by the first forward that needs it, so a failure fails each forward (retried) alike.
    // Sorted: two batches recording the same addresses take their index entries in one order.
    recorded ??= aliases.recordSrsAddresses(
      ctx.db,
      [...toRecord.values()].sort((a, b) => (a.address < b.address ? -1 : 1)),
    );
    await recorded;
    return returnPaths.get(forwardId) ?? '';
  };
  return { contexts, stored, key, returnPath };
}

/**
 * Works many rows of the forwarding ledger (one pg-boss batch): claims them together (one
 * transaction, the account locked and counted once), sends each through the SMTP pool at once,
 * records the results, and settles each message's outcome once its forwards are done. A row sent,
 * or held by a live worker, is left alone, so a batch retried after a transient failure sends only
 * what did not go: such a failure leaves its row pending and, once every row is done, throws so
 * pg-boss retries the job.
 */
export async function sendForwards(ctx: AppContext, forwardIds: number[], now = new Date()): Promise<void> {
  const claimToken = newToken(16);
  const claimed = await claimWithinAllowance(ctx, [...new Set(forwardIds)], claimToken, now);
  if (claimed.length === 0) return;
  const reads = await batchReads(ctx, claimed);
  const outcomes = await Promise.allSettled(claimed.map((row) => sendClaimed(ctx, row, claimToken, reads)));
  // What went is recorded at once (one statement); failures were recorded one by one.
  await aliases.finishForwardsSent(
    ctx.db,
    claimed.filter((_, i) => outcomes[i]?.status === 'fulfilled' && outcomes[i].value === 'sent').map((row) => row.id),
    claimToken,
    new Date(),
  );
  await aliases.settleMessageOutcomes(ctx.db, [...new Set(claimed.map((row) => row.aliasMessageId))]);
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Sends one claimed row; answers 'sent' (the caller records it) or 'failed' (recorded). Throws
 * after recording a transient failure (retried).
 */
async function sendClaimed(
  ctx: AppContext,
  claimed: aliases.ForwardRow,
  claimToken: string,
  reads: BatchReads,
): Promise<'sent' | 'failed'> {
  const finish = (status: 'failed' | 'pending', error: string | null) =>
    aliases.finishForward(ctx.db, claimed.id, claimToken, { status, error, at: new Date() });
  const context = reads.contexts.get(claimed.id);
  const alias = context?.alias;
  const stored = context ? reads.stored.get(context.message.inboundMessageId) : undefined;
  if (!context || !alias || !stored) {
    await finish('failed', 'the alias or the message is gone');
    return 'failed';
  }
  try {
    const key = await reads.key(alias.userId, alias.domainName);
    if (claimed.kind === 'auto_reply') {
      const rule = context.message.ruleId;
      const text = rule !== null ? await autoReplyTextOfRule(ctx, alias, rule) : alias.autoReplyMessage;
      await deliverAutoReply(ctx, alias, claimed, context.message, stored, text ?? '', context.message.isTest, key);
    } else {
      const returnPath = await reads.returnPath(claimed.id);
      await deliverForward(
        ctx,
        alias,
        claimed,
        stored,
        context.message.recipient,
        returnPath,
        context.message.isTest,
        key,
      );
    }
    return 'sent';
  } catch (error) {
    const transient = !(error instanceof TransportError) || error.kind === 'retry';
    if (transient && claimed.attempts < FORWARD_MAX_ATTEMPTS) {
      await finish('pending', (error as Error).message.slice(0, 500));
      throw error;
    }
    await finish('failed', (error as Error).message.slice(0, 500));
    return 'failed';
  }
}

/**
 * Claims the forwards the account may send now: a forward counts against the plan's monthly emails
 * like a campaign's (the account row locked while counting, as for campaign sends, so two forwards
 * at the limit cannot both pass; one lock and one count for all of an account's rows in the batch).
 * When sending is paused (billing) or the month's emails are used up, the rest is parked as
 * 'deferred', not lost: the recovery sweep offers it again every few minutes and it goes once the
 * allowance renews or the plan grows. Crossing 80%/100% notifies the owner (once a month).
 * Auto-replies are not counted.
 */
async function claimWithinAllowance(
  ctx: AppContext,
  forwardIds: number[],
  claimToken: string,
  now: Date,
): Promise<aliases.ForwardRow[]> {
  const staleBefore = new Date(now.getTime() - FORWARD_CLAIM_STALE_MS);
  return ctx.db.transaction(async (tx) => {
    const owners = await aliases.forwardOwners(tx, forwardIds);
    const uncounted = owners.filter((owner) => owner.kind !== 'forward').map((owner) => owner.id);
    const claimed = await aliases.claimForwards(tx, uncounted, claimToken, now, staleBefore);
    const byAccount = new Map<string, number[]>();
    for (const owner of owners) {
      if (owner.kind !== 'forward') continue;
      byAccount.set(owner.userId, [...(byAccount.get(owner.userId) ?? []), owner.id]);
    }
    // Accounts locked in one order, so two batches of the same accounts cannot deadlock.
    for (const userId of [...byAccount.keys()].sort()) {
      const ids = byAccount.get(userId) as number[];
      const sentBefore = await lockAccountAndCountSent(tx, userId);
      const account = await userById(tx, userId);
      if (!account) {
        claimed.push(...(await aliases.claimForwards(tx, ids, claimToken, now, staleBefore)));
        continue;
      }
      const paused = sendingBlockedReason(ctx.config, account, now);
      const limit = planLimitsOf(ctx.config, account).emailsPerMonth;
      const room = paused ? 0 : limit === null ? ids.length : Math.max(0, limit - sentBefore);
      const taken = await aliases.claimForwards(tx, ids, claimToken, now, staleBefore, room);
      claimed.push(...taken);
      if (taken.length < ids.length) {
        const reason =
          paused ??
          monthlyLimitReachedReason(ctx.config, account, sentBefore + taken.length, now) ??
          'Sending is paused';
        const takenIds = new Set(taken.map((row) => row.id));
        await aliases.deferForwards(
          tx,
          ids.filter((id) => !takenIds.has(id)),
          reason,
          now,
          staleBefore,
        );
      }
      if (taken.length > 0) {
        await warnEmailUsageOnce(
          tx,
          ctx.config,
          account,
          { before: sentBefore, after: sentBefore + taken.length },
          now,
        );
      }
    }
    return claimed;
  });
}

async function autoReplyTextOfRule(
  ctx: AppContext,
  alias: aliases.AliasWithDomain,
  ruleId: number,
): Promise<string | null> {
  const rule = await aliases.ruleOfAlias(ctx.db, alias.id, ruleId);
  return rule?.actions.autoReplyMessage ?? alias.autoReplyMessage;
}

/**
 * Relays a bounce that arrived at one of our SRS addresses back to the original sender: only for an
 * address whose hash verifies, that is not too old, that we actually used, and at most
 * SRS_BOUNCES_PER_ADDRESS times. Answers what it did.
 */
export async function relaySrsBounce(
  ctx: AppContext,
  inboundMessageId: number,
  recipient: string,
  now = new Date(),
): Promise<'relayed' | 'forged' | 'expired' | 'unknown' | 'limit'> {
  const reversed = srsReverse(ctx.config.sessionSecret, recipient, now);
  if (reversed.status === 'expired') return 'expired';
  if (reversed.status !== 'valid') return 'forged';
  const used = await aliases.findSrsAddress(ctx.db, recipient.toLowerCase());
  if (!used) return 'unknown';
  if (!(await aliases.takeSrsBounceTurn(ctx.db, used.address, SRS_BOUNCES_PER_ADDRESS))) return 'limit';
  const stored = await aliases.findInboundRaw(ctx.db, inboundMessageId);
  if (!stored) return 'unknown';
  const domain = recipient.slice(recipient.lastIndexOf('@') + 1);
  const raw = rewriteHeaders(stored.raw, [
    `Received: by ${new URL(ctx.config.publicUrl).hostname} (Sendwell SRS) for <${reversed.address}>; ${mailDate(now)}`,
  ]);
  await sendRawMessage(ctx.transport, {
    userId: used.userId,
    messageId: stored.messageId,
    // A bounce goes out with a null sender, so it can never bounce back.
    returnPath: '',
    from: `mailer-daemon@${domain}`,
    to: reversed.address,
    subject: 'Delivery Status Notification',
    raw,
    key: null,
    isTest: false,
  });
  return 'relayed';
}
