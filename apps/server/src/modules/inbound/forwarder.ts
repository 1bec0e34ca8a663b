import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { perDnsServerList } from '../../lib/dns.ts';
import { TransportError } from '../../lib/mail-transport.ts';
import { newToken } from '../../lib/tokens.ts';
import * as aliases from '../aliases/index.ts';
import { claimAllowance } from '../billing/index.ts';
import { LOOP_HEADER } from '../aliases/index.ts';
import {
  rewriteHeaders,
  sendRawMessage,
  splitMessage,
  buildRawMessage,
  newMessageId,
  withArcSeal,
} from '../delivery/index.ts';
import { dkimSigningKeyFor, releaseDailySends, reserveDailySends } from '../domains/index.ts';
import { settleMessageOutcomes } from './alias-mail.ts';
import * as ledger from './forwards.repo.ts';
import * as messages from './messages.repo.ts';
import { mailauthResolver, smtpClientOfStamp } from './sender-auth.ts';
import * as srsPaths from './srs.repo.ts';
import { srsForward, srsReverse } from './srs.ts';

/**
 * A claim on a forward whose worker has not renewed it for this long belongs to a worker that
 * died: another may take it over. A live batch renews its claims every FORWARD_HEARTBEAT_MS.
 */
export const FORWARD_CLAIM_STALE_MS = 20 * 1000;
/** How often a batch in flight renews its claims (claimed_at), so only a dead worker's go stale. */
const FORWARD_HEARTBEAT_MS = 5 * 1000;
/** How long a forward parked as 'deferred' (plan allowance, warming cap, unconfirmed account) waits before it is offered again. */
export const FORWARD_DEFER_RETRY_MS = 5 * 60 * 1000;
/** Attempts of one forward before it counts as failed (4xx and network errors are retried). */
const FORWARD_MAX_ATTEMPTS = 5;
/** Bounces relayed back through one SRS address at most: one delivery report answers one forward. */
const SRS_BOUNCES_PER_ADDRESS = 1;

/** An error that retrying cannot mend (an address that is no address, a domain no longer verified): the row fails at once. */
class PermanentForwardError extends Error {}

const mailDate = (date: Date) => date.toUTCString().replace(/GMT$/, '+0000');

/** The DKIM key of the alias's own domain, verified by the alias's account; null when it is not (nothing goes out for it then). */
async function aliasDomainKey(ctx: AppContext, userId: string, domainName: string) {
  const key = await dkimSigningKeyFor(ctx.db, ctx.config, userId, domainName);
  return key && key.domainName === domainName ? key : null;
}

const NOT_VERIFIED = (domain: string) =>
  `${domain} is not verified for this account (its DKIM record with the account's key is not in DNS): nothing is sent for its aliases`;

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
async function needsFromRewrite(ctx: AppContext, raw: Buffer, fromAddress: string): Promise<boolean> {
  if (!fromAddress.includes('@')) return false;
  const resolver = mailauthResolver(ctx);
  // First the domain's policy alone (cached a few minutes per domain): most senders publish none
  // that forwarding can break, and then no signature needs checking.
  if (!(await strictDmarcPolicy(ctx, fromAddress, resolver))) return false;
  const { dkimVerify, dmarc } = await mailauthChecks();
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
const policyCacheFor = perDnsServerList(() => new Map<string, { strict: boolean; until: number }>());

/** mailauth's DKIM and DMARC checks, loaded at the first forward rather than at start. */
async function mailauthChecks() {
  const [{ dkimVerify }, { dmarc }] = await Promise.all([
    import('mailauth/lib/dkim/verify.js'),
    import('mailauth/lib/dmarc/index.js'),
  ]);
  return { dkimVerify, dmarc };
}

/** Whether the From domain's DMARC policy is quarantine or reject (what the domain publishes, cached). */
async function strictDmarcPolicy(
  ctx: AppContext,
  fromAddress: string,
  resolver: ReturnType<typeof mailauthResolver>,
): Promise<boolean> {
  const domain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1).toLowerCase();
  const policyCache = policyCacheFor(ctx.config.dnsServers);
  const cached = policyCache.get(domain);
  if (cached && cached.until > Date.now()) return cached.strict;
  const { dmarc } = await mailauthChecks();
  const result = await dmarc({ headerFrom: fromAddress, spfDomains: [], dkimDomains: [], resolver } as never).catch(
    () => false as const,
  );
  const strict = Boolean(result) && ['quarantine', 'reject'].includes(String(result && result.policy).toLowerCase());
  if (policyCache.size > 10_000) policyCache.clear();
  policyCache.set(domain, { strict, until: Date.now() + POLICY_CACHE_MS });
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
  forward: ledger.ForwardRow,
  stored: { raw: Buffer; mailFrom: string; via: string; messageId: string },
  recipient: string,
  returnPath: string,
  isTest: boolean,
  key: NonNullable<Awaited<ReturnType<typeof aliasDomainKey>>>,
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
  const raw = await withArcSeal(stored.raw, rewriteHeaders(stored.raw, add, drop), {
    key,
    authServId: host,
    mailFrom: stored.mailFrom,
    smtp: smtpClientOfStamp(stored.raw, stored.via, host),
    resolver: mailauthResolver(ctx),
  });
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
  forward: ledger.ForwardRow,
  message: messages.AliasMessageRow,
  stored: { messageId: string },
  text: string,
  isTest: boolean,
  key: NonNullable<Awaited<ReturnType<typeof aliasDomainKey>>>,
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
      // The sender's Message-ID only when it is one (no room for text of theirs in our reply).
      ...(/^<[^<>\s"]{1,200}@[^<>\s"]{1,200}>$/.test(stored.messageId)
        ? [`In-Reply-To: ${stored.messageId}`, `References: ${stored.messageId}`]
        : []),
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
 * messages, the signing keys; and the return paths of its forwards, the SRS ones recorded in one
 * statement before the first forward goes.
 */
type BatchReads = {
  contexts: Awaited<ReturnType<typeof ledger.forwardContexts>>;
  stored: Awaited<ReturnType<typeof messages.findInboundRaws>>;
  key(userId: string, domainName: string): ReturnType<typeof aliasDomainKey>;
  /** The forward's return path, once all of the batch's SRS addresses are recorded; throws this row's own error. */
  returnPath(forwardId: number): Promise<string>;
};

/**
 * The envelope sender of a forward. SRS (so a bounce finds its way back to the sender) only for an
 * envelope sender that arrived over SMTP, where our server saw it given; a webhook's
 * `envelope.from` is the poster's word, so an SRS address is never minted for it (that would let
 * an account aim relayed bounces at anyone): such forwards return to `bounces@` the alias domain.
 */
function forwardReturnPath(
  ctx: AppContext,
  stored: { mailFrom: string; via: string },
  aliasDomain: string,
  now: Date,
): { returnPath: string; srs: boolean } {
  if (stored.via !== 'smtp' || stored.mailFrom === '') return { returnPath: `bounces@${aliasDomain}`, srs: false };
  try {
    return { returnPath: srsForward(ctx.config.sessionSecret, stored.mailFrom, aliasDomain, now), srs: true };
  } catch (error) {
    throw new PermanentForwardError(`the envelope sender cannot be rewritten: ${(error as Error).message}`);
  }
}

async function batchReads(ctx: AppContext, claimed: ledger.ForwardRow[]): Promise<BatchReads> {
  const contexts = await ledger.forwardContexts(
    ctx.db,
    claimed.map((row) => row.id),
  );
  const stored = await messages.findInboundRaws(ctx.db, [
    ...new Set([...contexts.values()].map((context) => context.message.inboundMessageId)),
  ]);
  const keys = new Map<string, ReturnType<typeof aliasDomainKey>>();
  const key = (userId: string, domainName: string) => {
    let found = keys.get(`${userId} ${domainName}`);
    if (!found) keys.set(`${userId} ${domainName}`, (found = aliasDomainKey(ctx, userId, domainName)));
    return found;
  };
  const now = new Date();
  const returnPaths = new Map<number, string | Error>();
  const toRecord = new Map<string, { address: string; userId: string; originalSender: string }>();
  for (const row of claimed) {
    const context = contexts.get(row.id);
    const message = context ? stored.get(context.message.inboundMessageId) : undefined;
    if (!context || !message || row.kind !== 'forward') continue;
    // One row's bad sender is that row's failure alone, never the batch's.
    try {
      const { returnPath, srs } = forwardReturnPath(ctx, message, context.alias.domainName, now);
      returnPaths.set(row.id, returnPath);
      const address = returnPath.toLowerCase();
      if (srs) toRecord.set(address, { address, userId: context.alias.userId, originalSender: message.mailFrom });
    } catch (error) {
      returnPaths.set(row.id, error as Error);
    }
  }
  let recorded: Promise<void> | undefined;
  const returnPath = async (forwardId: number) => {
    const found = returnPaths.get(forwardId) ?? '';
    if (found instanceof Error) throw found;
    // Started by the first forward that needs it, so a failure fails each forward (retried) alike.
    // Sorted: two batches recording the same addresses take their index entries in one order.
    recorded ??= srsPaths.recordSrsAddresses(
      ctx.db,
      [...toRecord.values()].sort((a, b) => (a.address < b.address ? -1 : 1)),
    );
    await recorded;
    return found;
  };
  return { contexts, stored, key, returnPath };
}

/**
 * Works many rows of the forwarding ledger (one pg-boss batch): claims them together (one
 * transaction, the account locked and counted once), reserves their alias domains' warming
 * allowance, sends each through the SMTP pool at once, records the results, and settles each
 * message's outcome once its forwards are done. Each row stands alone: whatever one row throws
 * (a bad address, a refusal) fails or retries that row only, with its error and its attempt
 * counted. A row sent, or held by a live worker, is left alone, so a batch retried after a
 * transient failure sends only what did not go: such a failure leaves its row pending and, once
 * every row is done, throws so pg-boss retries the job. While the batch works, its claims are
 * renewed every FORWARD_HEARTBEAT_MS: a claim that stops being renewed is a dead worker's.
 */
export async function sendForwards(ctx: AppContext, forwardIds: number[], now = new Date()): Promise<void> {
  const claimToken = newToken(16);
  const claimed = await claimWithinAllowance(ctx, [...new Set(forwardIds)], claimToken, now);
  if (claimed.length === 0) return;
  const heartbeat = setInterval(() => {
    ledger.renewForwardClaims(ctx.db, claimToken, new Date()).catch(() => undefined);
  }, FORWARD_HEARTBEAT_MS);
  heartbeat.unref();
  try {
    let reads: BatchReads;
    try {
      reads = await batchReads(ctx, claimed);
    } catch (error) {
      // Nothing of the batch went: every row goes back (its attempt counted), none stays 'sending'.
      await Promise.all(claimed.map((row) => finishAfterError(ctx, row, claimToken, error)));
      throw error;
    }
    const { sendable, release } = await withinWarmingCaps(ctx, claimed, claimToken, reads, now);
    const outcomes = await Promise.allSettled(sendable.map((row) => sendClaimed(ctx, row, claimToken, reads)));
    const sent = sendable.filter((_, i) => outcomes[i]?.status === 'fulfilled' && outcomes[i].value === 'sent');
    // What went is recorded at once (one statement); failures were recorded one by one.
    await ledger.finishForwardsSent(
      ctx.db,
      sent.map((row) => row.id),
      claimToken,
      new Date(),
    );
    await release(new Set(sent.map((row) => row.id)));
    await settleMessageOutcomes(ctx.db, [...new Set(claimed.map((row) => row.aliasMessageId))]);
    const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * What a row whose work threw becomes: 'failed' with the error when it cannot be mended (or its
 * attempts are used up), else 'pending' with the error, for the retry.
 */
async function finishAfterError(
  ctx: AppContext,
  row: ledger.ForwardRow,
  claimToken: string,
  error: unknown,
): Promise<'failed' | 'pending'> {
  const permanent =
    error instanceof PermanentForwardError || (error instanceof TransportError && error.kind !== 'retry');
  const status = permanent || row.attempts >= FORWARD_MAX_ATTEMPTS ? 'failed' : 'pending';
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
  await ledger.finishForward(ctx.db, row.id, claimToken, { status, error: message, at: new Date() });
  return status;
}

/**
 * The claimed rows within their alias domains' warming caps for today (reserveDailySends, one
 * reservation per domain); the rest are parked as 'deferred' until the cap allows them. `release`
 * hands back the reservations of rows that did not go.
 */
async function withinWarmingCaps(
  ctx: AppContext,
  claimed: ledger.ForwardRow[],
  claimToken: string,
  reads: BatchReads,
  now: Date,
): Promise<{ sendable: ledger.ForwardRow[]; release(sent: Set<number>): Promise<void> }> {
  const byDomain = new Map<number, ledger.ForwardRow[]>();
  const sendable: ledger.ForwardRow[] = [];
  for (const row of claimed) {
    const domainId = reads.contexts.get(row.id)?.alias.domainId;
    if (domainId === undefined) sendable.push(row);
    else byDomain.set(domainId, [...(byDomain.get(domainId) ?? []), row]);
  }
  const reserved: { domainId: number; day: string; rows: ledger.ForwardRow[] }[] = [];
  for (const [domainId, rows] of byDomain) {
    const reservation = await reserveDailySends(ctx.db, domainId, rows.length, now);
    const granted = rows.slice(0, reservation.granted);
    sendable.push(...granted);
    reserved.push({ domainId, day: reservation.day, rows: granted });
    const reason = `The domain's warming cap for today (${reservation.dailyLimit ?? 0}) is reached; it goes when the cap allows`;
    for (const row of rows.slice(reservation.granted))
      await ledger.finishForward(ctx.db, row.id, claimToken, { status: 'deferred', error: reason, at: new Date() });
  }
  return {
    sendable,
    release: async (sent) => {
      for (const { domainId, day, rows } of reserved) {
        const unsent = rows.filter((row) => !sent.has(row.id)).length;
        if (unsent > 0) await releaseDailySends(ctx.db, domainId, unsent, day);
      }
    },
  };
}

/**
 * Sends one claimed row; answers 'sent' (the caller records it) or 'failed' (recorded). Throws
 * after recording a transient failure (retried). Nothing goes for an alias whose domain is not
 * verified by its account: mail on behalf of an alias is signed with that account's own key.
 */
async function sendClaimed(
  ctx: AppContext,
  claimed: ledger.ForwardRow,
  claimToken: string,
  reads: BatchReads,
): Promise<'sent' | 'failed'> {
  const finish = (status: 'failed' | 'pending', error: string | null) =>
    ledger.finishForward(ctx.db, claimed.id, claimToken, { status, error, at: new Date() });
  const context = reads.contexts.get(claimed.id);
  const alias = context?.alias;
  const stored = context ? reads.stored.get(context.message.inboundMessageId) : undefined;
  if (!context || !alias || !stored) {
    await finish('failed', 'the alias or the message is gone');
    return 'failed';
  }
  try {
    const key = await reads.key(alias.userId, alias.domainName);
    if (!key) throw new PermanentForwardError(NOT_VERIFIED(alias.domainName));
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
    if ((await finishAfterError(ctx, claimed, claimToken, error)) === 'pending') throw error;
    return 'failed';
  }
}

/**
 * Claims the forwards the account may send now. Everything that leaves on behalf of an alias
 * (forwards and auto-replies alike) counts against the plan's monthly emails like a campaign's
 * (the account row locked while counting, as for campaign sends, so two forwards at the limit
 * cannot both pass; one lock and one count for all of an account's rows in the batch), and needs
 * an account that confirmed its own address. When the account is unconfirmed, sending is paused
 * (billing) or the month's emails are used up, the rest is parked as 'deferred', not lost: the
 * recovery sweep offers it again every few minutes and it goes once that changes. Crossing
 * 80%/100% notifies the owner (once a month).
 */
async function claimWithinAllowance(
  ctx: AppContext,
  forwardIds: number[],
  claimToken: string,
  now: Date,
): Promise<ledger.ForwardRow[]> {
  const staleBefore = new Date(now.getTime() - FORWARD_CLAIM_STALE_MS);
  return ctx.db.transaction(async (tx) => {
    const owners = await ledger.forwardOwners(tx, forwardIds);
    const claimed: ledger.ForwardRow[] = [];
    const byAccount = new Map<string, number[]>();
    for (const owner of owners) byAccount.set(owner.userId, [...(byAccount.get(owner.userId) ?? []), owner.id]);
    // Accounts locked in one order, so two batches of the same accounts cannot deadlock.
    for (const userId of [...byAccount.keys()].sort()) {
      const ids = byAccount.get(userId) as number[];
      const plan = await claimAllowance(tx, ctx.config, userId, ids.length, { requireConfirmed: true, now });
      if (!plan) {
        claimed.push(...(await ledger.claimForwards(tx, ids, claimToken, now, staleBefore)));
        continue;
      }
      const taken = await ledger.claimForwards(tx, ids, claimToken, now, staleBefore, plan.granted);
      claimed.push(...taken);
      if (taken.length < ids.length) {
        const reason = plan.blocked ?? plan.limitReason(taken.length) ?? 'Sending is paused';
        const takenIds = new Set(taken.map((row) => row.id));
        await ledger.deferForwards(
          tx,
          ids.filter((id) => !takenIds.has(id)),
          reason,
          now,
          staleBefore,
        );
      }
      await plan.taken(taken.length);
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
 * Relays a delivery report that arrived at one of our SRS addresses back to the original sender:
 * only a report from the null sender (the pipeline refuses anything else), for an address whose
 * hash verifies, that is not too old, that we minted for a forward (srs_return_paths), once
 * (SRS_BOUNCES_PER_ADDRESS); signed with the alias domain's key (still verified by its account),
 * and counted against that account's monthly emails (its account confirmed, within its plan).
 * Answers what it did. A send that fails hands the turn back and throws (the job retries).
 */
export async function relaySrsBounce(
  ctx: AppContext,
  inboundMessageId: number,
  recipient: string,
  now = new Date(),
): Promise<'relayed' | 'forged' | 'expired' | 'unknown' | 'limit' | 'refused' | 'unverified'> {
  const reversed = srsReverse(ctx.config.sessionSecret, recipient, now);
  if (reversed.status === 'expired') return 'expired';
  if (reversed.status !== 'valid') return 'forged';
  const used = await srsPaths.findSrsAddress(ctx.db, recipient.toLowerCase());
  if (!used) return 'unknown';
  const stored = await messages.findInboundRaw(ctx.db, inboundMessageId);
  if (!stored) return 'unknown';
  if (stored.mailFrom !== '') return 'refused';
  const domain = recipient.slice(recipient.lastIndexOf('@') + 1).toLowerCase();
  const key = await aliasDomainKey(ctx, used.userId, domain);
  if (!key) return 'unverified';
  const turn = await ctx.db.transaction(async (tx) => {
    const plan = await claimAllowance(tx, ctx.config, used.userId, 1, { requireConfirmed: true, now });
    if (!plan || plan.blocked) return 'refused' as const;
    if (plan.granted === 0) return 'limit' as const;
    if (!(await srsPaths.takeSrsBounceTurn(tx, used.address, SRS_BOUNCES_PER_ADDRESS, now))) return 'limit' as const;
    return 'taken' as const;
  });
  if (turn !== 'taken') return turn;
  const raw = rewriteHeaders(stored.raw, [
    `Received: by ${new URL(ctx.config.publicUrl).hostname} (Sendwell SRS) for <${reversed.address}>; ${mailDate(now)}`,
  ]);
  try {
    await sendRawMessage(ctx.transport, {
      userId: used.userId,
      messageId: stored.messageId,
      // A bounce goes out with a null sender, so it can never bounce back.
      returnPath: '',
      from: `mailer-daemon@${domain}`,
      to: reversed.address,
      subject: 'Delivery Status Notification',
      raw,
      key,
      isTest: false,
    });
  } catch (error) {
    await srsPaths.returnSrsBounceTurn(ctx.db, used.address);
    throw error;
  }
  return 'relayed';
}
