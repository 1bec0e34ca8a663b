import { describe, expect, it } from 'vitest';
import {
  isBounceAddress,
  sendIdOfVerpAddress,
  sendOfUnsubscribeAddress,
  sendOfVerpAddress,
  unsubscribeLocalPart,
  verpAddress,
  verpLocalPart,
} from './verp.ts';

const SECRET = 'test-session-secret-0123456789abcdef0123456789';

describe('VERP return paths', () => {
  it('names the send row, in lower case only, and reads back through any case and angle brackets', () => {
    const address = verpAddress(SECRET, 123456, 'Bounces.Sendwell.Example');
    expect(address).toMatch(/^bounces\+s2n9c-[0-9a-f]{16}@bounces\.sendwell\.example$/);
    expect(sendIdOfVerpAddress(SECRET, address)).toBe(123456);
    expect(sendIdOfVerpAddress(SECRET, `<${address.toUpperCase()}>`)).toBe(123456);
    expect(isBounceAddress({ sessionSecret: SECRET }, address)).toBe(true);
  });

  it('ignores a forged, altered or foreign token', () => {
    const local = verpLocalPart(SECRET, 42);
    const mac = local.split('-')[1] ?? '';
    for (const forged of [
      `bounces+s2b-${mac}@x.example`, // another row with this row's MAC
      `${local.slice(0, -1)}${local.endsWith('0') ? '1' : '0'}@x.example`, // one digit of the MAC changed
      `${verpLocalPart('another-secret-0123456789abcdef0123456789', 42)}@x.example`,
      `bounces+s16-0000000000000000@x.example`,
      'bounces@x.example',
      `${local}`,
      '',
    ]) {
      expect(sendIdOfVerpAddress(SECRET, forged), forged).toBeNull();
      expect(isBounceAddress({ sessionSecret: SECRET }, forged), forged).toBe(false);
    }
  });

  it('names a sequence send with its own ledger letter; campaign addresses made before keep their meaning', () => {
    const sequence = verpAddress(SECRET, 123456, 'bounces.sendwell.example', 'sequence');
    expect(sequence).toMatch(/^bounces\+q2n9c-[0-9a-f]{16}@bounces\.sendwell\.example$/);
    expect(sendOfVerpAddress(SECRET, sequence)).toEqual({ ledger: 'sequence', sendId: 123456 });
    expect(isBounceAddress({ sessionSecret: SECRET }, sequence)).toBe(true);
    // A sequence send's address never reads as the campaign send of the same number.
    expect(sendIdOfVerpAddress(SECRET, sequence)).toBeNull();
    const campaign = verpAddress(SECRET, 123456, 'bounces.sendwell.example');
    expect(sendOfVerpAddress(SECRET, campaign)).toEqual({ ledger: 'campaign', sendId: 123456 });
    // The MAC covers the letter: swapping it names nothing.
    expect(sendOfVerpAddress(SECRET, campaign.replace('+s', '+q'))).toBeNull();
    expect(sendOfVerpAddress(SECRET, sequence.replace('+q', '+s'))).toBeNull();
  });

  it('makes mailed-unsubscribe addresses that name their send, and never pass for a return path or the reverse', () => {
    const campaign = `${unsubscribeLocalPart(SECRET, 42, 'campaign')}@bounces.sendwell.example`;
    const sequence = `${unsubscribeLocalPart(SECRET, 42, 'sequence')}@bounces.sendwell.example`;
    expect(campaign).toMatch(/^unsubscribe\+s16-[0-9a-f]{16}@bounces\.sendwell\.example$/);
    expect(sendOfUnsubscribeAddress(SECRET, campaign)).toEqual({ ledger: 'campaign', sendId: 42 });
    expect(sendOfUnsubscribeAddress(SECRET, `<${campaign.toUpperCase()}>`)).toEqual({ ledger: 'campaign', sendId: 42 });
    expect(sendOfUnsubscribeAddress(SECRET, sequence)).toEqual({ ledger: 'sequence', sendId: 42 });
    // Its own MAC: the token moved onto a return path (or a return path's onto it) names nothing.
    expect(sendOfVerpAddress(SECRET, campaign.replace(/^unsubscribe/, 'bounces'))).toBeNull();
    const returnPath = verpAddress(SECRET, 42, 'bounces.sendwell.example');
    expect(sendOfUnsubscribeAddress(SECRET, returnPath.replace(/^bounces/, 'unsubscribe'))).toBeNull();
    expect(sendOfUnsubscribeAddress(SECRET, campaign.replace('+s', '+q'))).toBeNull();
    expect(sendOfUnsubscribeAddress('another-secret-0123456789abcdef0123456789', campaign)).toBeNull();
    expect(sendOfUnsubscribeAddress(SECRET, 'unsubscribe@bounces.sendwell.example')).toBeNull();
  });
});
