import type { Db, DbOrTx } from '../../db/client.ts';
import * as repo from './aliases.repo.ts';
import { addressOf } from './aliases.service.ts';
import { decideRoute, ruleMatches, type RoutingDecision, type RoutingMessage } from './routing.ts';

/**
 * What the inbound pipeline (modules/inbound) asks of aliases: which alias an address is, routing
 * and storing a message on it in one step, and the forwarding ledger its jobs work through.
 */

export type { AliasWithDomain, AliasForMail, ForwardRow, AliasMessageRow } from './aliases.repo.ts';
export { addressOf };

/** One auto-reply per sender per alias in this window (RFC 3834 §2: "a reasonable period"). */
const AUTO_REPLY_WINDOW_MS = 7 * 86_400_000;
/** Auto-replies one account may send in a clock hour, whatever its aliases and senders. */
export const AUTO_REPLIES_PER_ACCOUNT_PER_HOUR = 100;

/** Whether the alias could auto-reply to anything (its own setting or an active rule's): only then is the sender's proof sought. */
export function mayAutoReply(alias: repo.AliasForMail): boolean {
  return (
    (alias.autoReply && Boolean(alias.autoReplyMessage)) || alias.routing.rules.some((rule) => rule.actions.autoReply)
  );
}

/**
 * The active alias mail to `address` is for: the exact alias, else the domain's catch-all, with
 * what routing reads of it (its rules, destinations and confirmed addresses; one statement). Only
 * aliases on domains whose DKIM record is verified by the alias's account; with `userId` (the
 * webhook's account), only that account's aliases; without (the SMTP server), any account's.
 */
export async function aliasForAddress(
  db: DbOrTx,
  address: string,
  userId: string | null,
): Promise<repo.AliasForMail | undefined> {
  const at = address.lastIndexOf('@');
  if (at <= 0) return undefined;
  const local = address.slice(0, at).toLowerCase();
  const domain = address.slice(at + 1).toLowerCase();
  return repo.aliasForMail(db, local, domain, userId);
}

/** The account's alias by id (404 is the caller's). */
export async function ownAlias(db: DbOrTx, userId: string, id: number): Promise<repo.AliasWithDomain | undefined> {
  return repo.findAlias(db, userId, id);
}

/** Whether the alias could forward anywhere at all: a destination, destinations, or a rule that forwards. */
export async function aliasHasDestination(db: DbOrTx, alias: repo.AliasWithDomain): Promise<boolean> {
  if (alias.destination) return true;
  if ((await repo.countDestinations(db, alias.id)) > 0) return true;
  return (await repo.activeRulesOf(db, alias.id)).some((rule) => rule.actions.forwardTo.length > 0);
}

export type StoredRouting = {
  aliasId: number;
  duplicate: boolean;
  aliasMessageId: number;
  decision: RoutingDecision;
  /** Ledger rows to enqueue (forwards and the auto-reply). */
  forwardIds: number[];
};

/** One alias a message is for, with the envelope recipient that named it. */
export type AliasRecipient = { alias: repo.AliasForMail; recipient: string };

/**
 * Stores an inbound message and what each of its aliases decided (once per alias: the caller
 * passes each alias once), with the forwards to send. A message an alias has stored already (unique
 * on alias and Message-ID) is answered as a duplicate before anything else happens: no
 * round-robin turn, no auto-reply turn, no forward. Answers the stored message's id and each
 * alias's routing.
 *
 * Routing is decided from the alias data read with the alias (aliasForAddress). Most messages
 * need no turn (no round-robin destination, no auto-reply), and are stored in one statement; the
 * others in a transaction that takes each turn only once the record is known to be new.
 */
export async function storeInbound(
  db: Db,
  input: {
    stored: { messageId: string; mailFrom: string; via: string; raw: Buffer };
    recipients: AliasRecipient[];
    message: RoutingMessage;
    isTest: boolean;
    now: Date;
  },
): Promise<{ inboundId: number; routed: StoredRouting[] }> {
  const { message, now } = input;
  const planned = input.recipients.map(({ alias, recipient }) => {
    const ruleMatched = alias.routing.rules.some((rule) => ruleMatches(rule.conditions, message));
    const decision = decide(alias, message, 0);
    const needsTurn = (alias.forwardingType === 'round_robin' && !ruleMatched) || decision.autoReply !== null;
    return { alias, recipient, decision, needsTurn };
  });
  if (planned.some((plan) => plan.needsTurn))
    return db.transaction(async (tx) => {
      const inboundId = await repo.insertInboundMessage(tx, input.stored);
      const routed: StoredRouting[] = [];
      for (const { alias, recipient } of planned)
        routed.push(
          await routeAndStore(tx, {
            alias,
            inboundMessageId: inboundId,
            recipient,
            message,
            isTest: input.isTest,
            now,
          }),
        );
      return { inboundId, routed };
    });
  const { inboundId, stored } = await repo.insertRoutedMessage(
    db,
    input.stored,
    planned.map(({ alias, recipient, decision }) => ({
      ...aliasMessageValues(alias, recipient, message, input.isTest, now),
      ...decisionValues(decision),
      forwards: forwardsOf(decision),
    })),
  );
  const routed: StoredRouting[] = [];
  for (const { alias, decision } of planned) {
    const row = stored.find((entry) => entry.aliasId === alias.id);
    if (row) {
      routed.push({
        aliasId: alias.id,
        duplicate: false,
        aliasMessageId: row.aliasMessageId,
        decision,
        forwardIds: row.forwardIds,
      });
      continue;
    }
    const earlier = await repo.findAliasMessage(db, alias.id, message.messageId);
    if (!earlier) throw new Error('alias message neither inserted nor found');
    routed.push(duplicateOf(earlier));
  }
  return { inboundId, routed };
}

/** What routing decides for the message on this alias, given the round-robin turn it took. */
function decide(alias: repo.AliasForMail, message: RoutingMessage, roundRobinTurn: number): RoutingDecision {
  return decideRoute({
    alias: { ...alias, address: addressOf(alias) },
    rules: alias.routing.rules,
    destinations: alias.routing.destinations,
    confirmed: new Set(alias.routing.confirmed),
    message,
    roundRobinTurn,
  });
}

const aliasMessageValues = (
  alias: repo.AliasForMail,
  recipient: string,
  message: RoutingMessage,
  isTest: boolean,
  now: Date,
) => ({
  userId: alias.userId,
  aliasId: alias.id,
  recipient,
  fromAddress: message.fromAddress || message.mailFrom,
  subject: message.subject.slice(0, 998),
  isTest,
  receivedAt: now,
});

const decisionValues = (decision: RoutingDecision) => ({
  outcome: decision.outcome,
  detail: decision.detail,
  ruleId: decision.rule?.id ?? null,
  ruleName: decision.rule?.name ?? null,
  forwardedTo: decision.forwardTo,
  autoReplied: decision.autoReply !== null,
});

/** The ledger rows a decision makes: one per forward address, and the auto-reply to the authenticated sender. */
const forwardsOf = (decision: RoutingDecision) => [
  ...decision.forwardTo.map((toEmail) => ({ kind: 'forward', toEmail })),
  ...(decision.autoReply ? [{ kind: 'auto_reply', toEmail: decision.autoReply.to }] : []),
];

/**
 * Routes a message on an alias that takes a turn (round-robin, auto-reply) and stores the decision
 * with its forwards, in `tx`. The message's record is written first (unique on alias and
 * Message-ID): a message already stored for this alias is answered as a duplicate before any turn
 * is taken, and two copies arriving at once are told apart by the same index.
 */
async function routeAndStore(
  tx: DbOrTx,
  input: {
    alias: repo.AliasForMail;
    inboundMessageId: number;
    recipient: string;
    message: RoutingMessage;
    isTest: boolean;
    now: Date;
  },
): Promise<StoredRouting> {
  const { alias, message, now } = input;
  const row = await repo.insertAliasMessage(tx, {
    ...aliasMessageValues(alias, input.recipient, message, input.isTest, now),
    inboundMessageId: input.inboundMessageId,
    messageId: message.messageId,
    outcome: 'queued',
    detail: 'Received',
  });
  if (!row) {
    const stored = await repo.findAliasMessage(tx, alias.id, message.messageId);
    if (!stored) throw new Error('alias message neither inserted nor found');
    return duplicateOf(stored);
  }
  const ruleMatched = alias.routing.rules.some((rule) => ruleMatches(rule.conditions, message));
  const roundRobinTurn =
    alias.forwardingType === 'round_robin' && !ruleMatched ? await repo.takeRoundRobinTurn(tx, alias.id) : 0;
  const decision = decide(alias, message, roundRobinTurn);
  if (decision.autoReply) {
    const why = await takeAutoReplyTurns(tx, alias, decision.autoReply.to, now);
    if (why !== null) {
      decision.autoReply = null;
      if (decision.outcome === 'auto_replied') {
        decision.outcome = 'unrouted';
        decision.detail = `No auto-reply: ${why}`;
      }
    }
  }
  await repo.setAliasMessageDecision(tx, row.id, decisionValues(decision));
  const forwards = await repo.insertForwards(
    tx,
    forwardsOf(decision).map((forward) => ({
      userId: alias.userId,
      aliasId: alias.id,
      aliasMessageId: row.id,
      ...forward,
    })),
  );
  return {
    aliasId: alias.id,
    duplicate: false,
    aliasMessageId: row.id,
    decision,
    forwardIds: forwards.map((f) => f.id),
  };
}

/**
 * Takes both turns an auto-reply needs, in `tx` (the message's store transaction): the account's
 * hourly one (at most AUTO_REPLIES_PER_ACCOUNT_PER_HOUR, counted in the statement that takes it)
 * and the (alias, sender) one (one per AUTO_REPLY_WINDOW_MS). Answers null when both were taken,
 * else why not (and neither is kept: the hour's count is handed back when the sender's turn is refused).
 */
async function takeAutoReplyTurns(
  tx: DbOrTx,
  alias: repo.AliasForMail,
  sender: string,
  now: Date,
): Promise<string | null> {
  const hour = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
  if (!(await repo.takeAutoReplyHour(tx, alias.userId, hour, AUTO_REPLIES_PER_ACCOUNT_PER_HOUR)))
    return `the account sent ${AUTO_REPLIES_PER_ACCOUNT_PER_HOUR} auto-replies this hour`;
  if (await repo.takeAutoReplyTurn(tx, alias.id, sender, now, AUTO_REPLY_WINDOW_MS)) return null;
  await repo.returnAutoReplyHour(tx, alias.userId, hour);
  return `${sender} had one in the last 7 days`;
}

function duplicateOf(row: repo.AliasMessageRow): StoredRouting {
  return {
    aliasId: row.aliasId,
    duplicate: true,
    aliasMessageId: row.id,
    decision: {
      outcome: row.outcome as RoutingDecision['outcome'],
      detail: `Already received: ${row.detail}`,
      forwardTo: row.forwardedTo,
      skippedUnconfirmed: [],
      rule: row.ruleId !== null ? { id: row.ruleId, name: row.ruleName ?? '' } : null,
      blocked: row.outcome === 'blocked',
      autoReply: null,
    },
    forwardIds: [],
  };
}

// ── the forwarding ledger, for the jobs ─────────────────────────────────────

export const claimForward = repo.claimForward;
export const claimForwards = repo.claimForwards;
export const forwardOwners = repo.forwardOwners;
export const deferForwards = repo.deferForwards;
export const finishForward = repo.finishForward;
export const forwardContexts = repo.forwardContexts;
export const findInboundRaws = repo.findInboundRaws;
export const finishForwardsSent = repo.finishForwardsSent;
export const findInboundRaw = repo.findInboundRaw;
export const strandedForwards = repo.strandedForwards;
export const recordSrsAddresses = repo.recordSrsAddresses;
export const findSrsAddress = repo.findSrsAddress;
export const takeSrsBounceTurn = repo.takeSrsBounceTurn;
export const returnSrsBounceTurn = repo.returnSrsBounceTurn;
export const renewForwardClaims = repo.renewForwardClaims;

/**
 * Once every forward of a message is done: 'forwarded' when one arrived, 'failed' when none did; for
 * many messages at once (two statements whatever their number).
 */
export async function settleMessageOutcomes(db: DbOrTx, aliasMessageIds: number[]): Promise<void> {
  const byMessage = new Map<number, repo.ForwardRow[]>();
  const failedReplies = new Map<number, repo.ForwardRow>();
  for (const forward of await repo.forwardsOfMessages(db, aliasMessageIds)) {
    if (forward.kind === 'auto_reply' && forward.status === 'failed')
      failedReplies.set(forward.aliasMessageId, forward);
    if (forward.kind !== 'forward') continue;
    byMessage.set(forward.aliasMessageId, [...(byMessage.get(forward.aliasMessageId) ?? []), forward]);
  }
  const outcomes: { id: number; outcome: string; detail: string }[] = [];
  // A message that only had an auto-reply to send, which failed: the reason goes on the activity log.
  for (const [id, reply] of failedReplies)
    if (!byMessage.has(id))
      outcomes.push({
        id,
        outcome: 'failed',
        detail: `Auto-reply to ${reply.toEmail} failed: ${reply.error ?? 'refused'}`.slice(0, 1000),
      });
  for (const [id, forwards] of byMessage) {
    if (forwards.some((f) => ['pending', 'sending', 'deferred'].includes(f.status))) continue;
    const sent = forwards.filter((f) => f.status === 'sent').map((f) => f.toEmail);
    outcomes.push(
      sent.length > 0
        ? { id, outcome: 'forwarded', detail: `Forwarded to ${sent.join(', ')}` }
        : {
            id,
            outcome: 'failed',
            detail:
              `Forwarding failed: ${forwards.map((f) => `${f.toEmail} (${f.error ?? 'refused'})`).join(', ')}`.slice(
                0,
                1000,
              ),
          },
    );
  }
  await repo.setAliasMessageOutcomes(db, outcomes);
}

export const ruleOfAlias = repo.findRuleOfAlias;
