import { describe, expect, it } from 'vitest';
import { SRS_MAX_AGE_DAYS, srsForward, srsReverse } from './srs.ts';

const SECRET = 'srs-test-secret-srs-test-secret-0123456';
const DAY = 86_400_000;

describe('SRS', () => {
  const now = new Date('2026-11-24T12:00:00Z');

  it('rewrites a sender as SRS0 on our domain and reverses it', () => {
    const address = srsForward(SECRET, 'Alice@Example.com', 'fwd.example', now);
    expect(address).toMatch(/^SRS0=[A-Z2-7]{6}=[A-Z2-7]{2}=example\.com=Alice@fwd\.example$/);
    expect(srsReverse(SECRET, address, now)).toEqual({ status: 'valid', address: 'Alice@example.com' });
    // Mail systems may lower-case the local part: it still reverses.
    expect(srsReverse(SECRET, address.toLowerCase(), now)).toEqual({ status: 'valid', address: 'alice@example.com' });
  });

  it('refuses a forged hash, another secret, and an address older than 21 days', () => {
    const address = srsForward(SECRET, 'bob@example.com', 'fwd.example', now);
    const forged = address.replace(/^SRS0=[A-Z2-7]{6}/, 'SRS0=AAAAAA');
    expect(srsReverse(SECRET, forged, now).status).toBe('invalid');
    expect(srsReverse(`${SECRET}x`, address, now).status).toBe('invalid');
    expect(srsReverse(SECRET, address.replace('bob@', 'eve@'), now).status).toBe('invalid');
    expect(srsReverse(SECRET, address, new Date(now.getTime() + SRS_MAX_AGE_DAYS * DAY)).status).toBe('valid');
    expect(srsReverse(SECRET, address, new Date(now.getTime() + (SRS_MAX_AGE_DAYS + 1) * DAY)).status).toBe('expired');
    expect(srsReverse(SECRET, 'bob@example.com', now).status).toBe('not-srs');
  });

  it('turns another forwarder’s SRS0 into SRS1 naming the first hop, and back', () => {
    const theirs = srsForward('their-secret-their-secret-their-secret', 'carol@origin.example', 'hop1.example', now);
    const ours = srsForward(SECRET, theirs, 'fwd.example', now);
    expect(ours).toMatch(
      /^SRS1=[A-Z2-7]{6}=hop1\.example==[A-Z2-7]{6}=[A-Z2-7]{2}=origin\.example=carol@fwd\.example$/,
    );
    expect(srsReverse(SECRET, ours, now)).toEqual({ status: 'valid', address: theirs });
    // A second SRS1 hop keeps the first hop.
    const again = srsForward(SECRET, ours, 'next.example', now);
    expect(again).toMatch(/^SRS1=[A-Z2-7]{6}=hop1\.example==/);
    expect(srsReverse(SECRET, again, now)).toEqual({ status: 'valid', address: theirs });
  });
});
