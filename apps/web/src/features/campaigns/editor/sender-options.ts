/** Sender names used when a domain has no aliases, or they cannot be loaded (spec §9); the first is the default. */
export const DEFAULT_SENDER_ALIASES = ['marketing', 'support', 'newsletter'] as const;

interface DomainLike {
  domain: string;
  isVerified: boolean;
}

/**
 * The company domain senders are formed at: the first domain (the server lists the primary one
 * first), else the domain of the user's own address.
 */
export function senderDomain(domains: readonly DomainLike[] | undefined, userEmail: string): string {
  const first = domains?.[0];
  if (first) return first.domain;
  const at = userEmail.lastIndexOf('@');
  return at >= 0 ? userEmail.slice(at + 1).toLowerCase() : userEmail.toLowerCase();
}

/**
 * The addresses the sender select offers (spec §2/§9): the first domain's aliases as
 * alias@domain, else marketing, support and newsletter at the company domain. `keep` (the
 * campaign's saved sender) is always offered, so reopening a draft never changes its sender.
 */
export function senderOptions({
  domains,
  aliases,
  userEmail,
  keep,
}: {
  domains: readonly DomainLike[] | undefined;
  aliases: readonly string[] | undefined;
  userEmail: string;
  keep?: string | null;
}): string[] {
  const domain = senderDomain(domains, userEmail);
  const names = aliases && aliases.length > 0 && domains && domains.length > 0 ? aliases : DEFAULT_SENDER_ALIASES;
  const options = [
    ...new Set(
      names
        .map((name) => name.trim().toLowerCase())
        .filter(Boolean)
        .map((name) => (name.includes('@') ? name : `${name}@${domain}`)),
    ),
  ];
  if (keep && !options.includes(keep.toLowerCase())) options.unshift(keep.toLowerCase());
  return options;
}

/** The default sender: marketing@… when offered (spec §9), else the first option. */
export function defaultSender(options: readonly string[]): string {
  return options.find((address) => address.startsWith(`${DEFAULT_SENDER_ALIASES[0]}@`)) ?? options[0] ?? '';
}

/** True when the address is at one of the user's verified domains (or a subdomain of one). */
export function isVerifiedSender(address: string, domains: readonly DomainLike[] | undefined): boolean {
  const at = address.lastIndexOf('@');
  if (at < 0) return false;
  const host = address.slice(at + 1).toLowerCase();
  return (domains ?? []).some((d) => d.isVerified && (host === d.domain || host.endsWith(`.${d.domain}`)));
}

/** The alias names in a GET /api/domains/:id/aliases answer (spec §3: each alias has an `alias` field). */
export function aliasNames(answer: unknown): string[] {
  if (!Array.isArray(answer)) return [];
  return answer.flatMap((item: unknown) => {
    if (typeof item === 'string') return [item];
    if (item && typeof item === 'object' && 'alias' in item && typeof item.alias === 'string') return [item.alias];
    return [];
  });
}
