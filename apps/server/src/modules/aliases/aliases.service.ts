import {
  ALIAS_ACTIVITY_LIMIT,
  ALIAS_EXISTS,
  CATCH_ALL_ALIAS,
  CATCH_ALL_EXISTS,
  DESTINATION_EXISTS,
  FORWARDING_LOOP,
  FORWARDING_STATS_DAYS,
  NO_DESTINATION_SET,
  type AliasActivity,
  type CreateAliasInput,
  type CreateDestinationInput,
  type CreateRuleInput,
  type EmailAlias,
  type ForwardingDestination,
  type ForwardingRule,
  type ForwardingStats,
  type InboundMx,
  type ResendConfirmationResponse,
  type UpdateAliasInput,
  type UpdateDestinationBody,
  type UpdateRuleInput,
} from '@sendwell/contract/aliases';
import type { AppContext } from '../../context.ts';
import type { Config } from '../../config.ts';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import {
  CONFIRMATION_LINK_TTL_MS,
  CONFIRMATION_RESEND_WAIT_MS,
  checkedName,
  confirmationMail,
  installationSender,
  type LinkState,
} from '../../lib/confirmation-link.ts';
import { dnsResolver } from '../../lib/dns.ts';
import { readExpiringToken, signExpiringToken } from '../../lib/expiring-token.ts';
import type { UserRow } from '../auth/index.ts';
import { withinLimit } from '../rate-limits/index.ts';
import * as aliasRows from './aliases.repo.ts';
import * as rulesRepo from './rules.repo.ts';
import * as destinationsRepo from './destinations.repo.ts';
import * as addressesRepo from './forward-addresses.repo.ts';
import * as activityRepo from './activity.repo.ts';

const ALIAS_NOT_FOUND = 'Alias not found';
const DOMAIN_NOT_FOUND = 'Domain not found';
const RULE_NOT_FOUND = 'Forwarding rule not found';
const DESTINATION_NOT_FOUND = 'Destination not found';
/** Confirmation mails to forwarding addresses one account may send in an hour (each goes to someone else's mailbox). */
export const FORWARD_CONFIRMATIONS_PER_HOUR = 20;
const HOUR_MS = 60 * 60 * 1000;
/** What adding a forwarding address meets while the account's own address is unconfirmed (403). */
function forwardingNeedsConfirmedAccount(email: string): string {
  return `Confirm your own email address (${email}) before adding forwarding addresses: Sendwell mails each one a confirmation link, and sends nothing for an unconfirmed account. Use the link we sent you, or resend it from the banner.`;
}

/** Refuses (403), before anything is written, to add addresses to mail while the account is unconfirmed. */
function requireConfirmedForForwarding(account: Account, addresses: readonly (string | null | undefined)[]): void {
  if (account.emailConfirmedAt) return;
  if (addresses.some((address) => address))
    throw new AppError('forbidden', forwardingNeedsConfirmedAccount(account.email));
}

/** What the services need of the signed-in account. */
export type Account = Pick<UserRow, 'id' | 'email' | 'emailConfirmedAt' | 'firstName' | 'lastName'>;

export const addressOf = (alias: Pick<aliasRows.AliasWithDomain, 'alias' | 'domainName'>) =>
  `${alias.alias}@${alias.domainName}`;

// ── confirmation of forwarding addresses ────────────────────────────────────

/** The link that confirms an address as a forwarding target of one account: names the row and its address, expires. */
function forwardConfirmationLink(config: Config, row: { id: number; email: string }, now = new Date()): string {
  const token = signExpiringToken(
    config.sessionSecret,
    'forward-address',
    `${row.id}:${row.email}`,
    new Date(now.getTime() + CONFIRMATION_LINK_TTL_MS),
  );
  return `${config.publicUrl}/confirm-forwarding?token=${token}`;
}

/** Whether each address is confirmed for the account (its own confirmed sign-up address always is). */
async function confirmedSet(db: DbOrTx, account: Account, emails: string[]): Promise<Set<string>> {
  const confirmed = await addressesRepo.confirmedForwardEmails(db, account.id, emails);
  if (account.emailConfirmedAt && emails.includes(account.email)) confirmed.add(account.email);
  return confirmed;
}

/**
 * Makes sure `email` is known as a forwarding address of the account and, unless it is confirmed
 * (or mailed less than a minute ago, or the hourly limit is reached), mails it the confirmation
 * link. Answers its row after. A failed mail leaves it pending (the screens offer to resend).
 */
async function requestConfirmation(
  ctx: AppContext,
  account: Account,
  email: string,
  options: { explicit: boolean } = { explicit: false },
): Promise<addressesRepo.ForwardAddressRow> {
  let row = await addressesRepo.ensureForwardAddress(ctx.db, account.id, email);
  if (row.confirmedAt) return row;
  const now = new Date();
  if (email === account.email && account.emailConfirmedAt) {
    await addressesRepo.markForwardAddressConfirmed(ctx.db, row.id, now);
    return { ...row, confirmedAt: now };
  }
  // The minute's wait is claimed in one conditional UPDATE (two requests at once mail once), and the
  // hour's count is taken by the statement that counts this mail (rate-limits' window row): 40
  // requests at once send at most FORWARD_CONFIRMATIONS_PER_HOUR.
  const previous = row.confirmationSentAt;
  const claimed = await addressesRepo.claimForwardConfirmation(
    ctx.db,
    row.id,
    now,
    new Date(now.getTime() - CONFIRMATION_RESEND_WAIT_MS),
  );
  if (!claimed) {
    if (options.explicit)
      throw new AppError(
        'rate_limited',
        `We sent a link to ${email} less than a minute ago. Check that inbox (and its spam folder), or try again in a minute.`,
      );
    return row;
  }
  const release = () => addressesRepo.setForwardConfirmationSent(ctx.db, row.id, previous);
  if (!(await withinLimit(ctx.db, `forward-confirmations:${account.id}`, FORWARD_CONFIRMATIONS_PER_HOUR, HOUR_MS))) {
    await release();
    if (options.explicit)
      throw new AppError(
        'rate_limited',
        `You can send ${FORWARD_CONFIRMATIONS_PER_HOUR} confirmation links an hour. Try again later.`,
      );
    return row;
  }
  // Nothing the account typed goes to this stranger but its name, when it is a plain name.
  const requester = checkedName(account.firstName, account.lastName);
  const { html, text } = confirmationMail({
    heading: 'Confirm email forwarding',
    paragraphs: [
      `${requester ? `${requester}, a Sendwell user,` : 'A Sendwell user'} asked Sendwell to forward email to ${email}.`,
      'If you want to receive it, confirm below. Until then, nothing is forwarded to this address.',
    ],
    link: forwardConfirmationLink(ctx.config, row, now),
    buttonLabel: 'Confirm forwarding to this address',
    footnote:
      'The link works for 48 hours. If you did not expect this, ignore this email: nothing is forwarded to you without this confirmation.',
  });
  try {
    const result = await ctx.mailer.sendTransactional({
      userId: account.id,
      from: installationSender(ctx.config),
      to: email,
      subject: `Confirm forwarding to ${email}`,
      html,
      text,
    });
    if (result.status === 'suppressed') {
      await release();
      if (options.explicit)
        throw new AppError('bad_request', `${email} is on your suppression list, so no confirmation was sent to it.`);
      return row;
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    await release();
    if (options.explicit)
      throw new AppError(
        'bad_request',
        `The mail server did not accept the confirmation for ${email}: ${(error as Error).message}`,
      );
    return row;
  }
  row = { ...row, confirmationSentAt: now };
  return row;
}

/**
 * What the forwarding confirmation link in `token` is, and, when `confirm` is set and it is ready,
 * confirms the address. Whoever holds the mailbox confirms: the link proves the address's owner
 * agrees to receive forwarded mail, which is what the confirmation is for; no sign-in is asked.
 */
export async function forwardConfirmation(
  db: DbOrTx,
  secret: string,
  token: string,
  confirm: boolean,
): Promise<{ state: LinkState; email: string | null }> {
  const read = readExpiringToken(secret, 'forward-address', token);
  if (read.status === 'invalid') return { state: 'invalid', email: null };
  const colon = read.subject.indexOf(':');
  const id = Number(read.subject.slice(0, colon));
  const row = Number.isSafeInteger(id) && id > 0 ? await addressesRepo.findForwardAddressById(db, id) : undefined;
  if (!row || row.email !== read.subject.slice(colon + 1)) return { state: 'invalid', email: null };
  if (read.status === 'expired') return { state: 'expired', email: row.email };
  if (row.confirmedAt) return { state: 'already', email: row.email };
  if (!confirm) return { state: 'ready', email: row.email };
  await addressesRepo.markForwardAddressConfirmed(db, row.id, new Date());
  return { state: 'confirmed', email: row.email };
}

// ── views ───────────────────────────────────────────────────────────────────

async function toAliases(db: DbOrTx, account: Account, rows: aliasRows.AliasWithDomain[]): Promise<EmailAlias[]> {
  if (rows.length === 0) return [];
  const destinations = (await destinationsRepo.listDestinations(db, account.id)).filter((d) =>
    rows.some((row) => row.id === d.aliasId),
  );
  const emails = [
    ...new Set([
      ...rows.flatMap((row) => (row.destination ? [row.destination] : [])),
      ...destinations.map((d) => d.email),
    ]),
  ];
  const confirmed = await confirmedSet(db, account, emails);
  const verifiedDomains = await aliasRows.verifiedDomainIds(db, account.id, [...new Set(rows.map((r) => r.domainId))]);
  const addressRows = new Map(
    (await addressesRepo.forwardAddressesOf(db, account.id, emails)).map((r) => [r.email, r]),
  );
  return rows.map((row) => {
    const destinationConfirmed = row.destination ? confirmed.has(row.destination) : null;
    const isVerified =
      destinationConfirmed ?? destinations.some((d) => d.aliasId === row.id && d.isActive && confirmed.has(d.email));
    return {
      id: row.id,
      domainId: row.domainId,
      alias: row.alias,
      address: addressOf(row),
      destination: row.destination,
      isVerified,
      isActive: row.isActive,
      domainVerified: verifiedDomains.has(row.domainId),
      createdAt: row.createdAt.toISOString(),
      forwardingType: row.forwardingType as EmailAlias['forwardingType'],
      description: row.description,
      autoReply: row.autoReply,
      autoReplyMessage: row.autoReplyMessage,
      isCatchAll: row.alias === CATCH_ALL_ALIAS,
      destinationConfirmed,
      confirmationSentAt: row.destination
        ? (addressRows.get(row.destination)?.confirmationSentAt?.toISOString() ?? null)
        : null,
    };
  });
}

async function toAlias(db: DbOrTx, account: Account, row: aliasRows.AliasWithDomain): Promise<EmailAlias> {
  const [alias] = await toAliases(db, account, [row]);
  if (!alias) throw new Error('alias view missing');
  return alias;
}

function toRule(row: rulesRepo.RuleRow, confirmed: Set<string>): ForwardingRule {
  return {
    id: row.id,
    name: row.name,
    priority: row.priority,
    isActive: row.isActive,
    conditions: row.conditions,
    actions: row.actions,
    aliasId: row.aliasId,
    createdAt: row.createdAt.toISOString(),
    pendingForwardTo: row.actions.forwardTo.filter((email) => !confirmed.has(email)),
  };
}

function toDestination(
  row: destinationsRepo.DestinationRow,
  address: addressesRepo.ForwardAddressRow | undefined,
  confirmed: boolean,
) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    weight: row.weight,
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
    aliasId: row.aliasId,
    isConfirmed: confirmed,
    confirmationSentAt: address?.confirmationSentAt?.toISOString() ?? null,
  } satisfies ForwardingDestination;
}

// ── loops ───────────────────────────────────────────────────────────────────

/**
 * Refuses (400 FORWARDING_LOOP) forwarding from `fromAliasId` to `targets` when one of them is an
 * alias of the same account from which mail comes back to this alias (directly or through others).
 */
async function refuseLoop(db: DbOrTx, userId: string, fromAliasId: number, targets: string[]): Promise<void> {
  const aliases = await aliasRows.aliasesOfUser(db, userId);
  if (aliases.length === 0) return;
  const byAddress = new Map(aliases.map((alias) => [addressOf(alias), alias]));
  const catchAllByDomain = new Map(
    aliases.filter((alias) => alias.alias === CATCH_ALL_ALIAS).map((alias) => [alias.domainName, alias]),
  );
  const aliasFor = (email: string) =>
    byAddress.get(email) ?? catchAllByDomain.get(email.slice(email.lastIndexOf('@') + 1));
  const rules = await rulesRepo.listRules(db, userId);
  const destinations = await destinationsRepo.listDestinations(db, userId);
  const targetsOf = (alias: aliasRows.AliasWithDomain) => [
    ...(alias.destination ? [alias.destination] : []),
    ...destinations.filter((d) => d.aliasId === alias.id).map((d) => d.email),
    ...rules.filter((r) => r.aliasId === alias.id).flatMap((r) => r.actions.forwardTo),
  ];
  const seen = new Set<number>();
  const pending = targets.map(aliasFor).filter((alias): alias is aliasRows.AliasWithDomain => alias !== undefined);
  while (pending.length > 0) {
    const alias = pending.pop() as aliasRows.AliasWithDomain;
    if (alias.id === fromAliasId) throw new AppError('bad_request', FORWARDING_LOOP, { destination: FORWARDING_LOOP });
    if (seen.has(alias.id)) continue;
    seen.add(alias.id);
    for (const next of targetsOf(alias).map(aliasFor)) if (next) pending.push(next);
  }
}

// ── aliases ─────────────────────────────────────────────────────────────────

async function ownedAlias(db: DbOrTx, userId: string, id: number): Promise<aliasRows.AliasWithDomain> {
  const alias = await aliasRows.findAlias(db, userId, id);
  if (!alias) throw new AppError('not_found', ALIAS_NOT_FOUND);
  return alias;
}

/** GET /api/domains/:id/aliases: the aliases of the account's domain (404 for a domain not its own). */
export async function listAliases(db: DbOrTx, account: Account, domainId: number): Promise<EmailAlias[]> {
  if (!(await aliasRows.findOwnedDomain(db, account.id, domainId))) throw new AppError('not_found', DOMAIN_NOT_FOUND);
  return toAliases(db, account, await aliasRows.listAliases(db, account.id, domainId));
}

/** One alias of the account (404 otherwise). */
export async function getAlias(db: DbOrTx, account: Account, id: number): Promise<EmailAlias> {
  return toAlias(db, account, await ownedAlias(db, account.id, id));
}

/**
 * POST /api/domains/:id/aliases: adds an alias to the account's domain (409 when the domain has
 * it, or a second catch-all), and mails its destination the confirmation link.
 */
export async function createAlias(
  ctx: AppContext,
  account: Account,
  domainId: number,
  input: CreateAliasInput,
): Promise<EmailAlias> {
  const domain = await aliasRows.findOwnedDomain(ctx.db, account.id, domainId);
  if (!domain) throw new AppError('not_found', DOMAIN_NOT_FOUND);
  requireConfirmedForForwarding(account, [input.destination]);
  const conflict = input.alias === CATCH_ALL_ALIAS ? CATCH_ALL_EXISTS : ALIAS_EXISTS;
  if (input.destination) {
    if (input.destination === `${input.alias}@${domain.domain}`)
      throw new AppError('bad_request', FORWARDING_LOOP, { destination: FORWARDING_LOOP });
    await refuseLoopForNew(ctx.db, account.id, `${input.alias}@${domain.domain}`, input.destination);
  }
  const row = await aliasRows.insertAlias(ctx.db, {
    userId: account.id,
    domainId,
    alias: input.alias,
    destination: input.destination,
    forwardingType: input.forwardingType,
    description: input.description,
    autoReply: input.autoReply,
    autoReplyMessage: input.autoReplyMessage,
  });
  if (!row) throw new AppError('conflict', conflict, { alias: conflict });
  if (row.destination) await requestConfirmation(ctx, account, row.destination);
  return toAlias(ctx.db, account, { ...row, domainName: domain.domain });
}

/** A new alias has no id yet: a loop exists when its destination leads back to its own address. */
async function refuseLoopForNew(db: DbOrTx, userId: string, address: string, destination: string): Promise<void> {
  const aliases = await aliasRows.aliasesOfUser(db, userId);
  const byAddress = new Map(aliases.map((alias) => [addressOf(alias), alias]));
  const rules = await rulesRepo.listRules(db, userId);
  const destinations = await destinationsRepo.listDestinations(db, userId);
  const seen = new Set<string>();
  const pending = [destination];
  while (pending.length > 0) {
    const email = pending.pop() as string;
    if (email === address) throw new AppError('bad_request', FORWARDING_LOOP, { destination: FORWARDING_LOOP });
    if (seen.has(email)) continue;
    seen.add(email);
    const alias = byAddress.get(email);
    if (!alias) continue;
    if (alias.destination) pending.push(alias.destination);
    for (const d of destinations) if (d.aliasId === alias.id) pending.push(d.email);
    for (const r of rules) if (r.aliasId === alias.id) pending.push(...r.actions.forwardTo);
  }
}

/** PATCH /api/email-aliases/:id: the Overview settings; a new destination is mailed its link. */
export async function updateAlias(
  ctx: AppContext,
  account: Account,
  id: number,
  patch: UpdateAliasInput,
): Promise<EmailAlias> {
  const alias = await ownedAlias(ctx.db, account.id, id);
  if (patch.destination !== alias.destination) requireConfirmedForForwarding(account, [patch.destination]);
  if (patch.destination) await refuseLoop(ctx.db, account.id, alias.id, [patch.destination]);
  const row = await aliasRows.updateAlias(ctx.db, account.id, id, patch);
  if (!row) throw new AppError('not_found', ALIAS_NOT_FOUND);
  if (patch.destination && patch.destination !== alias.destination)
    await requestConfirmation(ctx, account, patch.destination);
  return toAlias(ctx.db, account, { ...row, domainName: alias.domainName });
}

/** DELETE /api/email-aliases/:id (its rules, destinations and log go with it). */
export async function deleteAlias(db: DbOrTx, userId: string, id: number): Promise<void> {
  if (!(await aliasRows.deleteAlias(db, userId, id))) throw new AppError('not_found', ALIAS_NOT_FOUND);
}

/** POST /api/email-aliases/:id/resend-confirmation: the destination's link again. */
export async function resendAliasConfirmation(
  ctx: AppContext,
  account: Account,
  id: number,
): Promise<ResendConfirmationResponse> {
  const alias = await ownedAlias(ctx.db, account.id, id);
  if (!alias.destination) throw new AppError('bad_request', NO_DESTINATION_SET);
  requireConfirmedForForwarding(account, [alias.destination]);
  return resend(ctx, account, alias.destination);
}

async function resend(ctx: AppContext, account: Account, email: string): Promise<ResendConfirmationResponse> {
  const before = await addressesRepo.ensureForwardAddress(ctx.db, account.id, email);
  if (before.confirmedAt || (email === account.email && account.emailConfirmedAt))
    return { sent: false, email, confirmationSentAt: before.confirmationSentAt?.toISOString() ?? null };
  const row = await requestConfirmation(ctx, account, email, { explicit: true });
  return { sent: true, email, confirmationSentAt: row.confirmationSentAt?.toISOString() ?? null };
}

/** GET /api/email-aliases/:id/activity: the last 100 messages, newest first. */
export async function aliasActivity(db: DbOrTx, userId: string, id: number): Promise<AliasActivity[]> {
  const alias = await ownedAlias(db, userId, id);
  return (await activityRepo.aliasActivity(db, alias.id, ALIAS_ACTIVITY_LIMIT)).map((row) => ({
    id: row.id,
    from: row.fromAddress,
    subject: row.subject,
    outcome: row.outcome as AliasActivity['outcome'],
    detail: row.detail,
    forwardedTo: row.forwardedTo,
    ruleName: row.ruleName,
    autoReplied: row.autoReplied,
    receivedAt: row.receivedAt.toISOString(),
  }));
}

// ── rules ───────────────────────────────────────────────────────────────────

/** GET /api/forwarding-rules?aliasId= (404 for an alias not the account's). */
export async function listRules(db: DbOrTx, account: Account, aliasId?: number): Promise<ForwardingRule[]> {
  if (aliasId !== undefined) await ownedAlias(db, account.id, aliasId);
  const rows = await rulesRepo.listRules(db, account.id, aliasId);
  const confirmed = await confirmedSet(db, account, [...new Set(rows.flatMap((row) => row.actions.forwardTo))]);
  return rows.map((row) => toRule(row, confirmed));
}

/** POST /api/forwarding-rules: each address in forwardTo not yet confirmed is mailed its link. */
export async function createRule(ctx: AppContext, account: Account, input: CreateRuleInput): Promise<ForwardingRule> {
  const alias = await ownedAlias(ctx.db, account.id, input.aliasId);
  const forwardTo = [...new Set(input.actions.forwardTo)];
  requireConfirmedForForwarding(account, forwardTo);
  if (forwardTo.includes(addressOf(alias)))
    throw new AppError('bad_request', FORWARDING_LOOP, { 'actions.forwardTo': FORWARDING_LOOP });
  await refuseLoop(ctx.db, account.id, alias.id, forwardTo);
  const row = await rulesRepo.insertRule(ctx.db, {
    userId: account.id,
    aliasId: alias.id,
    name: input.name,
    priority: input.priority,
    isActive: input.isActive,
    conditions: input.conditions,
    actions: { ...input.actions, forwardTo },
  });
  for (const email of forwardTo) await requestConfirmation(ctx, account, email);
  return toRule(row, await confirmedSet(ctx.db, account, forwardTo));
}

/**
 * PATCH /api/forwarding-rules/:id: new forwardTo addresses pass the same loop check as at creation
 * and are mailed their confirmation link (those already confirmed or mailed are not asked again).
 */
export async function updateRule(
  ctx: AppContext,
  account: Account,
  id: number,
  patch: UpdateRuleInput,
): Promise<ForwardingRule> {
  const existing = await rulesRepo.ruleOf(ctx.db, account.id, id);
  if (!existing) throw new AppError('not_found', RULE_NOT_FOUND);
  let added: string[] = [];
  let actions: UpdateRuleInput['actions'];
  if (patch.actions) {
    const alias = await ownedAlias(ctx.db, account.id, existing.aliasId);
    const forwardTo = [...new Set(patch.actions.forwardTo)];
    if (forwardTo.includes(addressOf(alias)))
      throw new AppError('bad_request', FORWARDING_LOOP, { 'actions.forwardTo': FORWARDING_LOOP });
    added = forwardTo.filter((email) => !existing.actions.forwardTo.includes(email));
    requireConfirmedForForwarding(account, added);
    await refuseLoop(ctx.db, account.id, alias.id, added);
    actions = { ...patch.actions, forwardTo };
  }
  const row = await rulesRepo.updateRule(ctx.db, account.id, id, {
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.isActive !== undefined ? { isActive: patch.isActive } : {}),
    ...(patch.priority !== undefined ? { priority: patch.priority } : {}),
    ...(patch.conditions !== undefined ? { conditions: patch.conditions } : {}),
    ...(actions !== undefined ? { actions } : {}),
  });
  if (!row) throw new AppError('not_found', RULE_NOT_FOUND);
  for (const email of added) await requestConfirmation(ctx, account, email);
  return toRule(row, await confirmedSet(ctx.db, account, row.actions.forwardTo));
}

/** DELETE /api/forwarding-rules/:id */
export async function deleteRule(db: DbOrTx, userId: string, id: number): Promise<void> {
  if (!(await rulesRepo.deleteRule(db, userId, id))) throw new AppError('not_found', RULE_NOT_FOUND);
}

// ── destinations ────────────────────────────────────────────────────────────

async function toDestinations(
  db: DbOrTx,
  account: Account,
  rows: destinationsRepo.DestinationRow[],
): Promise<ForwardingDestination[]> {
  const emails = [...new Set(rows.map((row) => row.email))];
  const confirmed = await confirmedSet(db, account, emails);
  const addresses = new Map((await addressesRepo.forwardAddressesOf(db, account.id, emails)).map((r) => [r.email, r]));
  return rows.map((row) => toDestination(row, addresses.get(row.email), confirmed.has(row.email)));
}

/** GET /api/forwarding-destinations?aliasId= */
export async function listDestinations(
  db: DbOrTx,
  account: Account,
  aliasId?: number,
): Promise<ForwardingDestination[]> {
  if (aliasId !== undefined) await ownedAlias(db, account.id, aliasId);
  return toDestinations(db, account, await destinationsRepo.listDestinations(db, account.id, aliasId));
}

/** POST /api/forwarding-destinations: Pending until the address follows the link mailed to it. */
export async function createDestination(
  ctx: AppContext,
  account: Account,
  input: CreateDestinationInput,
): Promise<ForwardingDestination> {
  const alias = await ownedAlias(ctx.db, account.id, input.aliasId);
  requireConfirmedForForwarding(account, [input.email]);
  if (input.email === addressOf(alias)) throw new AppError('bad_request', FORWARDING_LOOP, { email: FORWARDING_LOOP });
  await refuseLoop(ctx.db, account.id, alias.id, [input.email]);
  const row = await destinationsRepo.insertDestination(ctx.db, {
    userId: account.id,
    aliasId: alias.id,
    email: input.email,
    name: input.name,
    weight: input.weight,
  });
  if (!row) throw new AppError('conflict', DESTINATION_EXISTS, { email: DESTINATION_EXISTS });
  await requestConfirmation(ctx, account, row.email);
  const [view] = await toDestinations(ctx.db, account, [row]);
  if (!view) throw new Error('destination view missing');
  return view;
}

/** PATCH /api/forwarding-destinations/:id */
export async function updateDestination(
  db: DbOrTx,
  account: Account,
  id: number,
  patch: UpdateDestinationBody,
): Promise<ForwardingDestination> {
  const row = await destinationsRepo.updateDestination(db, account.id, id, patch);
  if (!row) throw new AppError('not_found', DESTINATION_NOT_FOUND);
  const [view] = await toDestinations(db, account, [row]);
  if (!view) throw new Error('destination view missing');
  return view;
}

/** DELETE /api/forwarding-destinations/:id */
export async function deleteDestination(db: DbOrTx, userId: string, id: number): Promise<void> {
  if (!(await destinationsRepo.deleteDestination(db, userId, id)))
    throw new AppError('not_found', DESTINATION_NOT_FOUND);
}

/** POST /api/forwarding-destinations/:id/resend-confirmation */
export async function resendDestinationConfirmation(
  ctx: AppContext,
  account: Account,
  id: number,
): Promise<ResendConfirmationResponse> {
  const row = await destinationsRepo.findDestination(ctx.db, account.id, id);
  if (!row) throw new AppError('not_found', DESTINATION_NOT_FOUND);
  requireConfirmedForForwarding(account, [row.email]);
  return resend(ctx, account, row.email);
}

// ── stats ───────────────────────────────────────────────────────────────────

const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * GET /api/forwarding-stats?aliasId=: counted from the stored messages and forwards. successRate is
 * forwards accepted by the destination's server over forwards attempted (sent + failed), in percent.
 */
export async function forwardingStats(
  db: DbOrTx,
  account: Account,
  aliasId?: number,
  now = new Date(),
): Promise<ForwardingStats> {
  if (aliasId !== undefined) await ownedAlias(db, account.id, aliasId);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = new Date(today - (FORWARDING_STATS_DAYS - 1) * 86_400_000);
  const { messages, totals } = await activityRepo.dailyCounts(db, account.id, aliasId, first);
  const byDay = new Map(messages.map((entry) => [entry.day, entry]));
  const days = Array.from({ length: FORWARDING_STATS_DAYS }, (_, index) => {
    const date = utcDay(new Date(first.getTime() + index * 86_400_000));
    const entry = byDay.get(date);
    return {
      date,
      received: entry?.received ?? 0,
      forwarded: entry?.forwarded ?? 0,
      blocked: entry?.blocked ?? 0,
      autoReplied: entry?.autoReplied ?? 0,
      failed: entry?.failed ?? 0,
    };
  });
  const attempted = totals.forwarded + totals.failed;
  return {
    totalForwarded: totals.forwarded,
    totalBlocked: totals.blocked,
    totalAutoReplied: totals.autoReplied,
    successRate: attempted === 0 ? null : Math.round((totals.forwarded / attempted) * 1000) / 10,
    totalReceived: totals.received,
    totalAttempted: attempted,
    totalFailed: totals.failed,
    totalUnrouted: totals.unrouted,
    totalTests: totals.tests,
    days,
  };
}

// ── the Email Forwarding tab's MX record ─────────────────────────────────────

/** The priority the setup guide asks for. */
const INBOUND_MX_PRIORITY = 10;

/**
 * GET /api/domains/:id/inbound-mx: the MX record that brings the domain's mail to this
 * installation's inbound SMTP server, and what DNS holds for it now (looked up on each call).
 */
export async function inboundMx(db: DbOrTx, config: Config, userId: string, domainId: number): Promise<InboundMx> {
  const domain = await aliasRows.findOwnedDomain(db, userId, domainId);
  if (!domain) throw new AppError('not_found', DOMAIN_NOT_FOUND);
  const want = config.inboundSmtp.mxHost.toLowerCase().replace(/\.$/, '');
  const lookup = await dnsResolver(config.dnsServers).resolveMx(domain.domain);
  const record = {
    type: 'MX' as const,
    host: domain.domain,
    priority: INBOUND_MX_PRIORITY,
    value: want,
  };
  const checkedAt = new Date().toISOString();
  const smtpEnabled = config.inboundSmtp.port !== null;
  if (lookup.kind === 'failed')
    return {
      domainId,
      domain: domain.domain,
      smtpEnabled,
      record: { ...record, status: 'missing', found: null, note: `DNS did not answer (${lookup.code}); try again.` },
      checkedAt,
    };
  if (lookup.kind === 'none')
    return {
      domainId,
      domain: domain.domain,
      smtpEnabled,
      record: { ...record, status: 'missing', found: null, note: `No MX record on ${domain.domain} yet.` },
      checkedAt,
    };
  if (lookup.kind === 'null-mx')
    return {
      domainId,
      domain: domain.domain,
      smtpEnabled,
      record: {
        ...record,
        status: 'wrong',
        found: '0 .',
        note: `${domain.domain} publishes a null MX (it accepts no mail); replace it with ${want}.`,
      },
      checkedAt,
    };
  const sorted = lookup.records;
  const found = sorted.map((r) => `${r.priority} ${r.exchange}`).join('\n');
  const best = sorted[0]?.exchange.toLowerCase().replace(/\.$/, '');
  const ours = sorted.some((r) => r.exchange.toLowerCase().replace(/\.$/, '') === want);
  const status = best === want ? 'verified' : 'wrong';
  const note =
    status === 'verified'
      ? null
      : ours
        ? `${want} is listed, but not with the lowest priority: mail goes to ${best} first.`
        : `The MX record points elsewhere; set it to ${want}.`;
  return { domainId, domain: domain.domain, smtpEnabled, record: { ...record, status, found, note }, checkedAt };
}
