import type { Db, DbOrTx } from '../../db/client.ts';
import { verifyRecipientToken, verifySequenceToken } from '../../lib/signed-token.ts';
import { compileEmail, escapeHtml } from '../rendering/index.ts';
import { endSequenceEnrolmentsOf } from '../delivery/index.ts';
import * as repo from './tracking.repo.ts';
import { legacyClick, parseLinkIndex, sendOfOpenToken } from './tracking-tokens.ts';
import { isBotClick, isMachineOpen, SCANNER_BURST_SECONDS, withinScannerWindow } from './traffic.ts';
import { recordWebhookEvent } from '../webhooks/index.ts';

/** Seconds since the message was delivered (sent_at), or null before it was. */
function secondsSince(sentAt: Date | null): number | null {
  return sentAt === null ? null : (Date.now() - sentAt.getTime()) / 1000;
}

/**
 * Opens and clicks have one source of truth: the event log (email_events), a row per open or click,
 * each marked human or machine when recorded (traffic.ts). What a marketer is shown counts:
 *   opened  = a human open, or a human click (a click implies an open: the reader saw the message,
 *             whatever their client did with images), so click-to-open never exceeds 100%;
 *   machine = only machine opens (Apple's privacy proxy, pre-fetchers), shown beside the open rate;
 *   clicked = a human click; bot = only bot clicks (scanners), left out of the click rate.
 * The campaign's total_opens / machine_opens / total_clicks / bot_clicks (the Campaigns list, the
 * dashboard's cards) and the contact's opened / clicked counts are derived from it here, in the same
 * transaction as the event: the send's state is read before and after the event, and each counter
 * moves by the difference. The caller locks the send row first (`repo.lockSend`), so two events of
 * one message at the same moment are decided one after the other and each counter equals the number
 * of sends in that state. Counting at read time instead would scan every event of every campaign on
 * each load of the list and the dashboard.
 */
async function recordEngagement(tx: DbOrTx, send: repo.SendRow, record: () => Promise<void>): Promise<void> {
  const before = await repo.sendEngagement(tx, send);
  await record();
  const after = await repo.sendEngagement(tx, send);
  const opened = (s: repo.SendEngagement) => s.humanOpen || s.humanClick;
  const machineOnly = (s: repo.SendEngagement) => s.machineOpen && !opened(s);
  const botOnly = (s: repo.SendEngagement) => s.botClick && !s.humanClick;
  const diff = (f: (s: repo.SendEngagement) => boolean) => Number(f(after)) - Number(f(before));
  const by = {
    opens: diff(opened),
    machineOpens: diff(machineOnly),
    clicks: diff((s) => s.humanClick),
    botClicks: diff(botOnly),
  };
  if (by.opens === 0 && by.machineOpens === 0 && by.clicks === 0 && by.botClicks === 0) return;
  await repo.adjustCampaignTotals(tx, send.campaignId, by);
  if (send.contactId !== null && (by.opens !== 0 || by.clicks !== 0))
    await repo.adjustContactEngagement(tx, send.contactId, { opened: by.opens, clicked: by.clicks });
}

/**
 * Loads of one message's pixel within this many minutes of its last recorded open of the same kind
 * (human or machine) are the same open: a reader going back to the message, a mail client or image
 * proxy fetching it again. Without it every hit added an event row, so anyone holding one pixel URL
 * could grow the log at will.
 */
const OPEN_REPEAT_WINDOW_MINUTES = 10;

/** Who made a tracking request: its user agent and address (the route reads them). */
export type Requester = { userAgent: string | undefined; ip: string };

/**
 * Open pixel: records the open, human or machine (traffic.ts), at most one of each kind per message
 * per OPEN_REPEAT_WINDOW_MINUTES (under the send's row lock, so simultaneous loads are decided one
 * after the other); false when the token's send does not exist.
 */
export async function recordOpen(db: Db, sendId: number, requester: Requester): Promise<boolean> {
  return db.transaction(async (tx) => {
    const send = await repo.lockSend(tx, sendId);
    if (!send) return false;
    const machine = isMachineOpen({ ...requester, secondsSinceDelivery: secondsSince(send.sentAt) });
    if (await repo.hasRecentOpen(tx, send, OPEN_REPEAT_WINDOW_MINUTES, machine)) return true;
    await recordEngagement(tx, send, () => repo.insertSendEvent(tx, send, 'open', null, machine));
    await recordWebhookEvent(tx, send.userId, 'email.opened', {
      campaignId: send.campaignId,
      contactId: send.contactId,
      email: send.email,
      machine,
    });
    return true;
  });
}

/**
 * A sequence email's engagement, counted like a campaign's: an event in the log (sequence_id and
 * sequence_send_id, no campaign), and for the send's first reader's event of the type its opened_at /
 * clicked_at (read by the condition steps) and the contact's opened / clicked counts. A machine's
 * event is logged only. The caller holds the send's row lock (`repo.lockSentSequenceSend`).
 */
async function countSequenceEngagement(
  tx: DbOrTx,
  send: repo.SequenceSendRow,
  type: repo.EngagementType,
  machine: boolean,
  detail: string | null = null,
) {
  const earlier = machine || (await repo.hasSequenceEvent(tx, send.id, type));
  await repo.insertSequenceEvent(tx, send, type, detail, machine);
  if (earlier) return;
  await repo.markSequenceEngaged(tx, send.id, type);
  if (send.contactId !== null) await repo.incrementContactEngagement(tx, send.contactId, type);
}

/**
 * A sequence email's open pixel: recorded like a campaign's open (human or machine, at most one of
 * each per message per OPEN_REPEAT_WINDOW_MINUTES, under the send's row lock); false when the send
 * did not go out.
 */
export async function recordSequenceOpen(db: Db, sequenceSendId: number, requester: Requester): Promise<boolean> {
  return db.transaction(async (tx) => {
    const send = await repo.lockSentSequenceSend(tx, sequenceSendId);
    if (!send) return false;
    const machine = isMachineOpen({ ...requester, secondsSinceDelivery: secondsSince(send.sentAt) });
    if (await repo.hasRecentSequenceOpen(tx, send.id, OPEN_REPEAT_WINDOW_MINUTES, machine)) return true;
    await countSequenceEngagement(tx, send, 'open', machine);
    return true;
  });
}

/**
 * The links of the email step a sent sequence email was made from, in the order the email shows them
 * (compiled again from the stored flow, newest version that has the step); null when the send did
 * not go out or its step is gone.
 */
async function sequenceStepLinks(db: DbOrTx, sequenceSendId: number): Promise<string[] | null> {
  const found = await repo.sequenceSendFlows(db, sequenceSendId);
  const node = found?.flows
    .map((flow) => flow.nodes.find((n) => n.id === found.nodeId && n.type === 'email'))
    .find((n) => n !== undefined);
  if (!node) return null;
  // Neither the footer (unsubscribe and preferences are separate slots) nor the public URL (it
  // only makes uploaded images' addresses absolute) changes the links.
  const footer = { company: '', postalAddress: '', year: 0 };
  return compileEmail(node.data.blocks ?? [], node.data.subject ?? '', footer, '', node.data.content ?? '').links;
}

/**
 * A sequence email's click: the URL at `index` among the links of the email step it was made from
 * (so only links the email carried redirect), recorded like a campaign's click (the event's detail
 * is the URL: a step's links have no stored rows); null when the send, the step or the index is unknown.
 */
export async function recordSequenceClick(
  db: Db,
  sequenceSendId: number,
  index: number,
  requester: Requester,
): Promise<string | null> {
  const url = (await sequenceStepLinks(db, sequenceSendId))?.[index];
  if (url === undefined) return null;
  return db.transaction(async (tx) => {
    const send = await repo.lockSentSequenceSend(tx, sequenceSendId);
    if (!send) return null;
    const bot = isBotClick({ ...requester, secondsSinceDelivery: secondsSince(send.sentAt) });
    await countSequenceEngagement(tx, send, 'click', bot, url.slice(0, 500));
    return url;
  });
}

/**
 * Click: the stored link's URL when the link belongs to the send's campaign, else null (no open
 * redirect). Mail signed now names the link by its index among the campaign's stored links; older
 * mail by the link's id. A bot's click (a scanner's user agent, or a burst over the message's links
 * soon after delivery: traffic.ts) is logged as such and redirects all the same.
 */
export async function recordClick(
  db: Db,
  sendId: number,
  link: { index: number } | { id: number },
  requester: Requester,
): Promise<string | null> {
  return db.transaction(async (tx) => {
    const send = await repo.lockSend(tx, sendId);
    if (!send) return null;
    const stored =
      'index' in link
        ? await repo.findCampaignLinkAt(tx, send.campaignId, link.index)
        : await repo.findCampaignLink(tx, send.campaignId, link.id);
    if (!stored) return null;
    const hit = { ...requester, secondsSinceDelivery: secondsSince(send.sentAt) };
    await recordEngagement(tx, send, async () => {
      const burst =
        withinScannerWindow(hit) && (await repo.flagClickBurst(tx, send, stored.id, SCANNER_BURST_SECONDS)) > 0;
      const bot = burst || isBotClick(hit);
      await repo.insertSendEvent(tx, send, 'click', stored.id, bot);
      await recordWebhookEvent(tx, send.userId, 'email.clicked', {
        campaignId: send.campaignId,
        contactId: send.contactId,
        email: send.email,
        url: stored.url,
        bot,
      });
    });
    return stored.url;
  });
}

const TOKEN = '([A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+)';
const OPEN_PIXEL = new RegExp(`<img\\b[^>]*\\bsrc="[^"]*/t/o/${TOKEN}"[^>]*>`, 'g');
const TRACKED_LINK = new RegExp(`https?://[^\\s"'<>]+/t/c/${TOKEN}(?:/(\\d{1,6}))?`, 'g');

/**
 * A message's HTML as the recipient saw it, minus tracking (for the sender viewing their own mail
 * in the Outbox, which must record no open or click): the open pixel is left out and tracked links
 * point straight at their destinations. Only tokens this app signed, for this campaign's links (or
 * a sequence email's step's links), are touched; old and current URL formats alike.
 */
export async function withoutTracking(
  db: DbOrTx,
  secret: string,
  html: string,
  campaignId: number | null,
): Promise<string> {
  let withoutPixel = html.replace(OPEN_PIXEL, (tag, token: string) =>
    sendOfOpenToken(secret, token) === null && verifySequenceToken(secret, token) === null ? tag : '',
  );
  if (!withoutPixel.includes('/t/c/')) return withoutPixel;
  // A sequence email's links (its send's token, the index among its step's links).
  const stepLinks = new Map<string, string[] | null>();
  for (const [, token, index] of withoutPixel.matchAll(TRACKED_LINK)) {
    if (!token || index === undefined || stepLinks.has(token)) continue;
    const sequenceSendId = verifySequenceToken(secret, token);
    if (sequenceSendId !== null) stepLinks.set(token, await sequenceStepLinks(db, sequenceSendId));
  }
  if (stepLinks.size > 0) {
    withoutPixel = withoutPixel.replace(TRACKED_LINK, (url, token: string, index: string | undefined) => {
      const at = index === undefined ? null : parseLinkIndex(index);
      const target = at === null ? undefined : stepLinks.get(token)?.[at];
      return target ? escapeHtml(target) : url;
    });
  }
  if (campaignId === null) return withoutPixel;
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
  /** The sender's lists this address is on (each can be left alone on the preferences page). */
  lists: { id: number; name: string }[];
};

function statusOf(reason: string | undefined): SubscriptionStatus {
  if (reason === undefined) return 'subscribed';
  if (reason === 'bounce') return 'bounced';
  if (reason === 'complaint') return 'complained';
  return 'unsubscribed';
}

/** The message an unsubscribe or preferences link names: a campaign send or a sequence send. */
export type MailRef = { campaignSendId: number } | { sequenceSendId: number };

/** Who received the message a link names, from which sender, and how to log an event of it. */
type Recipient = {
  userId: string;
  email: string;
  contactId: number | null;
  fromName: string | null;
  fromEmail: string | null;
  logEvent(tx: DbOrTx, type: 'unsubscribe'): Promise<void>;
};

async function recipientOf(db: DbOrTx, ref: MailRef): Promise<Recipient | null> {
  if ('campaignSendId' in ref) {
    const send = await repo.findSend(db, ref.campaignSendId);
    if (!send) return null;
    const campaign = await repo.findCampaignSender(db, send.campaignId);
    return {
      userId: send.userId,
      email: send.email,
      contactId: send.contactId,
      fromName: campaign?.fromName ?? null,
      fromEmail: campaign?.fromEmail ?? null,
      logEvent: (tx, type) => repo.insertSendEvent(tx, send, type),
    };
  }
  const send = await repo.findSequenceSend(db, ref.sequenceSendId);
  if (!send) return null;
  return {
    userId: send.userId,
    email: send.email,
    contactId: send.contactId,
    fromName: send.fromName,
    fromEmail: send.fromEmail,
    logEvent: (tx, type) => repo.insertSequenceEvent(tx, send, type),
  };
}

/** What the unsubscribe and preferences pages show: whose list it is and where the address stands. */
export async function unsubscribeView(db: Db, ref: MailRef): Promise<UnsubscribeView | null> {
  const recipient = await recipientOf(db, ref);
  if (!recipient) return null;
  const [sender, reason, lists] = await Promise.all([
    repo.findSenderAccount(db, recipient.userId),
    repo.findSuppressionReason(db, recipient.userId, recipient.email),
    recipient.contactId === null ? Promise.resolve([]) : repo.listsOfContact(db, recipient.userId, recipient.contactId),
  ]);
  const accountName = `${sender?.firstName ?? ''} ${sender?.lastName ?? ''}`.trim();
  return {
    email: recipient.email,
    sender: sender?.company || recipient.fromName || accountName || 'this sender',
    senderAddress: recipient.fromEmail,
    status: statusOf(reason),
    lists,
  };
}

/**
 * Takes the recipient of a message out of one of the sender's lists (the preferences page), leaving
 * the other lists and the subscription as they are. False when the link or the list does not match.
 */
export async function leaveList(db: Db, ref: MailRef, listId: number): Promise<boolean> {
  const recipient = await recipientOf(db, ref);
  if (!recipient || recipient.contactId === null) return false;
  return repo.leaveList(db, recipient.userId, listId, recipient.contactId);
}

/**
 * Unsubscribes the recipient of a message at once, campaign or sequence mail alike: the address is
 * suppressed, the contact made inactive, and every sequence enrolment of theirs in flight ends
 * (exit reason 'unsubscribed'). Safe to repeat.
 */
export async function unsubscribe(db: Db, ref: MailRef): Promise<boolean> {
  const recipient = await recipientOf(db, ref);
  if (!recipient) return false;
  await db.transaction(async (tx) => {
    const added = await repo.insertUnsubscribe(tx, recipient.userId, recipient.email);
    if (recipient.contactId !== null) await repo.setContactActive(tx, recipient.userId, recipient.contactId, false);
    await endSequenceEnrolmentsOf(tx, recipient.userId, recipient.email, 'unsubscribe');
    if (added) await recipient.logEvent(tx, 'unsubscribe');
    if (added)
      await recordWebhookEvent(tx, recipient.userId, 'contact.unsubscribed', {
        email: recipient.email,
        contactId: recipient.contactId,
      });
  });
  return true;
}

/**
 * Undoes the recipient's own unsubscribe: the suppression is removed and the contact is active
 * again. Safe to repeat ('subscribed' when there is nothing to undo). A bounce or spam complaint
 * is not the recipient's choice made here, so it stays ('blocked'). Null when the message is
 * unknown. Sequence enrolments that ended stay ended (the contact may be enrolled again).
 */
export async function resubscribe(db: Db, ref: MailRef): Promise<'resubscribed' | 'subscribed' | 'blocked' | null> {
  const recipient = await recipientOf(db, ref);
  if (!recipient) return null;
  return db.transaction(async (tx) => {
    const reason = await repo.findSuppressionReason(tx, recipient.userId, recipient.email, true);
    if (reason !== undefined && reason !== 'unsubscribe') return 'blocked';
    // Nothing to undo: a contact the sender set inactive themselves stays as they left it.
    if (reason === undefined) return 'subscribed';
    await repo.deleteUnsubscribe(tx, recipient.userId, recipient.email);
    if (recipient.contactId !== null) await repo.setContactActive(tx, recipient.userId, recipient.contactId, true);
    return 'resubscribed';
  });
}
