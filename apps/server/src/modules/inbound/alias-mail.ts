import type { Db, DbOrTx } from '../../db/client.ts';
import {
  addressOf,
  decideRoute,
  ruleMatches,
  takeRoundRobinTurn,
  type AliasForMail,
  type RoutingDecision,
  type RoutingMessage,
} from '../aliases/index.ts';
import * as autoReplies from './auto-replies.repo.ts';
import * as ledger from './forwards.repo.ts';
import * as messages from './messages.repo.ts';

/**
 * Storing a message on the aliases it is for, in one step with what each decided and the forwards
 * to send, and settling a message's outcome once its forwards are done (the pipeline and the
 * forwarding jobs).
 */

/** One auto-reply per sender per alias in this window (RFC 3834 §2: "a reasonable period"). */
const AUTO_REPLY_WINDOW_MS = 7 * 86_400_000;
/** Auto-replies one account may send in a clock hour, whatever its aliases and senders. */
export const AUTO_REPLIES_PER_ACCOUNT_PER_HOUR = 100;

export type StoredRouting = {
  aliasId: number;
  duplicate: boolean;
  aliasMessageId: number;
  decision: RoutingDecision;
  /** Ledger rows to enqueue (forwards and the auto-reply). */
  forwardIds: number[];
};

/** One alias a message is for, with the envelope recipient that named it. */
export type AliasRecipient = { alias: AliasForMail; recipient: string };

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
      const inboundId = await messages.insertInboundMessage(tx, input.stored);
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
  const { inboundId, stored } = await messages.insertRoutedMessage(
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
    const earlier = await messages.findAliasMessage(db, alias.id, message.messageId);
    if (!earlier) throw new Error('alias message neither inserted nor found');
    routed.push(duplicateOf(earlier));
  }
  return { inboundId, routed };
}

/** What routing decides for the message on this alias, given the round-robin turn it took. */
function decide(alias: AliasForMail, message: RoutingMessage, roundRobinTurn: number): RoutingDecision {
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
  alias: AliasForMail,
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
    alias: AliasForMail;
    inboundMessageId: number;
    recipient: string;
    message: RoutingMessage;
    isTest: boolean;
    now: Date;
  },
): Promise<StoredRouting> {
  const { alias, message, now } = input;
  const row = await messages.insertAliasMessage(tx, {
    ...aliasMessageValues(alias, input.recipient, message, input.isTest, now),
    inboundMessageId: input.inboundMessageId,
    messageId: message.messageId,
    outcome: 'queued',
    detail: 'Received',
  });
  if (!row) {
    const stored = await messages.findAliasMessage(tx, alias.id, message.messageId);
    if (!stored) throw new Error('alias message neither inserted nor found');
    return duplicateOf(stored);
  }
  const ruleMatched = alias.routing.rules.some((rule) => ruleMatches(rule.conditions, message));
  const roundRobinTurn =
    alias.forwardingType === 'round_robin' && !ruleMatched ? await takeRoundRobinTurn(tx, alias.id) : 0;
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
  await messages.setAliasMessageDecision(tx, row.id, decisionValues(decision));
  const forwards = await ledger.insertForwards(
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
async function takeAutoReplyTurns(tx: DbOrTx, alias: AliasForMail, sender: string, now: Date): Promise<string | null> {
  const hour = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
  if (!(await autoReplies.takeAutoReplyHour(tx, alias.userId, hour, AUTO_REPLIES_PER_ACCOUNT_PER_HOUR)))
    return `the account sent ${AUTO_REPLIES_PER_ACCOUNT_PER_HOUR} auto-replies this hour`;
  if (await autoReplies.takeAutoReplyTurn(tx, alias.id, sender, now, AUTO_REPLY_WINDOW_MS)) return null;
  await autoReplies.returnAutoReplyHour(tx, alias.userId, hour);
  return `${sender} had one in the last 7 days`;
}

function duplicateOf(row: messages.AliasMessageRow): StoredRouting {
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

/** settleMessageOutcome for many messages at once (two statements whatever their number). */
export async function settleMessageOutcomes(db: DbOrTx, aliasMessageIds: number[]): Promise<void> {
  const byMessage = new Map<number, ledger.ForwardRow[]>();
  const failedReplies = new Map<number, ledger.ForwardRow>();
  for (const forward of await ledger.forwardsOfMessages(db, aliasMessageIds)) {
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
  await messages.setAliasMessageOutcomes(db, outcomes);
}
