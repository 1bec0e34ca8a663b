import { BlockList, isIP } from 'node:net';
import { APPLE_EGRESS_RANGES } from './apple-egress-ranges.ts';

/**
 * Who loaded a pixel or followed a link: the reader, or a machine acting before them. Opens by
 * Apple Mail Privacy Protection's proxy (it fetches every image of every message as it arrives) and
 * clicks by security scanners (they follow every link of a message within seconds of delivery)
 * would otherwise count as readers' opens and clicks. Decided once, when the event is recorded, and
 * stored on it (email_events.machine).
 */
export type Hit = {
  userAgent: string | undefined;
  ip: string;
  /** Seconds between the message's delivery (sent_at) and this hit; null when not known. */
  secondsSinceDelivery: number | null;
};

/** Apple's proxy identifies itself only as "Mozilla/5.0", with no platform or engine, unlike any mail client. */
const APPLE_PROXY_USER_AGENT = /^Mozilla\/5\.0$/;

const appleRanges = new BlockList();
for (const range of APPLE_EGRESS_RANGES) {
  const [network, prefix] = range.split('/');
  if (!network || !prefix) continue;
  appleRanges.addSubnet(network, Number(prefix), network.includes(':') ? 'ipv6' : 'ipv4');
}

/** Whether the address is in one of Apple's published ranges (IPv4-mapped IPv6 read as IPv4). */
export function isAppleAddress(ip: string): boolean {
  const plain = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  const family = isIP(plain);
  if (family === 0) return false;
  return appleRanges.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * User agents of link scanners, pre-fetchers and scripts: security gateways (Barracuda, Mimecast,
 * Proofpoint, Symantec/MessageLabs, Trend Micro, Cisco IronPort, FireEye, Forcepoint, Sophos),
 * crawlers and HTTP libraries. A mail client or browser names none of these. Headless browsers are
 * not on it: some scanners use one, but so do automated checks of one's own mail; they are caught
 * by their burst over a message's links instead.
 */
const SCANNER_USER_AGENT =
  /barracuda|mimecast|proofpoint|symantec|messagelabs|trend ?micro|ironport|fireeye|forcepoint|sophos|bot\b|bot\/|crawler|spider|python-|curl\/|wget|go-http-client|okhttp|java\/|libwww|axios\//i;

/** A scanner's user agent, or none at all (every mail client and browser sends one). */
export function isScannerUserAgent(userAgent: string | undefined): boolean {
  const ua = userAgent?.trim() ?? '';
  return ua === '' || SCANNER_USER_AGENT.test(ua);
}

/**
 * A pre-fetch follows delivery within seconds; a reader opens later. Used for hits that name no
 * client (no user agent), where the timing is what tells a pre-fetch from a reader.
 */
const PREFETCH_SECONDS = 10;

/** An open by a machine: Apple's proxy (its user agent or addresses), a scanner, or a client-less pre-fetch. */
export function isMachineOpen(hit: Hit): boolean {
  const ua = hit.userAgent?.trim() ?? '';
  if (APPLE_PROXY_USER_AGENT.test(ua) || isAppleAddress(hit.ip)) return true;
  if (ua === '') return hit.secondsSinceDelivery === null || hit.secondsSinceDelivery < PREFETCH_SECONDS;
  return SCANNER_USER_AGENT.test(ua);
}

/**
 * Scanners follow every link of a message within seconds of delivery. A click within
 * SCANNER_DELIVERY_SECONDS of delivery that comes within SCANNER_BURST_SECONDS of a click on another
 * link of the same message is theirs (a reader's click opens a page; they cannot click two links of
 * one message in three seconds), and so are the earlier clicks of that burst.
 */
const SCANNER_DELIVERY_SECONDS = 120;
export const SCANNER_BURST_SECONDS = 3;

/** A click that is a bot's on its own (its user agent); bursts are found against the log (tracking.service.ts). */
export function isBotClick(hit: Hit): boolean {
  return isScannerUserAgent(hit.userAgent);
}

/** Whether a click this soon after delivery may be part of a scanner's burst. */
export function withinScannerWindow(hit: Hit): boolean {
  return hit.secondsSinceDelivery !== null && hit.secondsSinceDelivery < SCANNER_DELIVERY_SECONDS;
}
