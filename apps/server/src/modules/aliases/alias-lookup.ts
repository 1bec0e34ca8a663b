import type { DbOrTx } from '../../db/client.ts';
import * as aliasRows from './aliases.repo.ts';
import type { AliasForMail, AliasWithDomain } from './aliases.repo.ts';
import * as destinations from './destinations.repo.ts';
import * as rules from './rules.repo.ts';

// What receiving mail reads of aliases (the inbound module): which alias an address is, with what
// routing reads of it, and the turn a round-robin alias takes.

/** Whether the alias could auto-reply to anything (its own setting or an active rule's): only then is the sender's proof sought. */
export function mayAutoReply(alias: AliasForMail): boolean {
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
): Promise<AliasForMail | undefined> {
  const at = address.lastIndexOf('@');
  if (at <= 0) return undefined;
  const local = address.slice(0, at).toLowerCase();
  const domain = address.slice(at + 1).toLowerCase();
  return aliasRows.aliasForMail(db, local, domain, userId);
}

/** The account's alias by id (404 is the caller's). */
export async function ownAlias(db: DbOrTx, userId: string, id: number): Promise<AliasWithDomain | undefined> {
  return aliasRows.findAlias(db, userId, id);
}

/** Whether the alias could forward anywhere at all: a destination, destinations, or a rule that forwards. */
export async function aliasHasDestination(db: DbOrTx, alias: AliasWithDomain): Promise<boolean> {
  if (alias.destination) return true;
  if ((await destinations.countDestinations(db, alias.id)) > 0) return true;
  return (await rules.activeRulesOf(db, alias.id)).some((rule) => rule.actions.forwardTo.length > 0);
}

/** Advances an alias's round-robin cursor; answers the value before (the turn this message takes). */
export function takeRoundRobinTurn(db: DbOrTx, aliasId: number): Promise<number> {
  return aliasRows.takeRoundRobinTurn(db, aliasId);
}

/** The alias's rule with this id (a forward names the rule that made it), if it has one. */
export function ruleOfAlias(db: DbOrTx, aliasId: number, ruleId: number): Promise<rules.RuleRow | undefined> {
  return rules.findRuleOfAlias(db, aliasId, ruleId);
}
