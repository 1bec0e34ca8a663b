import { signRecipientToken } from '../../lib/signed-token.ts';
import type { RecipientLinks } from './email-renderer.ts';

/**
 * Where each of the renderer's links sits among the campaign's stored links (campaign_links in id
 * order), computed once per `linkIds` array: a send batch passes the same array for every recipient.
 */
const positionsCache = new WeakMap<readonly number[], number[]>();
function storedPositions(linkIds: readonly number[]): number[] {
  let positions = positionsCache.get(linkIds);
  if (!positions) {
    const stored = [...new Set(linkIds.filter((id) => id > 0))].sort((a, b) => a - b);
    // A link that was not stored gets the first place past the end, which the click route answers
    // with 404 (as a token for link id 0 was before).
    positions = linkIds.map((id) => (id > 0 ? stored.indexOf(id) : stored.length));
    positionsCache.set(linkIds, positions);
  }
  return positions;
}

/**
 * One recipient's links as the send path writes them, all carrying the same token, signed once:
 *   click        /t/c/<token>/<index>   index: the link's place among the campaign's stored links
 *   open pixel   /t/o/<token>
 *   unsubscribe  /u/<token>             (also the List-Unsubscribe header, RFC 8058 one-click POST)
 *   preferences  /u/<token>?preferences=1
 * The token names the send row (one recipient of one campaign), nothing else. One token for all of
 * a message's URLs is safe because every URL is in the same email: whoever holds the pixel or a
 * click URL (a forward, an image proxy, a link scanner) holds the unsubscribe link beside it, so
 * reusing one as the other grants nothing the email did not. GET /u/ changes nothing (scanners
 * that follow links do not unsubscribe anyone), and the unsigned index can only pick another of
 * the same campaign's stored links, never an arbitrary URL.
 *
 * `linkIds` are the ids (campaign_links.id) of the campaign's stored links in the renderer's order
 * (0 for one not stored). They must be all of the campaign's stored links, as they are: a
 * campaign's links are stored once, when its send starts, from the same compiled email. Shared with
 * bench/render.bench.ts so the benchmark signs exactly what delivery signs.
 */
export function trackedLinks(
  publicUrl: string,
  secret: string,
  sendId: number,
  linkIds: readonly number[],
): RecipientLinks {
  const token = signRecipientToken(secret, sendId);
  const positions = storedPositions(linkIds);
  const unsubscribe = `${publicUrl}/u/${token}`;
  const clickBase = `${publicUrl}/t/c/${token}/`;
  return {
    click: (i) => `${clickBase}${positions[i] ?? positions.length}`,
    openPixel: `${publicUrl}/t/o/${token}`,
    unsubscribe,
    preferences: `${unsubscribe}?preferences=1`,
  };
}
