import type { ParsedMail } from 'mailparser';
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { withoutMboxSeparator } from '../../lib/mbox.ts';
import * as aliases from '../aliases/index.ts';
import { LOOP_HEADER, type RoutingDecision, type RoutingMessage } from '../aliases/index.ts';
import type { BounceVerdictResponse } from '@sendwell/contract/bounces';
import { handleBounceMessage, isBounceAddress, classify, sendOfUnsubscribeAddress } from '../bounces/index.ts';
import { unsubscribeRecipient, type MailRef } from '../tracking/index.ts';
import { endEnrolmentsOnReply, repliedMessageIds } from '../sequences/index.ts';
import { storeInbound, type AliasRecipient } from './alias-mail.ts';
import { parseMime } from './mime.ts';
import { cleanHeaderControls, isDataException, withoutControls } from './content.ts';
import { proveSender, receivedStamp, type SmtpClientInfo } from './sender-auth.ts';
import { forwardMessageJob, srsBounceJob } from './forwarding.jobs.ts';
import { looksLikeSrs, srsReverse } from './srs.ts';
import { recordWebhookEvent } from '../webhooks/index.ts';

/**
 * The one inbound pipeline: the SMTP server and the webhook (and the alias tests) hand every
 * message here. It parses once, stores the message and what each alias recipient decided (one
 * transaction), enqueues the forwards, and only then answers, so an answered message is never
 * lost: a forward whose enqueue was lost is picked up by the sweep (forwarding.jobs.ts).
 * Messages that are not for an alias (bounces, reports) go to bounce handling (handToBounceHandling).
 */

export type InboundVia = 'smtp' | 'webhook' | 'test';

export type InboundEnvelope = {
  /** The envelope sender; '' for a null sender (<>). */
  mailFrom: string;
  /** Envelope recipients; empty when the transport gave none (a raw webhook post): read from the headers. */
  rcptTo: string[];
};

/** What the SRS reverse path answers a message that is not a delivery report from the null sender. */
export const SRS_ONLY_REPORTS =
  'An SRS return path takes only a delivery report (multipart/report or a bounce) from the null sender';

/**
 * Whether a message may go back through an SRS return path: from the null sender (`MAIL FROM:<>`),
 * and a delivery report (multipart/report) or what the bounce classifier recognises as a bounce.
 */
function isRelayableReport(parsed: ParsedMail, raw: Buffer, mailFrom: string): boolean {
  if (mailFrom !== '') return false;
  const type = headerText(parsed, 'content-type')?.toLowerCase() ?? '';
  if (/^multipart\/report\b/.test(type)) return true;
  return classify(raw).kind === 'bounce';
}

/**
 * What an address is to us: an alias, an SRS return path of a forward, a bounce address, a mailed
 * unsubscribe (List-Unsubscribe's mailto, naming the message it came in), or nothing.
 */
export type RecipientKind =
  | { kind: 'alias'; alias: aliases.AliasForMail }
  | { kind: 'srs' }
  | { kind: 'bounce' }
  | { kind: 'unsubscribe'; mail: MailRef }
  | { kind: 'unknown' };

/** The local part of the envelope senders of our own mail (delivery/return-path.ts), and its VERP form `bounces+<token>`. */
const BOUNCE_LOCAL = /^bounces(\+[^@]*)?$/i;
/** The local part of a mailed-unsubscribe address (modules/bounces/verp.ts): `unsubscribe+<token>`. */
const UNSUBSCRIBE_LOCAL = /^unsubscribe\+/i;

/**
 * What mail to `address` is for. The SMTP server asks this at RCPT time (anything but 'unknown' is
 * accepted) and the pipeline at routing time. Bounce addresses (VERP return paths included) and SRS
 * addresses are accepted here and told apart later; this is the one place to teach the inbound
 * side a new kind of address.
 */
export async function recipientKind(
  ctx: Pick<AppContext, 'db' | 'config'>,
  address: string,
  userId: string | null,
): Promise<RecipientKind> {
  const local = address.slice(0, Math.max(0, address.lastIndexOf('@')));
  // Only an SRS address we could have made (its hash verifies): a forged one is unknown, refused at RCPT.
  if (looksLikeSrs(local))
    return srsReverse(ctx.config.sessionSecret, address).status === 'valid' ? { kind: 'srs' } : { kind: 'unknown' };
  // A VERP return path must carry a token we signed (a forged one is refused); plain `bounces@` is our older return path.
  if (BOUNCE_LOCAL.test(local))
    return !local.includes('+') || isBounceAddress(ctx.config, address) ? { kind: 'bounce' } : { kind: 'unknown' };
  // A mailed unsubscribe must carry a token we signed: a forged or garbled one is refused at RCPT.
  if (UNSUBSCRIBE_LOCAL.test(local)) {
    const send = sendOfUnsubscribeAddress(ctx.config.sessionSecret, address);
    if (!send) return { kind: 'unknown' };
    return {
      kind: 'unsubscribe',
      mail: send.ledger === 'campaign' ? { campaignSendId: send.sendId } : { sequenceSendId: send.sendId },
    };
  }
  const alias = await aliases.aliasForAddress(ctx.db, address, userId);
  return alias ? { kind: 'alias', alias } : { kind: 'unknown' };
}

/**
 * The single place where a message that is not for an alias (a DSN, an ARF report, a reply to a
 * bounce address) is handed to bounce handling (modules/bounces): it classifies the message and
 * ties it to the send it answers by its VERP return path, else by Message-ID within the account.
 */
async function handToBounceHandling(
  ctx: AppContext,
  input: { raw: Buffer; userId: string | null; recipient: string | null },
): Promise<BounceVerdictResponse> {
  return handleBounceMessage(ctx, {
    raw: input.raw,
    envelopeTo: input.recipient ?? undefined,
    accountId: input.userId ?? undefined,
  });
}

/** A message that is not MIME at all: no header block before the body. */
const MALFORMED_MESSAGE = 'The message is not valid MIME: it has no header fields before its body';

/**
 * Parses the raw message once (mailparser, with the limits bounce handling names: 413 past them);
 * a message without a single header field before its body is refused (400). What is read of it
 * is its header fields and its attachments: a message that is one text part has none, and only
 * its header block is parsed (mailparser decodes every part, most of the cost of a large message).
 */
export async function parseInbound(raw: Buffer): Promise<ParsedMail> {
  const head = raw.subarray(0, Math.min(raw.length, 1000)).toString('latin1');
  if (!/^[!-9;-~]+:/.test(head)) throw new AppError('bad_request', MALFORMED_MESSAGE);
  try {
    return await parseMime(headerBlockOfTextMessage(raw) ?? raw);
  } catch (error) {
    if (error instanceof AppError) throw error;
    // What the parser cannot read is the message's fault: a permanent refusal, never a retry.
    throw new AppError('bad_request', `The message could not be parsed: ${(error as Error).message}`.slice(0, 300));
  }
}

/**
 * The header block (with the blank line after it) of a message that is a single text/plain or
 * text/html part (or has no Content-Type) without a Content-Disposition: mailparser finds no
 * attachment in such a message. Null for any other message, which is parsed whole.
 */
function headerBlockOfTextMessage(raw: Buffer): Buffer | null {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0 || raw.subarray(0, end).includes('\n\n')) return null;
  const fields = raw
    .subarray(0, end)
    .toString('latin1')
    .replace(/\r\n[ \t]/g, ' ');
  if (/^content-disposition[ \t]*:/im.test(fields)) return null;
  const types = [...fields.matchAll(/^content-type[ \t]*:(.*)$/gim)];
  if (types.length > 1) return null;
  if (types.length === 1 && !/^[ \t]*text\/(plain|html)[ \t]*(;|$)/i.test(types[0]?.[1] ?? '')) return null;
  return raw.subarray(0, end + 4);
}

/** The first header field of this name, unfolded, as the message has it (mailparser reshapes some, like List-*). */
const headerText = (parsed: ParsedMail, name: string): string | null => {
  const line = parsed.headerLines.find((entry) => entry.key.toLowerCase() === name);
  if (!line) return null;
  return line.line
    .slice(line.line.indexOf(':') + 1)
    .replace(/\r?\n[ \t]+/g, ' ')
    .trim();
};

function addressesOf(field: ParsedMail['to']): string[] {
  if (!field) return [];
  const list = Array.isArray(field) ? field : [field];
  return list.flatMap((group) =>
    group.value.flatMap((entry) => [entry.address ?? '', ...(entry.group ?? []).map((g) => g.address ?? '')]),
  );
}

/** What routing reads of a parsed message. */
export function routingMessageOf(
  parsed: ParsedMail,
  mailFrom: string,
  messageId: string,
  authenticatedSender: string | null = null,
): RoutingMessage {
  const lines = parsed.headerLines.map((line) => line.key.toLowerCase());
  return {
    messageId,
    mailFrom,
    fromAddress: withoutControls(parsed.from?.value[0]?.address ?? '').toLowerCase(),
    subject: withoutControls(parsed.subject ?? ''),
    authenticatedSender,
    hasAttachment: parsed.attachments.some((a) => a.contentDisposition === 'attachment' || !a.related),
    receivedCount: lines.filter((key) => key === 'received').length,
    loopAliases: parsed.headerLines
      .filter((line) => line.key.toLowerCase() === LOOP_HEADER.toLowerCase())
      .map((line) =>
        line.line
          .slice(line.line.indexOf(':') + 1)
          .trim()
          .toLowerCase(),
      ),
    autoSubmitted: headerText(parsed, 'auto-submitted'),
    precedence: headerText(parsed, 'precedence'),
    listId: headerText(parsed, 'list-id'),
  };
}

type RecipientResult = {
  recipient: string;
  kind: RecipientKind['kind'];
  aliasId?: number;
  duplicate?: boolean;
  decision?: RoutingDecision;
  /** For a bounce handed on: what bounce handling made of it. */
  verdict?: BounceVerdictResponse;
};

export type InboundResult = { messageId: string; stored: boolean; recipients: RecipientResult[] };

/**
 * Receives one message: parses it, stores it and routes it per recipient, enqueues what must be
 * sent, and answers what happened. `userId` is the webhook's (and the tests') account: only its
 * aliases are considered; the SMTP server passes null (aliases on DKIM-verified domains).
 */
export async function receiveInbound(
  ctx: AppContext,
  input: {
    raw: Buffer;
    envelope: InboundEnvelope;
    via: InboundVia;
    userId?: string | null;
    isTest?: boolean;
    now?: Date;
    /** What each recipient is, when the caller asked already (the SMTP server at RCPT). */
    knownKinds?: ReadonlyMap<string, RecipientKind>;
    /** The SMTP client (its address and HELO name), for SPF; null or absent for the webhook. */
    smtp?: SmtpClientInfo | null;
  },
): Promise<InboundResult> {
  try {
    return await receive(ctx, input);
  } catch (error) {
    // A value the database cannot store is the message's fault, never ours: a permanent refusal.
    if (isDataException(error))
      throw new AppError('bad_request', 'The message holds a value that cannot be stored (a control character?)');
    throw error;
  }
}

async function receive(ctx: AppContext, input: Parameters<typeof receiveInbound>[1]): Promise<InboundResult> {
  const now = input.now ?? new Date();
  const userId = input.userId ?? null;
  const raw = cleanHeaderControls(withoutMboxSeparator(input.raw));
  const parsed = await parseInbound(raw);
  const mailFrom = input.envelope.mailFrom.replace(/^<|>$/g, '').trim().toLowerCase();
  const messageId = withoutControls(parsed.messageId?.trim() ?? '') || `<${randomUUID()}@inbound.sendwell>`;
  const rcptTo = [
    ...new Set(
      (input.envelope.rcptTo.length > 0
        ? input.envelope.rcptTo
        : [...addressesOf(parsed.to), ...addressesOf(parsed.cc), headerText(parsed, 'delivered-to') ?? '']
      )
        .map((address) => address.trim().toLowerCase())
        .filter((address) => address.includes('@')),
    ),
  ];
  const kinds = await Promise.all(
    rcptTo.map(async (recipient) => ({
      recipient,
      kind: input.knownKinds?.get(recipient) ?? (await recipientKind(ctx, recipient, userId)),
    })),
  );
  const aliasRecipients = kinds.filter(
    (entry): entry is { recipient: string; kind: { kind: 'alias'; alias: aliases.AliasForMail } } =>
      entry.kind.kind === 'alias',
  );
  // The SRS reverse path carries only delivery reports from the null sender; anything else to an
  // SRS address is refused (over SMTP: 550 when it was the only recipient) and never relayed.
  let srsRecipients = kinds.filter((entry) => entry.kind.kind === 'srs').map((entry) => entry.recipient);
  if (srsRecipients.length > 0 && !isRelayableReport(parsed, raw, mailFrom)) {
    if (aliasRecipients.length === 0) throw new AppError('unprocessable', SRS_ONLY_REPORTS);
    srsRecipients = [];
  }
  // Only a sender the message proves may get an auto-reply: the proof is sought only when an
  // alias could answer at all (it costs DNS look-ups). The alias tests send the account's own address.
  const mayAutoReply = aliasRecipients.some(({ kind }) => aliases.mayAutoReply(kind.alias));
  let authenticatedSender: string | null = null;
  if (mayAutoReply && input.via === 'test') authenticatedSender = mailFrom;
  else if (mayAutoReply && mailFrom !== '') {
    const from = withoutControls(parsed.from?.value[0]?.address ?? '').toLowerCase();
    const proof = await proveSender(ctx, { raw, fromAddress: from, mailFrom, smtp: input.smtp ?? null });
    if (proof.proven) authenticatedSender = proof.address;
  }
  const routing = routingMessageOf(parsed, mailFrom, messageId, authenticatedSender);
  const results: RecipientResult[] = [];
  let stored = false;
  let toEnqueue: number[] = [];
  let srsInboundId: number | null = null;

  if (aliasRecipients.length > 0 || srsRecipients.length > 0) {
    // A message to an alias twice (To and Cc, or the exact alias and the catch-all) is routed once per alias.
    const recipients: AliasRecipient[] = [];
    for (const { recipient, kind } of aliasRecipients)
      if (!recipients.some((entry) => entry.alias.id === kind.alias.id))
        recipients.push({ alias: kind.alias, recipient });
    // Stored with our Received line naming the SMTP client: a forward's ARC seal reads it back.
    const stamped =
      input.via === 'smtp' && input.smtp
        ? Buffer.concat([
            Buffer.from(receivedStamp(new URL(ctx.config.publicUrl).hostname, input.smtp, now), 'latin1'),
            raw,
          ])
        : raw;
    const outcome = await storeInbound(ctx.db, {
      stored: { messageId, mailFrom, via: input.via, raw: stamped },
      recipients,
      message: routing,
      isTest: input.isTest ?? false,
      now,
    });
    stored = true;
    for (const [i, routed] of outcome.routed.entries()) {
      const alias = recipients[i]?.alias;
      if (alias && !routed.duplicate)
        await recordWebhookEvent(ctx.db, alias.userId, 'inbound.received', {
          inboundMessageId: outcome.inboundId,
          aliasId: alias.id,
          recipient: recipients[i]?.recipient ?? '',
          from: routing.fromAddress,
          subject: routing.subject,
          messageId,
        });
    }
    results.push(
      ...outcome.routed.map((routed, i) => ({
        recipient: recipients[i]?.recipient ?? '',
        kind: 'alias' as const,
        aliasId: routed.aliasId,
        duplicate: routed.duplicate,
        decision: routed.decision,
      })),
    );
    toEnqueue = outcome.routed.flatMap((routed) => routed.forwardIds);
    srsInboundId = outcome.inboundId;
  }

  await forwardMessageJob.enqueueMany(
    ctx.queue,
    toEnqueue.map((forwardId) => ({ data: { forwardId } })),
  );
  for (const recipient of srsRecipients) {
    if (srsInboundId !== null) await srsBounceJob.enqueue(ctx.queue, { inboundMessageId: srsInboundId, recipient });
    results.push({ recipient, kind: 'srs' });
  }
  // A mailed unsubscribe is honoured exactly as the one-click POST is (the same service function),
  // and goes nowhere else: it is neither stored, forwarded nor read as a bounce.
  let unsubscribes = 0;
  for (const entry of kinds) {
    if (entry.kind.kind !== 'unsubscribe') continue;
    await unsubscribeRecipient(ctx.db, entry.kind.mail);
    results.push({ recipient: entry.recipient, kind: 'unsubscribe' });
    unsubscribes += 1;
  }
  for (const entry of kinds) {
    if (entry.kind.kind !== 'bounce' && entry.kind.kind !== 'unknown') continue;
    results.push({ recipient: entry.recipient, kind: entry.kind.kind });
  }
  // Not for an alias at all (no alias recipient): a DSN, a report, or mail to a bounce address.
  let verdict: BounceVerdictResponse | null = null;
  if (aliasRecipients.length === 0 && srsRecipients.length === 0 && unsubscribes === 0) {
    const bounceRecipient = kinds.find((entry) => entry.kind.kind === 'bounce')?.recipient ?? null;
    verdict = await handToBounceHandling(ctx, { raw, userId, recipient: bounceRecipient });
    results.push({ recipient: bounceRecipient ?? '', kind: 'bounce', verdict });
  }
  await endSequencesOnReply(ctx, {
    parsed,
    raw,
    mailFrom,
    accounts: [...(userId ? [userId] : []), ...aliasRecipients.map((entry) => entry.kind.alias.userId)],
    verdictKind: verdict?.kind ?? null,
  });
  return { messageId, stored, recipients: results };
}

/**
 * Whether a message is a person's reply rather than an automatic one: not from the null sender
 * (bounces and reports), no RFC 3834 Auto-Submitted other than "no", and nothing bounce handling
 * classifies (an auto-reply, a bounce, a complaint, a delivery report).
 */
function isPersonalReply(parsed: ParsedMail, raw: Buffer, mailFrom: string, verdictKind: string | null): boolean {
  if (!mailFrom) return false;
  const autoSubmitted = headerText(parsed, 'auto-submitted')?.toLowerCase();
  if (autoSubmitted && autoSubmitted !== 'no') return false;
  return (verdictKind ?? classify(raw).kind) === 'other';
}

/**
 * A reply ends the sequence enrolment whose email it answers (exit reason 'replied'): its
 * In-Reply-To and References are matched to the Message-IDs of the sequence sends of the accounts
 * the message arrived for (the webhook's account, the owners of the aliases it was sent to), and
 * of no other account. Automatic replies leave enrolments as they are.
 */
async function endSequencesOnReply(
  ctx: AppContext,
  input: { parsed: ParsedMail; raw: Buffer; mailFrom: string; accounts: string[]; verdictKind: string | null },
): Promise<void> {
  if (input.accounts.length === 0) return;
  const references = input.parsed.references;
  const messageIds = repliedMessageIds(
    input.parsed.inReplyTo,
    typeof references === 'string' ? [references] : references,
  );
  if (messageIds.length === 0) return;
  if (!isPersonalReply(input.parsed, input.raw, input.mailFrom, input.verdictKind)) return;
  await endEnrolmentsOnReply(ctx.db, input.accounts, messageIds);
}
