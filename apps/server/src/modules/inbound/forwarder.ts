import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { perDnsServerList } from '../../lib/dns.ts';
import * as aliases from '../aliases/index.ts';
import { LOOP_HEADER } from '../aliases/index.ts';
import { userById, type UserRow } from '../auth/index.ts';
import { claimAllowance } from '../billing/index.ts';
import {
  rewriteHeaders,
  sendRawMessage,
  splitMessage,
  buildRawMessage,
  newMessageId,
  withArcSeal,
} from '../delivery/index.ts';
import { sendFeed, signingKeyOf, type Feed, type SigningKey } from '../sending/index.ts';
import { settleMessageOutcomes } from './alias-mail.ts';
import * as ledger from './forwards.repo.ts';
import * as messages from './messages.repo.ts';
import { mailauthResolver, smtpClientOfStamp } from './sender-auth.ts';
import * as srsPaths from './srs.repo.ts';
import { srsForward, srsReverse } from './srs.ts';

/**
 * A claim on a forward whose worker has not renewed it for this long belongs to a worker that
 * died: another may take it over (the forwards ledger's stale window; the engine renews a live
 * batch's claims four times within it).
 */
export const FORWARD_CLAIM_STALE_MS = ledger.FORWARD_CLAIM_STALE_MS;
/** How long a forward parked as 'deferred' (plan allowance, warming cap, unconfirmed account) waits before it is offered again. */
export const FORWARD_DEFER_RETRY_MS = 5 * 60 * 1000;
/** Bounces relayed back through one SRS address at most: one delivery report answers one forward. */
const SRS_BOUNCES_PER_ADDRESS = 1;

const mailDate = (date: Date) => date.toUTCString().replace(/GMT$/, '+0000');

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

/** What the forward feeds of one batch read, once for all its rows. */
type ForwardContext = NonNullable<ReturnType<Awaited<ReturnType<typeof ledger.forwardContexts>>['get']>>;
type StoredMessage = NonNullable<ReturnType<Awaited<ReturnType<typeof messages.findInboundRaws>>['get']>>;

/**
 * Composes one forward, unsigned (the sending policy signs it with the alias domain's key): the
 * original with our trace headers, the From rewritten where the sender's strict DMARC needs it, and
 * an ARC seal with that key. X-Original-To is the envelope recipient the mail came for (a
 * catch-all's forwards name the real address, not `*@domain`).
 */
async function composeForward(
  ctx: AppContext,
  alias: aliases.AliasWithDomain,
  forward: ledger.ForwardRow,
  stored: StoredMessage,
  recipient: string,
  key: NonNullable<SigningKey>,
): Promise<{ messageId: string; from: string; to: string; subject: string; raw: Buffer }> {
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
  return {
    messageId: stored.messageId,
    from: aliasAddress,
    to: forward.toEmail,
    subject: subjectField ? subjectField.text.slice(subjectField.text.indexOf(':') + 1).trim() : '',
    raw,
  };
}

/** Composes an alias's auto-reply (RFC 3834): to the envelope sender, Auto-Submitted: auto-replied (its return path is the null sender). */
async function composeAutoReply(
  ctx: AppContext,
  alias: aliases.AliasWithDomain,
  forward: ledger.ForwardRow,
  message: messages.AliasMessageRow,
  stored: StoredMessage,
): Promise<{ messageId: string; from: string; to: string; subject: string; raw: Buffer }> {
  const rule = message.ruleId;
  const text = (rule !== null ? await autoReplyTextOfRule(ctx, alias, rule) : alias.autoReplyMessage) ?? '';
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
  return { messageId, from: aliasAddress, to: forward.toEmail, subject, raw };
}

/**
 * Works one row of the forwarding ledger (see sendForwards): a row sent, or held by a live worker,
 * is left alone. A transient failure leaves the row pending and throws, so pg-boss retries the job.
 */
export async function sendForward(ctx: AppContext, forwardId: number, now = new Date()): Promise<void> {
  await sendForwards(ctx, [forwardId], now);
}

/**
 * What the rows of one batch read, in one query each: their messages with their aliases, the raw
 * messages; and the return paths of its forwards, the SRS ones recorded in one statement before the
 * first forward goes.
 */
type BatchReads = {
  contexts: Map<number, ForwardContext>;
  stored: Awaited<ReturnType<typeof messages.findInboundRaws>>;
  /** Why the row cannot go (it fails at once), or null. */
  unsendable(forwardId: number): string | null;
  /** The forward's envelope sender, once all of the batch's SRS addresses are recorded ('' for an auto-reply). */
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
    throw new Error(`the envelope sender cannot be rewritten: ${(error as Error).message}`, { cause: error });
  }
}

async function batchReads(ctx: AppContext, contexts: Map<number, ForwardContext>, now: Date): Promise<BatchReads> {
  const stored = await messages.findInboundRaws(ctx.db, [
    ...new Set([...contexts.values()].map((context) => context.message.inboundMessageId)),
  ]);
  const returnPaths = new Map<number, string | Error>();
  const toRecord = new Map<string, { address: string; userId: string; originalSender: string }>();
  for (const [id, context] of contexts) {
    const message = stored.get(context.message.inboundMessageId);
    if (!message || context.forward.kind !== 'forward') continue;
    // One row's bad sender is that row's failure alone, never the batch's.
    try {
      const { returnPath, srs } = forwardReturnPath(ctx, message, context.alias.domainName, now);
      returnPaths.set(id, returnPath);
      const address = returnPath.toLowerCase();
      if (srs) toRecord.set(address, { address, userId: context.alias.userId, originalSender: message.mailFrom });
    } catch (error) {
      returnPaths.set(id, error as Error);
    }
  }
  let recorded: Promise<void> | undefined;
  return {
    contexts,
    stored,
    unsendable(forwardId) {
      const context = contexts.get(forwardId);
      if (!context || !stored.get(context.message.inboundMessageId)) return 'the alias or the message is gone';
      const found = returnPaths.get(forwardId);
      return found instanceof Error ? found.message.slice(0, 500) : null;
    },
    async returnPath(forwardId) {
      if (contexts.get(forwardId)?.forward.kind === 'auto_reply') return '';
      const found = returnPaths.get(forwardId) ?? '';
      if (found instanceof Error) throw found;
      // Started by the first forward that needs it, so a failure fails the batch (retried) alike.
      // Sorted: two batches recording the same addresses take their index entries in one order.
      recorded ??= srsPaths.recordSrsAddresses(
        ctx.db,
        [...toRecord.values()].sort((a, b) => (a.address < b.address ? -1 : 1)),
      );
      await recorded;
      return found;
    },
  };
}

/**
 * The forwards of one account on one alias domain as a feed of the sending policy (modules/sending),
 * the third beside campaigns and sequences: its rows are the batch's forwards and auto-replies of
 * that account and domain; the policy claims them within the account's monthly allowance (its own
 * address confirmed) and the domain's warming cap, signs with the alias domain's own key (nothing
 * goes unsigned by it), and sends through the engine's transport. What the plan or the cap holds
 * back is parked as 'deferred' with the reason, and the sweep offers it again every few minutes.
 * The envelope is the forward's own: SRS for a forward, the null sender for an auto-reply.
 */
function forwardFeed(
  ctx: AppContext,
  group: { user: UserRow; fromEmail: string; ids: number[] },
  reads: BatchReads,
  claimedMessages: Set<number>,
): Feed<ledger.ForwardFeedRow> {
  const { db } = ctx;
  const { ids } = group;
  const sends = ledger.forwardSendClaim(db, ids);
  // Rows of the batch this feed claimed: once every one was, there is nothing more to claim.
  const taken = new Set<number>();
  return {
    ledger: 'forward',
    sends,
    recordsTo: ledger.forwardLedger(db),
    user: group.user,
    fromEmail: group.fromEmail,
    signing: 'own-domain',
    campaignId: null,
    sequenceId: null,
    plan: 'per-claim',
    requireConfirmed: true,
    warming: 'per-chunk',
    requeueStale: (ownClaimToken, staleBefore) => ledger.requeueStaleForwards(db, ids, staleBefore, ownClaimToken),
    async take(tx, limit) {
      const rows = await ledger.claimForwards(tx, ids, sends.token, limit);
      for (const row of rows) {
        taken.add(row.id);
        claimedMessages.add(row.aliasMessageId);
      }
      return rows;
    },
    readBack: (claimToken) => ledger.claimedForwards(db, ids, claimToken),
    unsendable: async (row) => reads.unsendable(row.id),
    async compose(row, { key }) {
      const context = reads.contexts.get(row.id);
      const stored = context ? reads.stored.get(context.message.inboundMessageId) : undefined;
      // unsendable and the policy's own-domain signing let no such row through.
      if (!context || !stored || !key) throw new Error(`forward ${row.id} cannot be composed`);
      const message =
        row.kind === 'auto_reply'
          ? await composeAutoReply(ctx, context.alias, row, context.message, stored)
          : await composeForward(ctx, context.alias, row, stored, context.message.recipient, key);
      return { ...message, isTest: context.message.isTest };
    },
    returnPath: (row) => reads.returnPath(row.id),
    isActive: async () => true,
    drained: () => taken.size >= ids.length,
    deferRest: (_resumesAt, reason) => ledger.deferWaitingForwards(db, ids, reason),
    held: (tx, reason) => ledger.deferWaitingForwards(tx, ids, reason),
  };
}

/**
 * Works many rows of the forwarding ledger (one pg-boss batch): the rows are grouped by account and
 * alias domain, and each group runs as a feed of the sending policy through the delivery engine (at
 * once, sharing the SMTP pool). Each row stands alone: one that cannot go (a bad address, a domain
 * no longer verified) fails alone, with its error and its attempt counted. A row sent, or held by a
 * live worker, is left alone, so a batch retried after a transient failure sends only what did not
 * go: such a failure puts its row back 'pending' (failed after its fifth attempt) and, once every
 * group is done, throws so pg-boss retries the job. Each message's outcome is settled once its
 * forwards are done.
 */
export async function sendForwards(ctx: AppContext, forwardIds: number[], now = new Date()): Promise<void> {
  const all = await ledger.forwardContexts(ctx.db, [...new Set(forwardIds)]);
  const open = new Map([...all].filter(([, context]) => !['sent', 'failed'].includes(context.forward.status)));
  if (open.size === 0) return;
  const reads = await batchReads(ctx, open, now);
  const groups = new Map<string, { userId: string; fromEmail: string; ids: number[] }>();
  for (const [id, context] of open) {
    const key = `${context.alias.userId} ${context.alias.domainId}`;
    const group = groups.get(key);
    if (group) group.ids.push(id);
    else groups.set(key, { userId: context.alias.userId, fromEmail: aliases.addressOf(context.alias), ids: [id] });
  }
  const claimedMessages = new Set<number>();
  const outcomes = await Promise.allSettled(
    [...groups.values()].map(async (group) => {
      const user = await userById(ctx.db, group.userId);
      if (!user) return null;
      return sendFeed(ctx, forwardFeed(ctx, { ...group, user }, reads, claimedMessages));
    }),
  );
  await settleMessageOutcomes(ctx.db, [...claimedMessages]);
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  const deferred = outcomes.reduce((sum, o) => sum + (o.status === 'fulfilled' ? (o.value?.retryLater ?? 0) : 0), 0);
  if (deferred > 0) throw new Error(`${deferred} forwards were deferred by the mail server; the batch will be retried`);
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
  const key = await signingKeyOf(ctx, 'own-domain', used.userId, domain);
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
