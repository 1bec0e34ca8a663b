import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { SendClaim } from '../../db/send-ledger.ts';
import type { OutgoingMessage, SendLedger } from '../../lib/mail-transport.ts';
import { retryOnConnectionLoss } from '../../lib/db-errors.ts';
import type { UserRow } from '../auth/index.ts';
import { claimAllowance } from '../billing/index.ts';
import { classifySmtpResponse, recordHardRejection, unsubscribeLocalPart, verpLocalPart } from '../bounces/index.ts';
import {
  claimsStaleAfterMs,
  returnPathFor,
  sendBatch,
  signDkim,
  suppressedAmong,
  type Allowance,
  type BatchResult,
  type BatchStore,
} from '../delivery/index.ts';
import {
  bounceHostFor,
  dkimSigningKeyFor,
  releaseDailySends,
  reserveDailySends,
  sendingDomainFor,
  signingKeyForMail,
} from '../domains/index.ts';

/** A row of a feed's ledger as the policy needs it: the send's id and its recipient. */
export type FeedRow = { id: number; email: string; contactId: number | null };

/** One message as a feed composes it, unsigned and without its envelope (the policy adds both). */
type ComposedMessage = Pick<OutgoingMessage, 'messageId' | 'from' | 'to' | 'subject' | 'raw' | 'sequence'> & {
  /** A test message (an alias's test forward): the Outbox marks it. */
  isTest?: boolean;
};

/** The key the policy signs a feed's messages with (a forward's ARC seal uses it too). */
export type SigningKey = Awaited<ReturnType<typeof signingKeyForMail>>;

/**
 * What a feature that sends in bulk supplies: only what differs between feeds. Which rows (`take`,
 * within the limit the policy computed, and `readBack` for a claim whose answer was lost), how to
 * compose one message, and what to do when a row is done or let go. Everything else is the
 * policy's (`sendFeed`).
 */
export type Feed<Row extends FeedRow> = FeedCommon<Row> &
  (
    | {
        /** The ledger the rows are in: the VERP return path's ledger letter and the hard bounce's owner. */
        ledger: 'campaign' | 'sequence';
      }
    | {
        /**
         * Forwards and auto-replies: their envelope is the feed's (`returnPath`: an SRS address, the
         * alias domain's bounces@, or the null sender), and a refusal is the forward's own outcome,
         * never a bounce against a list (see delivery/DESIGN.md).
         */
        ledger: 'forward';
        returnPath(row: Row): Promise<string>;
      }
  );

type FeedCommon<Row extends FeedRow> = {
  /** This batch's claim on the feed's rows (claim token, requeue, fail, renew, release). */
  sends: SendClaim;
  /** How the recorders mark a row sent (the same rules on every table of sends). */
  recordsTo: SendLedger;
  /** The sending account, as read when the batch started. */
  user: UserRow;
  /** The From address: its domain's DKIM key, warming cap and bounce host apply. */
  fromEmail: string;
  /**
   * Which DKIM key signs: `from-domain` the From domain's (or a parent's) verified key, else the
   * installation's; `own-domain` only the From domain's own verified key, and without it nothing
   * goes (mail on behalf of an alias: every row fails with the reason).
   */
  signing: 'from-domain' | 'own-domain';
  campaignId: number | null;
  sequenceId: number | null;
  /**
   * The account's monthly allowance and billing pause: `at-start` when every row was counted before
   * the feed began (a campaign's audience, at Send); `per-claim` when each claim takes no more than
   * the month has left (the account row locked while counting).
   */
  plan: 'at-start' | 'per-claim';
  /** With `per-claim`: nothing goes until the account confirmed its own address (mail on behalf of an alias). */
  requireConfirmed?: boolean;
  /**
   * The domain's warming cap: `per-chunk` reserves for each chunk the engine claims and hands back
   * by count what did not go, and once the cap is reached the feed's `deferRest` resumes the rest
   * tomorrow; `per-row` reserves inside the claim and the feed stamps the slot on each row it took
   * (`take`'s `warming`), to be handed back by `letGo` when the row leaves unsent.
   */
  warming: 'per-chunk' | 'per-row';
  /** Puts back rows whose claim is older than `staleBefore` (their batch died), other than this claim's. */
  requeueStale(ownClaimToken: string, staleBefore: Date): Promise<void>;
  /** Claims up to `limit` queued rows for `claimToken` (inside the claim's transaction with `per-claim` or `per-row`). */
  take(db: DbOrTx, limit: number, warming: { domainId: number; day: string } | null): Promise<Row[]>;
  /** The rows `claimToken` holds unsent (a claim whose answer was lost). */
  readBack(claimToken: string): Promise<Row[]>;
  /** Why a claimed row cannot be composed (it fails at once), or null. */
  unsendable?(row: Row): Promise<string | null>;
  /**
   * Composes one row's message, unsigned (the policy signs it with `key`). `unsubscribeMailto` is the
   * row's mailed-unsubscribe address (List-Unsubscribe's mailto) at the host its return path goes to,
   * which we receive; null for forwards (not list mail).
   */
  compose(row: Row, policy: { key: SigningKey; unsubscribeMailto: string | null }): Promise<ComposedMessage>;
  /** Whether the feed still wants to send (not paused or stopped). */
  isActive(): Promise<boolean>;
  /**
   * Whether the feed has nothing more to offer in this batch (every row of a batch of forwards was
   * claimed): the policy then claims no more without asking the database.
   */
  drained?(): boolean;
  /** Rows leave the claim unsent (requeued, failed, or with 'unsent' all it still holds): hand back what they held. */
  letGo?(ids: number[] | 'unsent'): Promise<void>;
  /** `newlySent` more rows were recorded as sent. */
  progress?(newlySent: number): Promise<void>;
  /** The warming cap held the rest back (`reason` says so): resume it at `resumesAt`. */
  deferRest?(resumesAt: Date, reason: string): Promise<void>;
  /**
   * The account's plan held rows back (billing paused sending, the month's emails are used up, or
   * the account is unconfirmed with `requireConfirmed`), in the claim's transaction: without this
   * hook they simply stay queued for the next batch.
   */
  held?(tx: DbOrTx, reason: string): Promise<void>;
  /** Sending resumed after a warming pause. */
  resumed?(): Promise<void>;
};

const unlimited = (wanted: number): Allowance => ({
  granted: wanted,
  resumesAt: null,
  giveBack: async () => undefined,
});

/** How long a feed's claims may go unrenewed before they are a dead batch's (the ledger's, else the engine's default). */
const staleAfterMs = (ctx: AppContext, sends: SendClaim) => sends.ledger.staleAfterMs ?? claimsStaleAfterMs(ctx.config);

/**
 * The DKIM key for mail from `fromDomain` under a `signing` rule (a feed's; a relayed SRS bounce
 * signs as a forward does, with the alias domain's own key or not at all).
 */
export async function signingKeyOf(
  ctx: AppContext,
  signing: 'from-domain' | 'own-domain',
  userId: string,
  fromDomain: string,
): Promise<SigningKey> {
  if (signing === 'from-domain') return signingKeyForMail(ctx.db, ctx.config, userId, fromDomain);
  const key = await dkimSigningKeyFor(ctx.db, ctx.config, userId, fromDomain);
  return key && key.domainName === fromDomain ? key : null;
}

const notVerified = (domain: string) =>
  `${domain} is not verified for this account (its DKIM record with the account's key is not in DNS): nothing is sent for its aliases`;

/**
 * The engine's store for a feed, under the one sending policy: the account's monthly allowance and
 * billing pause, the domain's warming cap, DKIM with the From domain's key, the VERP return path
 * naming the send (at the domain's verified bounce host, else the installation's) or a forward's
 * own envelope, the hard bounce recorded from the SMTP reply (suppressing the address), and every
 * ledger call retried on a lost connection. Suppressed addresses are checked in each claimed chunk
 * (besides each feed's own queue leaving them out; forwards are exempt: see delivery/DESIGN.md),
 * and the transport (an SMTP relay or the Outbox
 * catcher) is the engine's.
 */
async function feedStore<Row extends FeedRow>(ctx: AppContext, feed: Feed<Row>): Promise<BatchStore<Row>> {
  const { db, config } = ctx;
  const { sends, user } = feed;
  const fromDomain = feed.fromEmail.split('@')[1] ?? '';
  const dkimKey = await signingKeyOf(ctx, feed.signing, user.id, fromDomain);
  const unsigned = feed.signing === 'own-domain' && !dkimKey ? notVerified(fromDomain) : null;
  const sendingDomain = await sendingDomainFor(db, user.id, fromDomain);
  // A forward's envelope is its own: no VERP host to look up.
  const bounceDomain =
    feed.ledger === 'forward' ? null : await bounceHostFor(db, config, user.id, dkimKey?.domainName ?? null);
  const staleAfter = staleAfterMs(ctx, sends);
  const letGo = (ids: number[] | 'unsent') => (feed.letGo ? feed.letGo(ids) : Promise.resolve());
  // Today's warming cap as last reserved: the deferral's reason names it.
  let dailyLimit: number | null = null;

  // The claim's own transaction holds the account's lock (its monthly count) and the warming
  // reservation, so a worker killed at any moment leaves neither counted without a row.
  const takeWithinPolicy = (limit: number): Promise<Row[]> => {
    const perRowWarming = feed.warming === 'per-row' && sendingDomain;
    if (feed.plan === 'at-start' && !perRowWarming) return feed.take(db, limit, null);
    return db.transaction(async (tx) => {
      const plan =
        feed.plan === 'per-claim'
          ? await claimAllowance(tx, config, user.id, limit, {
              fallback: user,
              requireConfirmed: feed.requireConfirmed ?? false,
            })
          : null;
      const allowed = plan ? plan.granted : limit;
      const reservation = perRowWarming && allowed > 0 ? await reserveDailySends(tx, sendingDomain.id, allowed) : null;
      const granted = reservation ? reservation.granted : allowed;
      const claimed =
        granted > 0
          ? await feed.take(
              tx,
              granted,
              perRowWarming && reservation ? { domainId: sendingDomain.id, day: reservation.day } : null,
            )
          : [];
      // Slots no row took (the frequency cap or an empty queue held rows back) go back in the same step.
      if (perRowWarming && reservation && claimed.length < granted)
        await releaseDailySends(tx, sendingDomain.id, granted - claimed.length, reservation.day);
      // The plan let fewer go than were asked for: the rest waits as the feed parks it.
      if (plan && allowed < limit && feed.held)
        await feed.held(tx, plan.blocked ?? plan.limitReason(claimed.length) ?? 'Sending is paused');
      await plan?.taken(claimed.length);
      return claimed;
    });
  };

  const fail = async (row: Row, error: string, hard: { reason: string | null } | null) => {
    // A forward's refusal is its own outcome (the alias's activity shows it), never a list's bounce.
    const bounced = hard !== null && feed.ledger !== 'forward';
    await sends.fail(row.id, error, bounced);
    await letGo([row.id]);
    if (hard && feed.ledger !== 'forward')
      await recordHardRejection(
        db,
        { ...row, ledger: feed.ledger, userId: user.id, campaignId: feed.campaignId, sequenceId: feed.sequenceId },
        error,
        hard.reason,
      );
  };

  return {
    claimToken: sends.token,
    async claim(limit) {
      if (feed.drained?.()) return [];
      const rows = await sends.claim(async () => {
        await feed.requeueStale(sends.token, new Date(Date.now() - staleAfter));
        return takeWithinPolicy(limit);
      }, feed.readBack);
      // Rows are left out of every feed's queue when suppressed; an address suppressed since its row
      // was queued (an unsubscribe or a hard bounce mid-send) is caught here, one query per chunk.
      const listed =
        sends.ledger.suppressed === null || rows.length === 0
          ? new Set<string>()
          : await retryOnConnectionLoss(() =>
              suppressedAmong(
                db,
                user.id,
                rows.map((row) => row.email),
              ),
            );
      if (!feed.unsendable && !unsigned && listed.size === 0) return rows;
      const sendable: Row[] = [];
      for (const row of rows) {
        if (listed.has(row.email.toLowerCase())) {
          await sends.suppress(row.id);
          await letGo([row.id]);
          continue;
        }
        const reason = unsigned ?? (feed.unsendable ? await feed.unsendable(row) : null);
        if (reason === null) sendable.push(row);
        else await fail(row, reason, null);
      }
      return sendable;
    },
    async compose(row) {
      let returnPath: string;
      let unsubscribeMailto: string | null = null;
      if (feed.ledger === 'forward') returnPath = await feed.returnPath(row);
      else {
        returnPath = returnPathFor({
          signingDomain: dkimKey?.domainName ?? null,
          installationDomain: config.mailFromDomain,
          verpLocalPart: verpLocalPart(config.sessionSecret, row.id, feed.ledger),
          bounceDomain,
        });
        // The host bounces come back to is one our inbound server takes mail for: a mailed
        // unsubscribe goes there too, named by its own token (modules/bounces/verp.ts).
        const host = returnPath.slice(returnPath.lastIndexOf('@') + 1);
        unsubscribeMailto = `${unsubscribeLocalPart(config.sessionSecret, row.id, feed.ledger)}@${host}`;
      }
      const message = await feed.compose(row, { key: dkimKey, unsubscribeMailto });
      return {
        ...message,
        userId: user.id,
        campaignId: feed.campaignId,
        returnPath,
        raw: dkimKey ? await signDkim(message.raw, dkimKey) : message.raw,
        isTest: message.isTest ?? false,
      };
    },
    async allowance(wanted) {
      if (feed.drained?.()) return unlimited(0);
      if (feed.warming !== 'per-chunk' || !sendingDomain) return unlimited(wanted);
      // Repeating a reservation whose answer was lost reserves twice: the cap errs on the safe side.
      const reservation = await retryOnConnectionLoss(() => reserveDailySends(db, sendingDomain.id, wanted));
      dailyLimit = reservation.dailyLimit;
      return {
        granted: reservation.granted,
        resumesAt: reservation.resumesAt,
        giveBack: (count) =>
          count > 0 ? releaseDailySends(db, sendingDomain.id, count, reservation.day) : Promise.resolve(),
      };
    },
    isActive: () => retryOnConnectionLoss(() => feed.isActive()),
    async requeue(row, error) {
      await letGo([row.id]);
      await sends.requeue(row.id, error);
    },
    // The rejection the relay gave in the SMTP conversation, read like a bounce report: only an
    // address-level failure (user or host unknown, moved, null MX) is hard and suppresses.
    async fail(row, error) {
      const verdict = classifySmtpResponse(error, row.email);
      await fail(row, error, verdict.hard ? { reason: verdict.reason } : null);
    },
    // Repeating an addition whose answer was lost over-counts until the end, when the exact count is taken.
    progress: (newlySent) =>
      feed.progress ? retryOnConnectionLoss(() => feed.progress?.(newlySent) ?? Promise.resolve()) : Promise.resolve(),
    deferRest: (resumesAt) =>
      feed.deferRest?.(
        resumesAt,
        `The domain's warming cap for today (${dailyLimit ?? 0}) is reached; it goes when the cap allows`,
      ) ?? Promise.resolve(),
    resumed: () =>
      feed.resumed ? retryOnConnectionLoss(() => feed.resumed?.() ?? Promise.resolve()) : Promise.resolve(),
    async releaseClaims() {
      await letGo('unsent');
      await sends.release();
    },
    renewClaims: () => sends.renew(),
  };
}

/**
 * Sends what a feed has to send now through the delivery engine, under the sending policy; answers
 * the engine's tally (rows the server deferred are back in the queue: the caller's job retries).
 */
export async function sendFeed<Row extends FeedRow>(ctx: AppContext, feed: Feed<Row>): Promise<BatchResult> {
  const store = await feedStore(ctx, feed);
  return sendBatch(
    { store, recorder: ctx.recorders.for(feed.recordsTo), transport: ctx.transport },
    { concurrency: ctx.config.smtpMaxConnections, claimsStaleAfterMs: staleAfterMs(ctx, feed.sends) },
  );
}
