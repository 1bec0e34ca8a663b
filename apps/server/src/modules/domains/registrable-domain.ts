import { parse } from 'tldts';

/** The reserved top-level names of RFC 2606 and RFC 6761, which no registry delegates. */
const TEST_TLDS = new Set(['test', 'example', 'invalid', 'localhost']);

/**
 * True when `name` (lower-case ASCII, as the contract leaves it) can be a registered domain: its
 * ending is on the public suffix list (ICANN or private section) and the name is not itself a public
 * suffix ('co.uk', 'github.io'). With `allowTestDomains`, names under the reserved test TLDs pass too.
 */
export function isRegistrableDomain(name: string, allowTestDomains: boolean): boolean {
  if (allowTestDomains && TEST_TLDS.has(name.split('.').at(-1) ?? '')) return true;
  const parsed = parse(name, { allowPrivateDomains: true });
  return (parsed.isIcann === true || parsed.isPrivate === true) && parsed.domain !== null;
}
