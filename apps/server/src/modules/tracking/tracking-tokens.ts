import { verifyLegacyIds, verifyRecipientToken, verifySequenceToken } from '../../lib/signed-token.ts';

/**
 * Reading the tokens in tracking URLs. Mail signed now carries one recipient token in every URL
 * (see rendering/tracked-links.ts); older mail carries a token per purpose, which keeps working on
 * the route it was made for and no other (an old open token does not unsubscribe).
 */

/** The send an open pixel's token names: a recipient token, or an open token of older mail. */
export function sendOfOpenToken(secret: string, token: string): number | null {
  return verifyRecipientToken(secret, token) ?? verifyLegacyIds(secret, 'open', token, 1)?.[0] ?? null;
}

/** The send an unsubscribe or preferences link's token names: a recipient token, or an unsubscribe token of older mail. */
export function sendOfUnsubscribeToken(secret: string, token: string): number | null {
  return verifyRecipientToken(secret, token) ?? verifyLegacyIds(secret, 'unsubscribe', token, 1)?.[0] ?? null;
}

/**
 * The message an unsubscribe or preferences link names: a campaign send (a recipient token, or an
 * unsubscribe token of older mail) or a sequence send (a sequence email's token); null otherwise.
 */
export function mailOfUnsubscribeToken(
  secret: string,
  token: string,
): { campaignSendId: number } | { sequenceSendId: number } | null {
  const campaignSendId = sendOfUnsubscribeToken(secret, token);
  if (campaignSendId !== null) return { campaignSendId };
  const sequenceSendId = verifySequenceToken(secret, token);
  return sequenceSendId === null ? null : { sequenceSendId };
}

/** An older click link, /t/c/<token of [sendId, linkId]>: its send and the stored link's id. */
export function legacyClick(secret: string, token: string): { sendId: number; linkId: number } | null {
  const ids = verifyLegacyIds(secret, 'click', token, 2);
  return ids ? { sendId: ids[0] as number, linkId: ids[1] as number } : null;
}

/** The link index of /t/c/<token>/<index>: a plain decimal number (no sign, no leading zeros), else null. */
export function parseLinkIndex(value: string): number | null {
  return /^(?:0|[1-9]\d{0,5})$/.test(value) ? Number(value) : null;
}
