import { describe, expect, it } from 'vitest';
import { isAppleAddress, isBotClick, isMachineOpen, isScannerUserAgent, withinScannerWindow } from './traffic.ts';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

describe('human or machine', () => {
  it("knows Apple's published ranges, IPv4, IPv4-mapped and IPv6", () => {
    expect(isAppleAddress('17.58.101.3')).toBe(true);
    expect(isAppleAddress('::ffff:17.1.2.3')).toBe(true);
    expect(isAppleAddress('2620:149:a:b::1')).toBe(true);
    expect(isAppleAddress('18.0.0.1')).toBe(false);
    expect(isAppleAddress('2001:db8::1')).toBe(false);
    expect(isAppleAddress('not an address')).toBe(false);
  });

  it("an open is a machine's from Apple's proxy (user agent or address), a scanner, or a client-less pre-fetch", () => {
    const later = { ip: '203.0.113.9', secondsSinceDelivery: 600 };
    expect(isMachineOpen({ ...later, userAgent: 'Mozilla/5.0' })).toBe(true);
    expect(isMachineOpen({ ...later, userAgent: CHROME, ip: '17.0.0.1' })).toBe(true);
    expect(isMachineOpen({ ...later, userAgent: 'Barracuda Sentinel (EE)' })).toBe(true);
    expect(isMachineOpen({ ...later, userAgent: undefined, secondsSinceDelivery: 2 })).toBe(true);
    expect(isMachineOpen({ ...later, userAgent: undefined })).toBe(false);
    expect(isMachineOpen({ ...later, userAgent: CHROME })).toBe(false);
    expect(isMachineOpen({ ...later, userAgent: CHROME, secondsSinceDelivery: 1 })).toBe(false);
  });

  it("a click is a bot's by its user agent; the burst window is the first two minutes after delivery", () => {
    expect(isScannerUserAgent('')).toBe(true);
    expect(isScannerUserAgent('Mimecast Link Scanner/1.0')).toBe(true);
    expect(isScannerUserAgent('python-requests/2.32')).toBe(true);
    expect(isBotClick({ userAgent: CHROME, ip: '203.0.113.9', secondsSinceDelivery: 1 })).toBe(false);
    expect(withinScannerWindow({ userAgent: CHROME, ip: '203.0.113.9', secondsSinceDelivery: 5 })).toBe(true);
    expect(withinScannerWindow({ userAgent: CHROME, ip: '203.0.113.9', secondsSinceDelivery: 600 })).toBe(false);
    expect(withinScannerWindow({ userAgent: CHROME, ip: '203.0.113.9', secondsSinceDelivery: null })).toBe(false);
  });
});
