import { createRequire } from 'node:module';
import { z } from 'zod';
import { dnsResolver, perDnsServerList, type DnsResolver, type MxLookup } from '../../lib/dns.ts';
import type { AddressVerdict } from './leads.scoring.ts';

/**
 * Checks of a lead's address before it is scored or stored: syntax, whether its domain takes mail
 * (MX, or RFC 7505's null MX saying it takes none), and flags from maintained list packages:
 * disposable domains (disposable-email-domains), free-mail domains (free-email-domains-list) and
 * role local parts like info@ or sales@ (role-based-email-addresses). No list is written by hand.
 * MX answers are cached per domain (see MxCache), so a batch of one company's addresses asks once.
 */
const require = createRequire(import.meta.url);

let lists: { disposableDomains: Set<string>; freeMailDomains: Set<string>; roleLocalParts: Set<string> } | undefined;

/** The three lists, read at the first address checked rather than at start (the disposable one is 2.4 MB of JSON). */
function addressLists(): NonNullable<typeof lists> {
  // The three packages ship plain CommonJS arrays without type declarations.
  lists ??= {
    disposableDomains: new Set(require('disposable-email-domains') as string[]),
    freeMailDomains: new Set((require('free-email-domains-list') as { DOMAINS: string[] }).DOMAINS),
    roleLocalParts: new Set((require('role-based-email-addresses') as string[]).map((part) => part.toLowerCase())),
  };
  return lists;
}

export type AddressCheck = AddressVerdict & {
  email: string;
  syntaxValid: boolean;
  /** What the MX look-up said; 'failed' (no definitive answer) scores like unchecked. */
  mx: MxLookup['kind'] | 'skipped';
};

const emailSyntax = z.email();

/** How long an MX answer is kept: definitive answers an hour, failures a minute (retry soon). */
const MX_TTL_MS = 60 * 60 * 1000;
const MX_FAILED_TTL_MS = 60 * 1000;
const MX_CACHE_MAX = 50_000;

/** A per-process cache of MX answers by domain, oldest entry dropped first when full. */
export class MxCache {
  private readonly entries = new Map<string, { lookup: MxLookup; until: number }>();

  constructor(private readonly resolver: Pick<DnsResolver, 'resolveMx'>) {}

  async lookup(domain: string, now = Date.now()): Promise<MxLookup> {
    const cached = this.entries.get(domain);
    if (cached && cached.until > now) return cached.lookup;
    const lookup = await this.resolver.resolveMx(domain);
    if (this.entries.size >= MX_CACHE_MAX) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(domain, { lookup, until: now + (lookup.kind === 'failed' ? MX_FAILED_TTL_MS : MX_TTL_MS) });
    return lookup;
  }
}

/** The flags that need no network: syntax, disposable, free mail, role. */
export function addressFlags(email: string): Omit<AddressCheck, 'mx' | 'mail'> {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  const local = at > 0 ? address.slice(0, at) : '';
  const domain = at > 0 ? address.slice(at + 1) : '';
  // A subdomain of a disposable or free-mail domain counts as one (mx.mailinator.com).
  const labels = domain.split('.');
  const parents = labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'));
  const { disposableDomains, freeMailDomains, roleLocalParts } = addressLists();
  return {
    email: address,
    syntaxValid: address.length <= 254 && emailSyntax.safeParse(address).success,
    disposable: parents.some((name) => disposableDomains.has(name)),
    freeMail: parents.some((name) => freeMailDomains.has(name)),
    role: roleLocalParts.has(local.split('+')[0] ?? local),
  };
}

/** All checks of one address; the MX look-up goes through `cache` and only for a valid address. */
export async function checkAddress(email: string, cache: MxCache): Promise<AddressCheck> {
  const flags = addressFlags(email);
  if (!flags.syntaxValid) return { ...flags, mx: 'skipped', mail: 'no-mail' };
  const domain = flags.email.slice(flags.email.lastIndexOf('@') + 1);
  const mx = await cache.lookup(domain);
  const mail = mx.kind === 'found' ? 'mx' : mx.kind === 'failed' ? 'unchecked' : 'no-mail';
  return { ...flags, mx: mx.kind, mail };
}

/** The shared MX cache of the resolver for a DNS_SERVERS list (one per process and list). */
export const mxCacheFor = perDnsServerList((servers) => new MxCache(dnsResolver(servers)));

/** What a lead keeps of its address check (metadata.address), for the screen to show why its score is what it is. */
export function addressSummary(check: AddressCheck): Record<string, unknown> {
  return { mx: check.mx, disposable: check.disposable, role: check.role, freeMail: check.freeMail };
}
