import { Resolver } from 'node:dns/promises';

/**
 * The answer to one TXT look-up, with the difference that matters for verification kept apart:
 * - `found`: the name has TXT records (each record's chunks already joined);
 * - `none`: a definitive "nothing there" (NXDOMAIN or NODATA);
 * - `failed`: no definitive answer (timeout, SERVFAIL, refused, unreachable server).
 */
type TxtLookup = { kind: 'found'; records: string[] } | { kind: 'none' } | { kind: 'failed'; code: string };

/**
 * The answer to one MX look-up: mail servers by preference; `null-mx` when the domain publishes
 * RFC 7505's null MX (one record, exchange "."), saying it accepts no mail; `none`, `failed` as for TXT.
 */
export type MxLookup =
  | { kind: 'found'; records: { exchange: string; priority: number }[] }
  | { kind: 'null-mx' }
  | { kind: 'none' }
  | { kind: 'failed'; code: string };

/** The one resolver the app uses for DNS: TXT look-ups, classified. */
export type DnsResolver = {
  resolveTxt(name: string): Promise<TxtLookup>;
  /** Raw TXT answers (chunks not joined), shaped like node's `dns.resolveTxt`, for libraries that take a resolver. */
  resolveTxtRaw(name: string): Promise<string[][]>;
  /** MX records of a name, classified like TXT look-ups (inbound MX check, lead address checks). */
  resolveMx(name: string): Promise<MxLookup>;
  /** A, AAAA or MX answers as node's `dns.resolve` gives them, for libraries that take a resolver (SPF checks). */
  resolveRaw(name: string, type: 'A' | 'AAAA' | 'MX'): Promise<unknown>;
};

/** Error codes that mean the name or its TXT records definitively do not exist. */
const DEFINITIVE_NONE = new Set(['ENOTFOUND', 'ENODATA']);

/** One attempt's timeout and the attempts per server: a check never hangs a job for long. */
const TIMEOUT_MS = 2500;
const TRIES = 2;

const resolvers = new Map<string, DnsResolver>();

/**
 * The resolver for a DNS_SERVERS list ('ip' or 'ip:port' entries; empty = the system's servers).
 * Resolvers are shared per list.
 */
export function dnsResolver(servers: readonly string[]): DnsResolver {
  const key = servers.join(',');
  let resolver = resolvers.get(key);
  if (!resolver) {
    resolver = createDnsResolver(servers);
    resolvers.set(key, resolver);
  }
  return resolver;
}

function createDnsResolver(servers: readonly string[]): DnsResolver {
  const resolver = new Resolver({ timeout: TIMEOUT_MS, tries: TRIES });
  if (servers.length > 0) resolver.setServers([...servers]);
  return {
    async resolveTxt(name) {
      try {
        const records = await resolver.resolveTxt(name);
        // A TXT record longer than 255 bytes arrives as several chunks; they form one value (RFC 7208 §3.3).
        return records.length === 0
          ? { kind: 'none' }
          : { kind: 'found', records: records.map((chunks) => chunks.join('')) };
      } catch (error) {
        const code = errorCode(error);
        return DEFINITIVE_NONE.has(code) ? { kind: 'none' } : { kind: 'failed', code };
      }
    },
    resolveTxtRaw: (name) => resolver.resolveTxt(name),
    resolveRaw: (name, type) => resolver.resolve(name, type),
    async resolveMx(name) {
      try {
        const records = await resolver.resolveMx(name);
        if (records.length === 0) return { kind: 'none' };
        if (records.length === 1 && (records[0]?.exchange ?? '').replace(/\.$/, '') === '') return { kind: 'null-mx' };
        return { kind: 'found', records: records.sort((a, b) => a.priority - b.priority) };
      } catch (error) {
        const code = errorCode(error);
        return DEFINITIVE_NONE.has(code) ? { kind: 'none' } : { kind: 'failed', code };
      }
    },
  };
}

function errorCode(error: unknown): string {
  const code = error && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : 'EUNKNOWN';
}

/**
 * One `create(servers)` per DNS_SERVERS list, kept for as long as that list is. Keyed by the list
 * itself, not its text: two apps in one process (test files sharing a worker) whose DNS servers
 * reused a port share no answers.
 */
export function perDnsServerList<T extends object>(
  create: (servers: readonly string[]) => T,
): (servers: readonly string[]) => T {
  const made = new WeakMap<readonly string[], T>();
  return (servers) => {
    let value = made.get(servers);
    if (!value) {
      value = create(servers);
      made.set(servers, value);
    }
    return value;
  };
}
