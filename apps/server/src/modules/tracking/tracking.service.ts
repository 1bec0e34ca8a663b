import type { Db, DbOrTx } from '../../db/client.ts';
import { verifyRecipientToken } from '../../lib/signed-token.ts';
import { escapeHtml } from '../campaigns/email-renderer.ts';
import * as repo from './tracking.repo.ts';
import { legacyClick, parseLinkIndex, sendOfOpenToken } from './tracking-tokens.ts';

/**
 * Opens and clicks have one source of truth: the event log (email_events), a row per open or click,
 * from which the campaign report counts unique opens and clicks (distinct sends) and draws its
 * timeline and top links. The campaign's total_opens / total_clicks (read by the Campaigns list,
 * the dashboard's cards and its Recent Campaigns) and the contact's opened / clicked counts are
 * derived from it here, in the same transaction as the event: they move when a send gets its first
 * event of the type. The caller locks the send row first (`repo.lockSend`), so two opens of one
 * message at the same moment (an image proxy and the reader, a privacy prefetch) are decided one
 * after the other and each counter equals the number of distinct sends with such an event. Before
 * the lock, both saw no earlier event and both counted: three simultaneous loads of one pixel
 * counted three unique opens on Postgres, so the list and the dashboard cards showed a higher rate
 * than the report. Counting at read time instead would scan every open and click event of every
 * campaign on each load of the list and the dashboard. `earlier`: whether the send already had an
 * event of the type, read by the caller under the lock.
 */
async function countEngagement(
  tx: DbOrTx,
  send: repo.SendRow,
  type: repo.EngagementType,
  linkId: number | null,
  earlier: boolean,
) {
  await repo.insertSendEvent(tx, send, type, linkId);
  if (earlier) return;
  await repo.incrementCampaignTotal(tx, send.campaignId, type);
  if (send.contactId !== null) await repo.incrementContactEngagement(tx, send.contactId, type);
}

/**
 * Loads of one message's pixel within this many minutes of its last recorded open are the same
 * open: a reader going back to the message, a mail client or image proxy fetching it again. Without
 * it every hit added an event row, so anyone holding one pixel URL could grow the log at will.
 */
export const OPEN_REPEAT_WINDOW_MINUTES = 10;

/**
 * Open pixel: records the open, at most one per message per OPEN_REPEAT_WINDOW_MINUTES (under the
 * send's row lock, so simultaneous loads are decided one after the other); false when the token's
 * send does not exist. The event log stays the one source of the totals.
 */
export async function recordOpen(db: Db, sendId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const send = await repo.lockSend(tx, sendId);
    if (!send) return false;
    const latest = await repo.latestOpen(tx, send, OPEN_REPEAT_WINDOW_MINUTES);
    if (!latest?.recent) await countEngagement(tx, send, 'open', null, latest !== undefined);
    return true;
  });
}

/**
 * Click: the stored link's URL when the link belongs to the send's campaign, else null (no open
 * redirect). Mail signed now names the link by its index among the campaign's stored links; older
 * mail by the link's id.
 */
export async function recordClick(
  db: Db,
  sendId: number,
  link: { index: number } | { id: number },
): Promise<string | null> {
  return db.transaction(async (tx) => {
    const send = await repo.lockSend(tx, sendId);
    if (!send) return null;
    const stored =
      'index' in link
        ? await repo.findCampaignLinkAt(tx, send.campaignId, link.index)
        : await repo.findCampaignLink(tx, send.campaignId, link.id);
    if (!stored) return null;
    await countEngagement(tx, send, 'click', stored.id, await repo.hasEvent(tx, send, 'click'));
    return stored.url;
  });
}

const TOKEN = '([A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+)';
const OPEN_PIXEL = new RegExp(`<img\\b[^>]*\\bsrc="[^"]*/t/o/${TOKEN}"[^>]*>`, 'g');
const TRACKED_LINK = new RegExp(`https?://[^\\s"'<>]+/t/c/${TOKEN}(?:/(\\d{1,6}))?`, 'g');

/**
 * A message's HTML as the recipient saw it, minus tracking (for the sender viewing their own mail
 * in the Outbox, which must record no open or click): the open pixel is left out and tracked links
 * point straight at their destinations. Only tokens this app signed, for this campaign's links, are
 * touched; old and current URL formats alike.
 */
export async function withoutTracking(
  db: DbOrTx,
  secret: string,
  html: string,
  campaignId: number | null,
): Promise<string> {
  const withoutPixel = html.replace(OPEN_PIXEL, (tag, token: string) =>
    sendOfOpenToken(secret, token) === null ? tag : '',
  );
  if (campaignId === null || !withoutPixel.includes('/t/c/')) return withoutPixel;
  const links = await repo.listCampaignLinks(db, campaignId);
  const urlById = new Map(links.map((link) => [link.id, link.url]));
  return withoutPixel.replace(TRACKED_LINK, (url, token: string, index: string | undefined) => {
    let target: string | undefined;
    if (index !== undefined) {
      const at = parseLinkIndex(index);
      if (at !== null && verifyRecipientToken(secret, token) !== null) target = links[at]?.url;
    } else {
      const old = legacyClick(secret, token);
      if (old) target = urlById.get(old.linkId);
    }
    return target ? escapeHtml(target) : url;
  });
}

/**
 * Where a recipient stands with one sender: subscribed, unsubscribed by their own choice (which
 * they may undo), or stopped by the sender's system because mail bounced or was reported as spam
 * (which a link in an email cannot undo).
 */
export type SubscriptionStatus = 'subscribed' | 'unsubscribed' | 'bounced' | 'complained';

export type UnsubscribeView = {
  email: string;
  /** Who the mail is from: the sender's company, else the campaign's from name, else the account holder's name. */
  sender: string;
  /** The campaign's from address, so the recipient can tell which sender this is. */
  senderAddress: string | null;
  status: SubscriptionStatus;
};

function statusOf(reason: string | undefined): SubscriptionStatus {
  if (reason === undefined) return 'subscribed';
  if (reason === 'bounce') return 'bounced';
  if (reason === 'complaint') return 'complained';
  return 'unsubscribed';
}

/** What the unsubscribe and preferences pages show: whose list it is and where the address stands. */
export async function unsubscribeView(db: Db, sendId: number): Promise<UnsubscribeView | null> {
  const send = await repo.findSend(db, sendId);
  if (!send) return null;
  const [sender, campaign, reason] = await Promise.all([
    repo.findSenderAccount(db, send.userId),
    repo.findCampaignSender(db, send.campaignId),
    repo.findSuppressionReason(db, send.userId, send.email),
  ]);
  const accountName = `${sender?.firstName ?? ''} ${sender?.lastName ?? ''}`.trim();
  return {
    email: send.email,
    sender: sender?.company || campaign?.fromName || accountName || 'this sender',
    senderAddress: campaign?.fromEmail ?? null,
    status: statusOf(reason),
  };
}

/** Unsubscribes the recipient of a send at once; safe to repeat. */
export async function unsubscribe(db: Db, sendId: number): Promise<boolean> {
  const send = await repo.findSend(db, sendId);
  if (!send) return false;
  await db.transaction(async (tx) => {
    const added = await repo.insertUnsubscribe(tx, send.userId, send.email);
    if (send.contactId !== null) await repo.setContactActive(tx, send.userId, send.contactId, false);
    if (added) await repo.insertSendEvent(tx, send, 'unsubscribe');
  });
  return true;
}

/**
 * Undoes the recipient's own unsubscribe: the suppression is removed and the contact is active
 * again. Safe to repeat ('subscribed' when there is nothing to undo). A bounce or spam complaint
 * is not the recipient's choice made here, so it stays ('blocked'). Null when the send is unknown.
 */
export async function resubscribe(db: Db, sendId: number): Promise<'resubscribed' | 'subscribed' | 'blocked' | null> {
  const send = await repo.findSend(db, sendId);
  if (!send) return null;
  return db.transaction(async (tx) => {
    const reason = await repo.findSuppressionReason(tx, send.userId, send.email, true);
    if (reason !== undefined && reason !== 'unsubscribe') return 'blocked';
    // Nothing to undo: a contact the sender set inactive themselves stays as they left it.
    if (reason === undefined) return 'subscribed';
    await repo.deleteUnsubscribe(tx, send.userId, send.email);
    if (send.contactId !== null) await repo.setContactActive(tx, send.userId, send.contactId, true);
    return 'resubscribed';
  });
}
