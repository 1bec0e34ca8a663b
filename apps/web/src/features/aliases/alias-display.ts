import type { AliasMessageOutcome, EmailAlias, ForwardingType } from '@sendwell/contract/aliases';

/**
 * What an alias's badge says: Pending until verified, then Active (spec §4); Off when switched off.
 * Active needs its destination confirmed and its domain verified: until the domain is, the alias
 * receives nothing (issue 34: an alias on an unverified domain showed Active).
 */
export type AliasStatus = 'active' | 'pending' | 'off';

export function aliasStatus(alias: Pick<EmailAlias, 'isVerified' | 'isActive' | 'domainVerified'>): AliasStatus {
  if (!alias.isActive) return 'off';
  return alias.isVerified && alias.domainVerified ? 'active' : 'pending';
}

/** Why an alias is still Pending, in words (null when it is not). */
export function aliasPendingReason(
  alias: Pick<EmailAlias, 'isVerified' | 'isActive' | 'domainVerified' | 'address'>,
): string | null {
  if (aliasStatus(alias) !== 'pending') return null;
  const domain = alias.address.slice(alias.address.lastIndexOf('@') + 1);
  if (!alias.domainVerified) return `Receives no mail until ${domain} is verified (DNS Records tab).`;
  return null;
}

export const ALIAS_STATUS_LABELS: Record<AliasStatus, string> = { active: 'Active', pending: 'Pending', off: 'Off' };

/** The forwarding types in words (spec §3: simple, conditional, split, round_robin). */
export const FORWARDING_TYPE_LABELS: Record<ForwardingType, { label: string; hint: string }> = {
  simple: { label: 'Simple', hint: 'Every message goes to the destination (without one, to each destination).' },
  conditional: { label: 'Conditional', hint: 'Only messages a rule matches are forwarded; the rest are not.' },
  split: { label: 'Split', hint: 'Each message goes to one confirmed destination, chosen by weight.' },
  round_robin: { label: 'Round robin', hint: 'Each message goes to the next confirmed destination in turn.' },
};

/** What became of a message, in words. */
export const OUTCOME_LABELS: Record<AliasMessageOutcome, string> = {
  queued: 'Queued',
  forwarded: 'Forwarded',
  blocked: 'Blocked',
  auto_replied: 'Auto-replied',
  unrouted: 'Not routed',
  refused: 'Refused',
  failed: 'Failed',
};

/** Badge colours by outcome: good green, stopped on purpose grey/amber, failure red. */
export const OUTCOME_STYLES: Record<AliasMessageOutcome, string> = {
  queued: 'border-transparent bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
  forwarded: 'border-transparent bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  blocked: 'border-transparent bg-zinc-200 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200',
  auto_replied: 'border-transparent bg-violet-100 text-violet-900 dark:bg-violet-950 dark:text-violet-200',
  unrouted: 'border-transparent bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  refused: 'border-transparent bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  failed: 'border-transparent bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
};

/** Aliases people expect on a business domain (the popular-aliases suggestion card). */
export const POPULAR_ALIASES = [
  { alias: 'hello', purpose: 'General enquiries' },
  { alias: 'support', purpose: 'Customer help' },
  { alias: 'sales', purpose: 'New business' },
  { alias: 'info', purpose: 'Information requests' },
  { alias: 'billing', purpose: 'Invoices and payments' },
  { alias: 'press', purpose: 'Media contacts' },
] as const;

/** The popular aliases the domain does not have yet. */
export function missingPopularAliases(existing: readonly Pick<EmailAlias, 'alias'>[]) {
  const taken = new Set(existing.map((a) => a.alias));
  return POPULAR_ALIASES.filter((p) => !taken.has(p.alias));
}
