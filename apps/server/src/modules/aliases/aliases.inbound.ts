import type { DbOrTx } from '../../db/client.ts';
import * as repo from './aliases.repo.ts';
import { addressOf } from './aliases.service.ts';
import { decideRoute, ruleMatches, type RoutingDecision, type RoutingMessage } from './routing.ts';

/**
 * What the inbound pipeline (modules/inbound) asks of aliases: which alias an address is, routing
 * and storing a message on it in one step, and the forwarding ledger its jobs work through.
 */

export type { AliasWithDomain, ForwardRow, AliasMessageRow } from './aliases.repo.ts';
export { addressOf };

/** One auto-reply per sender per alias in this window (RFC 3834 §2: "a reasonable period"). */
export const AUTO_REPLY_WINDOW_MS = 7 * 86_400_000;

/**
 * The active alias mail to `address` is for: the exact alias, else the domain's catch-all. With
 * `userId` (the webhook's account), only that account's aliases; without (the SMTP server), only
 * aliases on domains whose DKIM record is verified.
 */
export async function aliasForAddress(
  db: DbOrTx,
  address: string,
  userId: string | null,
): Promise<repo.AliasWithDomain | undefined> {
  const at = address.lastIndexOf('@');
  if (at <= 0) return undefined;
  const local = address.slice(0, at).toLowerCase();
  const domain = address.slice(at + 1).toLowerCase();
  const [first] = await repo.aliasesForAddress(db, local, domain, userId);
  return first;
}

export async function aliasById(db: DbOrTx, id: number): Promise<repo.AliasWithDomain | undefined> {
  return repo.findAliasById(db, id);
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
  duplicate: boolean;
  aliasMessageId: number;
  decision: RoutingDecision;
  /** Ledger rows to enqueue (forwards and the auto-reply). */
  forwardIds: number[];
};

/**
 * Routes a message on an alias and stores the decision with its forwards, in `tx`. The message's
 * row is written first (unique on alias and Message-ID): a message already stored for this alias
 * is answered as a duplicate before anything else happens (no round-robin turn, no auto-reply
 * turn, no forward), and two copies arriving at once are told apart by the same index.
 */
export async function routeAndStore(
  tx: DbOrTx,
  input: {
    alias: repo.AliasWithDomain;
    inboundMessageId: number;
    recipient: string;
    message: RoutingMessage;
    isTest: boolean;
    now: Date;
  },
): Promise<StoredRouting> {
  const { alias, message, now } = input;
  const row = await repo.insertAliasMessage(tx, {
    userId: alias.userId,
    aliasId: alias.id,
    inboundMessageId: input.inboundMessageId,
    messageId: message.messageId,
    recipient: input.recipient,
    fromAddress: message.fromAddress || message.mailFrom,
    subject: message.subject.slice(0, 998),
    outcome: 'queued',
    detail: 'Received',
    isTest: input.isTest,
    receivedAt: now,
  });
  if (!row) {
    const stored = await repo.findAliasMessage(tx, alias.id, message.messageId);
    if (!stored) throw new Error('alias message neither inserted nor found');
    return duplicateOf(stored);
  }
  const rules = await repo.activeRulesOf(tx, alias.id);
  const destinations = await repo.activeDestinationsOf(tx, alias.id);
  const candidates = [
    ...(alias.destination ? [alias.destination] : []),
    ...destinations.map((d) => d.email),
    ...rules.flatMap((r) => r.actions.forwardTo),
  ];
  const confirmed = await repo.confirmedForwardEmails(tx, alias.userId, [...new Set(candidates)]);
  const ruleMatched = rules.some((rule) => ruleMatches(rule.conditions, message));
  const roundRobinTurn =
    alias.forwardingType === 'round_robin' && !ruleMatched ? await repo.takeRoundRobinTurn(tx, alias.id) : 0;
  const decision = decideRoute({
    alias: { ...alias, address: addressOf(alias) },
    rules,
    destinations,
    confirmed,
    message,
    roundRobinTurn,
  });
  if (
    decision.autoReply &&
    !(await repo.takeAutoReplyTurn(tx, alias.id, message.mailFrom, now, AUTO_REPLY_WINDOW_MS))
  ) {
    decision.autoReply = null;
    if (decision.outcome === 'auto_replied') {
      decision.outcome = 'unrouted';
      decision.detail = `No auto-reply: ${message.mailFrom} had one in the last 7 days`;
    }
  }
  await repo.setAliasMessageDecision(tx, row.id, {
    outcome: decision.outcome,
    detail: decision.detail,
    ruleId: decision.rule?.id ?? null,
    ruleName: decision.rule?.name ?? null,
    forwardedTo: decision.forwardTo,
    autoReplied: decision.autoReply !== null,
  });
  const forwards = await repo.insertForwards(tx, [
    ...decision.forwardTo.map((toEmail) => ({
      userId: alias.userId,
      aliasId: alias.id,
      aliasMessageId: row.id,
      kind: 'forward',
      toEmail,
    })),
    ...(decision.autoReply
      ? [
          {
            userId: alias.userId,
            aliasId: alias.id,
            aliasMessageId: row.id,
            kind: 'auto_reply',
            toEmail: message.mailFrom,
          },
        ]
      : []),
  ]);
  return { duplicate: false, aliasMessageId: row.id, decision, forwardIds: forwards.map((f) => f.id) };
}

function duplicateOf(row: repo.AliasMessageRow): StoredRouting {
  return {
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
export const forwardOwner = repo.forwardOwner;
export const deferForward = repo.deferForward;
export const finishForward = repo.finishForward;
export const forwardContext = repo.forwardContext;
export const forwardContexts = repo.forwardContexts;
export const findInboundRaws = repo.findInboundRaws;
export const finishForwardsSent = repo.finishForwardsSent;
export const findInboundRaw = repo.findInboundRaw;
export const insertInboundMessage = repo.insertInboundMessage;
export const strandedForwards = repo.strandedForwards;
export const recordSrsAddress = repo.recordSrsAddress;
export const findSrsAddress = repo.findSrsAddress;
export const takeSrsBounceTurn = repo.takeSrsBounceTurn;

/** Once every forward of a message is done: 'forwarded' when one arrived, 'failed' when none did. */
export async function settleMessageOutcome(db: DbOrTx, aliasMessageId: number): Promise<void> {
  await settleMessageOutcomes(db, [aliasMessageId]);
}

/** settleMessageOutcome for many messages at once (two statements whatever their number). */
export async function settleMessageOutcomes(db: DbOrTx, aliasMessageIds: number[]): Promise<void> {
  const byMessage = new Map<number, repo.ForwardRow[]>();
  for (const forward of await repo.forwardsOfMessages(db, aliasMessageIds)) {
    if (forward.kind !== 'forward') continue;
    byMessage.set(forward.aliasMessageId, [...(byMessage.get(forward.aliasMessageId) ?? []), forward]);
  }
  const outcomes: { id: number; outcome: string; detail: string }[] = [];
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
