import { describe, expect, it } from 'vitest';
import { verifyRecipientToken } from '../../lib/signed-token.ts';
import { trackedLinks } from './tracked-links.ts';

const secret = 'a-session-secret-of-enough-length-0123456789';
const base = 'https://mail.example';

describe('trackedLinks', () => {
  it('puts one token, naming the send, in every URL of the message, and the link index in click paths', () => {
    const links = trackedLinks(base, secret, 4242, [501, 502, 503]);
    const token = /\/u\/([^/?]+)$/.exec(links.unsubscribe)?.[1] ?? '';
    expect(verifyRecipientToken(secret, token)).toBe(4242);
    expect(links.openPixel).toBe(`${base}/t/o/${token}`);
    expect(links.preferences).toBe(`${base}/u/${token}?preferences=1`);
    expect([0, 1, 2].map((i) => links.click(i))).toEqual([0, 1, 2].map((i) => `${base}/t/c/${token}/${i}`));
    expect(trackedLinks(base, secret, 4243, [501]).unsubscribe).not.toContain(token);
  });

  it('numbers links by their place among the campaign’s stored links (ids in order), whatever the render order', () => {
    const links = trackedLinks(base, secret, 1, [730, 12, 95]);
    expect([0, 1, 2].map((i) => links.click(i).split('/').pop())).toEqual(['2', '0', '1']);
  });

  it('points a link that was not stored, or an index past the list, beyond the stored links (the route answers 404)', () => {
    const links = trackedLinks(base, secret, 1, [12, 0, 95]);
    expect([0, 1, 2, 3].map((i) => links.click(i).split('/').pop())).toEqual(['0', '2', '1', '3']);
  });
});
