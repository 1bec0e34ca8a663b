import { emailAliasListSchema } from '@sendwell/contract/aliases';
import type { SenderOverview } from '@sendwell/contract/sender-addresses';

/** Sender names offered on a verified domain when it has no aliases, or they cannot be loaded (spec §9); the first is the default. */
const DEFAULT_SENDER_ALIASES = ['marketing', 'support', 'newsletter'] as const;

/**
 * Why an address may be chosen: 'domain' (on a verified domain, signed by it), 'address' (the
 * account's own or a sender address, confirmed by its link), 'unconfirmed-account' (the account's own
 * address before its link is followed: a draft may use it, nothing is sent until it is confirmed).
 */
type SenderKind = 'domain' | 'address' | 'unconfirmed-account';
export type SenderChoice = { address: string; kind: SenderKind };

/**
 * Where the draft's sender stands: one of the choices' kinds, or 'pending' (a sender address whose
 * link has not been followed) or 'unproven' (nothing the account has proven: the server refuses it).
 */
export type SenderStanding = SenderKind | 'pending' | 'unproven';

const hostOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();
const onDomain = (address: string, domain: string) => {
  const host = hostOf(address);
  return host === domain || host.endsWith(`.${domain}`);
};

/**
 * The addresses the editor's sender choice offers: exactly those the account may send from.
 * On each verified domain (primary first) its active aliases as alias@domain (spec part 1 §2), or
 * else marketing, support and newsletter (spec §9); the account's own address (awaiting
 * confirmation until its link is followed); each confirmed sender address.
 */
export function senderChoices({
  overview,
  aliasesByDomain,
}: {
  overview: SenderOverview | undefined;
  /** Active alias names per (lower-cased) domain name, for the domains whose list could be loaded. */
  aliasesByDomain: Readonly<Record<string, readonly string[]>>;
}): SenderChoice[] {
  if (!overview) return [];
  const choices: SenderChoice[] = [];
  const add = (address: string, kind: SenderKind) => {
    const normalised = address.trim().toLowerCase();
    if (normalised && !choices.some((choice) => choice.address === normalised))
      choices.push({ address: normalised, kind });
  };
  for (const domain of overview.verifiedDomains) {
    const aliases = aliasesByDomain[domain.toLowerCase()];
    const names = aliases && aliases.length > 0 ? aliases : DEFAULT_SENDER_ALIASES;
    for (const name of names) add(`${name}@${domain}`, 'domain');
  }
  add(overview.accountEmail.email, overview.accountEmail.confirmed ? 'address' : 'unconfirmed-account');
  for (const sender of overview.addresses) if (sender.status === 'confirmed') add(sender.email, 'address');
  return choices;
}

/** Where `address` stands for this account (see SenderStanding). */
export function senderStanding(address: string, overview: SenderOverview | undefined): SenderStanding {
  const normalised = address.trim().toLowerCase();
  if (!overview || !normalised) return 'unproven';
  if (overview.verifiedDomains.some((domain) => onDomain(normalised, domain))) return 'domain';
  if (normalised === overview.accountEmail.email)
    return overview.accountEmail.confirmed ? 'address' : 'unconfirmed-account';
  const sender = overview.addresses.find((row) => row.email === normalised);
  if (!sender) return 'unproven';
  return sender.status === 'confirmed' ? 'address' : 'pending';
}

/** True when the account has proven at least one sender (a verified domain or a confirmed address). */
export function hasProvenSender(choices: readonly SenderChoice[]): boolean {
  return choices.some((choice) => choice.kind !== 'unconfirmed-account');
}

/** The default sender: marketing@ a verified domain when offered (spec §9), else the first choice. */
export function defaultSender(choices: readonly SenderChoice[]): string {
  return (
    choices.find((choice) => choice.kind === 'domain' && choice.address.startsWith(`${DEFAULT_SENDER_ALIASES[0]}@`))
      ?.address ??
    choices[0]?.address ??
    ''
  );
}

/**
 * The names of the active aliases in a GET /api/domains/:id/aliases answer: switched on and
 * confirmed (spec §4: Active once verified), never the catch-all (`*` is not an address to send from).
 * An answer that is not an alias list gives none.
 */
export function activeAliasNames(answer: unknown): string[] {
  const parsed = emailAliasListSchema.safeParse(answer);
  if (!parsed.success) return [];
  return parsed.data.filter((alias) => alias.isActive && alias.isVerified && !alias.isCatchAll).map((a) => a.alias);
}
