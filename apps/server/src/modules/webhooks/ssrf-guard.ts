import { lookup as systemLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';

/**
 * The SSRF guard of outgoing webhooks: a user's URL must not reach the server's own network. See
 * DESIGN.md: the address is checked after DNS resolution, and the socket connects to exactly the
 * address that was checked (its `lookup` resolves, checks and answers one address), so a DNS answer
 * that changes between a check and the connect cannot slip through.
 */

/** Resolves a host name to its addresses (A and AAAA); injectable so tests can change the answer. */
export type HostResolver = (hostname: string) => Promise<string[]>;

/** The system's resolver (getaddrinfo: /etc/hosts and the configured DNS servers), every address. */
export const systemResolver: HostResolver = async (hostname) =>
  (await systemLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

type AddressClass = { name: string; v4?: [string, number][]; v6?: [string, number][] };

/** Every range a webhook may not reach, by the name an error message gives it. */
const REFUSED_CLASSES: AddressClass[] = [
  { name: 'loopback', v4: [['127.0.0.0', 8]], v6: [['::1', 128]] },
  {
    name: 'private',
    v4: [
      ['10.0.0.0', 8],
      ['172.16.0.0', 12],
      ['192.168.0.0', 16],
    ],
  },
  { name: 'link-local', v4: [['169.254.0.0', 16]], v6: [['fe80::', 10]] },
  { name: 'carrier-grade NAT', v4: [['100.64.0.0', 10]] },
  { name: 'unique-local', v6: [['fc00::', 7]] },
  { name: 'IPv4-mapped', v6: [['::ffff:0:0', 96]] },
  // Addresses that carry an IPv4 address inside (NAT64, 6to4, Teredo, IPv4-compatible) could lead to a private one.
  {
    name: 'IPv4-embedding',
    v6: [
      ['64:ff9b::', 96],
      ['64:ff9b:1::', 48],
      ['2002::', 16],
      ['2001::', 32],
      ['::', 96],
    ],
  },
  {
    name: 'unspecified or reserved',
    v4: [
      ['0.0.0.0', 8],
      ['192.0.0.0', 24],
      ['192.0.2.0', 24],
      ['192.88.99.0', 24],
      ['198.18.0.0', 15],
      ['198.51.100.0', 24],
      ['203.0.113.0', 24],
      ['240.0.0.0', 4],
    ],
    v6: [
      ['::', 128],
      ['100::', 64],
      ['2001:db8::', 32],
      ['fec0::', 10],
    ],
  },
  { name: 'multicast', v4: [['224.0.0.0', 4]], v6: [['ff00::', 8]] },
];

/** An address as a number: 32 bits for IPv4, 128 for IPv6 (node's BlockList mixes the two families). */
function addressValue(address: string): { family: 4 | 6; value: bigint } | null {
  const version = isIP(address);
  if (version === 4) {
    const value = address.split('.').reduce((sum, part) => (sum << 8n) + BigInt(Number(part)), 0n);
    return { family: 4, value };
  }
  if (version !== 6) return null;
  let text = address.toLowerCase().replace(/%.*$/, '');
  // A dotted IPv4 tail (::ffff:1.2.3.4) becomes two hex groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const v4 = addressValue(dotted[1])?.value ?? 0n;
    text = text.slice(0, -dotted[1].length) + `${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? headGroups
      : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  const value = groups.reduce((sum, group) => (sum << 16n) + BigInt(parseInt(group, 16)), 0n);
  return { family: 6, value };
}

const refusedRanges = REFUSED_CLASSES.map((addressClass) => ({
  name: addressClass.name,
  ranges: [
    ...(addressClass.v4 ?? []).map(([network, prefix]) => ({ family: 4 as const, network, prefix, bits: 32 })),
    ...(addressClass.v6 ?? []).map(([network, prefix]) => ({ family: 6 as const, network, prefix, bits: 128 })),
  ].map((range) => {
    const shift = BigInt(range.bits - range.prefix);
    return { family: range.family, shift, base: (addressValue(range.network)?.value ?? 0n) >> shift };
  }),
}));

function classOf(address: string): string | null {
  const parsed = addressValue(address);
  if (!parsed) return 'not an IP address';
  for (const { name, ranges } of refusedRanges)
    for (const range of ranges)
      if (range.family === parsed.family && parsed.value >> range.shift === range.base) return name;
  return null;
}

function isLoopback(address: string): boolean {
  return classOf(address) === 'loopback';
}

/**
 * Why a webhook may not go to this IP address (the class it falls in), or null when it may. With
 * `allowLoopback` (development, tests) loopback addresses pass; nothing else does.
 */
export function refusedAddressClass(address: string, allowLoopback: boolean): string | null {
  const refused = classOf(address);
  return allowLoopback && refused === 'loopback' ? null : refused;
}

export class RefusedWebhookTarget extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedWebhookTarget';
  }
}

export type GuardOptions = { allowLoopback: boolean; resolve: HostResolver };

/** The host of a URL as an address or name (IPv6 literals without their brackets). */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** The scheme rule: https, or http to loopback where loopback is allowed (checked again per address). */
function checkScheme(url: URL, allowLoopback: boolean): void {
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && allowLoopback) return;
  throw new RefusedWebhookTarget('The URL must start with https://');
}

function checkAddresses(url: URL, addresses: string[], allowLoopback: boolean): void {
  if (addresses.length === 0) throw new RefusedWebhookTarget(`${url.hostname} has no address`);
  for (const address of addresses) {
    const refused = refusedAddressClass(address, allowLoopback);
    if (refused) throw new RefusedWebhookTarget(`${url.hostname} resolves to a ${refused} address (${address})`);
    if (url.protocol === 'http:' && !isLoopback(address))
      throw new RefusedWebhookTarget('The URL must start with https:// (http only reaches loopback in development)');
  }
}

/**
 * Checks a URL before it is stored: scheme, credentials, and every address its host resolves to.
 * Throws RefusedWebhookTarget with a message for the user.
 */
export async function checkWebhookUrl(rawUrl: string, options: GuardOptions): Promise<void> {
  const url = new URL(rawUrl);
  checkScheme(url, options.allowLoopback);
  if (url.username || url.password) throw new RefusedWebhookTarget('The URL must not carry a user name or password');
  const host = hostOf(url);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await options.resolve(host);
    } catch {
      throw new RefusedWebhookTarget(`${url.hostname} could not be resolved`);
    }
  }
  checkAddresses(url, addresses, options.allowLoopback);
}

/**
 * The socket's `lookup` for one request to `url`: resolves the host once, checks every address it
 * answers, and hands the socket only the first checked one, so what connects is what was checked.
 * Called by node at connect time (never for an IP literal: those are checked by `checkWebhookUrl`).
 */
export function pinnedLookup(url: URL, options: GuardOptions, onAddress: (address: string) => void): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    options
      .resolve(hostname)
      .then((addresses) => {
        checkAddresses(url, addresses, options.allowLoopback);
        const address = addresses[0] as string;
        const family = isIP(address);
        onAddress(address);
        if (lookupOptions.all) callback(null, [{ address, family }]);
        else callback(null, address, family);
      })
      .catch((error: unknown) => {
        callback(error as NodeJS.ErrnoException, '', 4);
      });
  };
}
