import { signIds } from '../../lib/signed-token.ts';
import type { RecipientLinks } from '../campaigns/email-renderer.ts';

/**
 * One recipient's links as the send path writes them: click, open and unsubscribe URLs carry
 * signed tokens of the send row's id (and the link's id), which the tracking routes verify.
 * Shared with bench/render.bench.ts so the benchmark signs exactly what delivery signs.
 */
export function trackedLinks(
  publicUrl: string,
  secret: string,
  sendId: number,
  linkIds: readonly number[],
): RecipientLinks {
  const unsubscribe = `${publicUrl}/u/${signIds(secret, 'unsubscribe', [sendId])}`;
  return {
    click: (i) => `${publicUrl}/t/c/${signIds(secret, 'click', [sendId, linkIds[i] ?? 0])}`,
    openPixel: `${publicUrl}/t/o/${signIds(secret, 'open', [sendId])}`,
    unsubscribe,
    preferences: `${unsubscribe}?preferences=1`,
  };
}
