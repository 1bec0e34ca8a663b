import { createHash } from 'node:crypto';
import type { AliasMessageOutcome } from '@sendwell/contract/aliases';
import type { StoredRuleActions, StoredRuleConditions } from './aliases.repo.ts';

/**
 * Where one message to one alias goes, decided from the alias's own settings (spec part 2 §3, §5):
 * active rules by ascending priority, the first whose conditions all hold decides (block, forwardTo,
 * autoReply); otherwise the alias's forwardingType. Only confirmed addresses receive anything.
 * Pure: the caller reads the rows, takes the round-robin turn, and stores the decision.
 */

/** More Received headers than this and a message is refused as looping (RFC 5321 §6.3 suggests 100; forwarders use less). */
const MAX_RECEIVED_HEADERS = 25;
/** Our own loop header: names every alias a message passed through. */
export const LOOP_HEADER = 'X-Sendwell-Loop';

export type RoutingAlias = {
  id: number;
  address: string;
  destination: string | null;
  forwardingType: string;
  autoReply: boolean;
  autoReplyMessage: string | null;
};
export type RoutingRule = {
  id: number;
  name: string;
  conditions: StoredRuleConditions;
  actions: StoredRuleActions;
};
export type RoutingDestination = { email: string; weight: number };

/** What routing needs of a message, read once by the parser. */
export type RoutingMessage = {
  messageId: string;
  /** The envelope sender; '' for a null sender (<>), as bounces have. */
  mailFrom: string;
  /** The From header's address, lower-cased; '' when none. */
  fromAddress: string;
  subject: string;
  /**
   * The sender address the message proves (an aligned DKIM signature that verifies, or SPF for the
   * envelope sender over SMTP; inbound/sender-auth.ts), or null: the only address an auto-reply may go to.
   */
  authenticatedSender: string | null;
  hasAttachment: boolean;
  receivedCount: number;
  /** Values of our loop header (alias addresses it passed). */
  loopAliases: string[];
  /** RFC 3834 and list headers that forbid an automatic reply. */
  autoSubmitted: string | null;
  precedence: string | null;
  listId: string | null;
};

export type RoutingDecision = {
  outcome: AliasMessageOutcome;
  detail: string;
  /** Confirmed addresses to forward to. */
  forwardTo: string[];
  /** Addresses that would have received it but are not confirmed. */
  skippedUnconfirmed: string[];
  rule: { id: number; name: string } | null;
  blocked: boolean;
  /** The auto-reply to send to the authenticated sender, when one is due (the 7-day and hourly turns are the caller's). */
  autoReply: { message: string; to: string } | null;
};

const NO_REPLY_LOCAL = /^(no-?reply|do-?not-?reply|mailer-daemon|postmaster|bounces?)([+._-].*)?$/i;

/** Why an auto-reply must not go to this message (RFC 3834 §2), or null when it may. */
export function autoReplyRefusal(message: RoutingMessage): string | null {
  if (message.mailFrom === '') return 'null sender';
  if (!message.authenticatedSender) return 'the sender is not authenticated (DKIM or SPF)';
  const auto = message.autoSubmitted?.trim().toLowerCase();
  if (auto && auto !== 'no') return `Auto-Submitted: ${auto}`;
  const precedence = message.precedence?.trim().toLowerCase();
  if (precedence && ['bulk', 'list', 'junk'].includes(precedence)) return `Precedence: ${precedence}`;
  if (message.listId) return 'a mailing list (List-Id)';
  if (NO_REPLY_LOCAL.test(message.mailFrom.split('@')[0] ?? '')) return 'a no-reply sender';
  if (NO_REPLY_LOCAL.test(message.authenticatedSender.split('@')[0] ?? '')) return 'a no-reply sender';
  return null;
}

/** Whether every condition the rule gives holds for the message (no conditions: every message). */
export function ruleMatches(conditions: StoredRuleConditions, message: RoutingMessage): boolean {
  if (conditions.fromDomain) {
    const want = conditions.fromDomain.toLowerCase();
    const domain = (message.fromAddress || message.mailFrom).split('@').pop()?.toLowerCase() ?? '';
    if (domain !== want && !domain.endsWith(`.${want}`)) return false;
  }
  if (conditions.subjectContains && !message.subject.toLowerCase().includes(conditions.subjectContains.toLowerCase()))
    return false;
  if (conditions.hasAttachment !== undefined && conditions.hasAttachment !== message.hasAttachment) return false;
  return true;
}

/** A number in [0, 1) from the Message-ID: the same message always takes the same split. */
export function splitPoint(messageId: string, aliasId: number): number {
  return createHash('sha256').update(`${aliasId}\u0000${messageId}`).digest().readUInt32BE(0) / 2 ** 32;
}

/** The destination chosen by weight for this point (destinations in a stable order). */
export function pickByWeight<T extends { weight: number }>(destinations: T[], point: number): T | undefined {
  const total = destinations.reduce((sum, d) => sum + Math.max(0, d.weight), 0);
  if (total <= 0) return undefined;
  let at = point * total;
  for (const destination of destinations) {
    at -= Math.max(0, destination.weight);
    if (at < 0) return destination;
  }
  return destinations.at(-1);
}

/**
 * Decides what becomes of a message on an alias. `confirmed` holds the alias owner's confirmed
 * forwarding addresses; `roundRobinTurn` the turn this message took (round_robin only).
 */
export function decideRoute(input: {
  alias: RoutingAlias;
  rules: RoutingRule[];
  destinations: RoutingDestination[];
  confirmed: ReadonlySet<string>;
  message: RoutingMessage;
  roundRobinTurn: number;
}): RoutingDecision {
  const { alias, message, confirmed } = input;
  const refused = (detail: string): RoutingDecision => ({
    outcome: 'refused',
    detail,
    forwardTo: [],
    skippedUnconfirmed: [],
    rule: null,
    blocked: false,
    autoReply: null,
  });
  if (message.receivedCount > MAX_RECEIVED_HEADERS)
    return refused(`Refused: ${message.receivedCount} Received headers (a mail loop)`);
  if (message.loopAliases.includes(alias.address))
    return refused(`Refused: it already passed through ${alias.address} (a mail loop)`);
  if (message.mailFrom === '') return refused('Refused: a null sender (a bounce or report) is never forwarded');

  const rule = input.rules.find((candidate) => ruleMatches(candidate.conditions, message));
  let targets: string[] = [];
  let autoReplyMessage: string | null = null;
  if (rule) {
    if (rule.actions.block)
      return {
        outcome: 'blocked',
        detail: `Blocked by rule ${rule.name}`,
        forwardTo: [],
        skippedUnconfirmed: [],
        rule: { id: rule.id, name: rule.name },
        blocked: true,
        autoReply: null,
      };
    targets = rule.actions.forwardTo;
    if (rule.actions.autoReply) autoReplyMessage = rule.actions.autoReplyMessage ?? alias.autoReplyMessage;
  } else {
    const usable = input.destinations.filter((d) => confirmed.has(d.email));
    switch (alias.forwardingType) {
      case 'conditional':
        break;
      case 'split': {
        const chosen = pickByWeight(usable, splitPoint(message.messageId, alias.id));
        targets = chosen ? [chosen.email] : input.destinations.map((d) => d.email);
        break;
      }
      case 'round_robin': {
        const chosen = usable.length > 0 ? usable[input.roundRobinTurn % usable.length] : undefined;
        targets = chosen ? [chosen.email] : input.destinations.map((d) => d.email);
        break;
      }
      default:
        targets = alias.destination ? [alias.destination] : input.destinations.map((d) => d.email);
    }
  }
  if (!rule && alias.autoReply && alias.autoReplyMessage) autoReplyMessage = alias.autoReplyMessage;

  const unique = [...new Set(targets)];
  const forwardTo = unique.filter((email) => confirmed.has(email));
  const skippedUnconfirmed = unique.filter((email) => !confirmed.has(email));
  const refusal = autoReplyMessage ? autoReplyRefusal(message) : null;
  const autoReply =
    autoReplyMessage && refusal === null && message.authenticatedSender
      ? { message: autoReplyMessage, to: message.authenticatedSender }
      : null;
  const ruleRef = rule ? { id: rule.id, name: rule.name } : null;
  const by = rule ? ` by rule ${rule.name}` : '';
  if (forwardTo.length > 0)
    return {
      outcome: 'queued',
      detail: `Forwarding to ${forwardTo.join(', ')}${by}`,
      forwardTo,
      skippedUnconfirmed,
      rule: ruleRef,
      blocked: false,
      autoReply,
    };
  if (autoReply)
    return {
      outcome: 'auto_replied',
      detail: `Auto-reply to ${autoReply.to}${by}`,
      forwardTo,
      skippedUnconfirmed,
      rule: ruleRef,
      blocked: false,
      autoReply,
    };
  const why =
    skippedUnconfirmed.length > 0
      ? `Not forwarded: ${skippedUnconfirmed.join(', ')} not confirmed yet`
      : alias.forwardingType === 'conditional' && !rule
        ? 'Not forwarded: no rule matched'
        : autoReplyMessage && refusal
          ? `No auto-reply: ${refusal}`
          : 'Not forwarded: no destination';
  return { outcome: 'unrouted', detail: why, forwardTo, skippedUnconfirmed, rule: ruleRef, blocked: false, autoReply };
}
