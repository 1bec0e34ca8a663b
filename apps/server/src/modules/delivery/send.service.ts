import { randomBytes } from 'node:crypto';
import { and, count, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import {
  campaignLinks,
  campaigns,
  campaignSends,
  contactSegments,
  contacts,
  emailEvents,
  suppressions,
} from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { wakeWorkers } from '../../lib/queue.ts';
import { findUserById, type UserRow } from '../auth/auth.repo.ts';
import { compileCampaign, CAMPAIGN_NOT_FOUND } from '../campaigns/campaigns.service.ts';
import { lockCampaign, findCampaign, type CampaignRow } from '../campaigns/campaigns.repo.ts';
import { renderForRecipient, type CompiledEmail } from '../campaigns/email-renderer.ts';
import { planById } from '../pricing/plan-catalogue.ts';
import { planIdSchema } from '@sendwell/contract/pricing';
import { recomputeMembership } from '../segments/segments.repo.ts';
import { compileConditions } from '../segments/segment-sql.ts';
import { buildRawMessage, newMessageId, signDkim } from './message.ts';
import {
  dkimSigningKeyFor,
  releaseDailySends,
  reserveDailySends,
  sendingDomainFor,
} from '../domains/domains.sending.ts';
import { recipientPredicate } from './recipients.ts';
import { recordSend } from './send-record.ts';
import { trackedLinks } from './tracked-links.ts';
import { TransportError, type HeldDot, type Transport } from './transport.ts';

/** Recipients per batch job: large enough to amortise job overhead, small enough to retry cheaply. */
export const SEND_BATCH_SIZE = 1000;
export const SEND_BATCH_JOB = 'campaign.send-batch';
export const START_SCHEDULED_JOB = 'campaign.start-scheduled';
export const RECOVER_SENDS_JOB = 'campaign.recover-sends';
export const POSTAL_ADDRESS_REQUIRED =
  'Add your postal address before sending: the law requires it in every campaign footer. Set it on your Profile page (avatar menu → Profile).';

/** Emails the user has sent since the start of this calendar month (UTC). */
async function sentThisMonth(db: DbOrTx, userId: string): Promise<number> {
  const monthStart = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
  const [row] = await db
    .select({ n: count() })
    .from(campaignSends)
    .where(
      and(
        eq(campaignSends.userId, userId),
        inArray(campaignSends.status, ['sent', 'sending']),
        gte(campaignSends.sentAt, monthStart),
      ),
    );
  return row?.n ?? 0;
}

/**
 * Starts sending a draft or scheduled campaign: resolves the recipients once into the send ledger
 * (UNIQUE per campaign and contact), stores its links, moves it to 'sending' and queues one job per
 * batch of recipients. Checks the postal address (422) and the plan's monthly limit (403) first.
 */
export async function startCampaignSend(ctx: AppContext, userId: string, campaignId: number): Promise<CampaignRow> {
  const user = await findUserById(ctx.db, userId);
  if (!user || !(await findCampaign(ctx.db, userId, campaignId))) throw new AppError('not_found', CAMPAIGN_NOT_FOUND);
  if (!user.postalAddress.trim()) throw new AppError('unprocessable', POSTAL_ADDRESS_REQUIRED);

  const started = await ctx.db.transaction(async (tx) => {
    const campaign = await lockCampaign(tx, userId, campaignId);
    if (!campaign) throw new AppError('not_found', CAMPAIGN_NOT_FOUND);
    if (campaign.status !== 'draft' && campaign.status !== 'scheduled') {
      throw new AppError('conflict', `This campaign is ${campaign.status} and cannot be sent again`);
    }
    // Auto-updating segments are brought up to date before the audience is fixed.
    if (campaign.segmentIds.length > 0) {
      const autoSegments = await tx
        .select()
        .from(contactSegments)
        .where(
          and(
            eq(contactSegments.userId, userId),
            inArray(contactSegments.id, campaign.segmentIds),
            eq(contactSegments.isAutoUpdate, true),
          ),
        );
      for (const segment of autoSegments) await recomputeMembership(tx, segment, compileConditions(segment.conditions));
    }
    const inserted = await tx.execute(sql`
      INSERT INTO ${campaignSends} (campaign_id, user_id, contact_id, email, first_name, last_name, company)
      SELECT ${campaign.id}, ${userId}, ${contacts.id}, ${contacts.email}, ${contacts.firstName}, ${contacts.lastName}, ${contacts.company}
      FROM ${contacts} WHERE ${recipientPredicate(userId, campaign.listIds, campaign.segmentIds)}
      ON CONFLICT DO NOTHING`);
    const recipients = inserted.rowCount ?? 0;
    if (recipients === 0) {
      throw new AppError(
        'bad_request',
        'This campaign has no recipients: choose at least one list or segment with active contacts.',
      );
    }
    const limit = planById(planIdSchema.catch('starter').parse(user.plan)).limits.emailsPerMonth;
    if (limit !== null) {
      const left = Math.max(0, limit - (await sentThisMonth(tx, userId)));
      if (recipients > left) {
        throw new AppError(
          'forbidden',
          `This campaign has ${recipients.toLocaleString('en-US')} recipients but your plan has ${left.toLocaleString('en-US')} emails left this month.`,
        );
      }
    }
    const compiled = compileCampaign(campaign, user, ctx.config.publicUrl);
    if (compiled.links.length > 0) {
      await tx
        .insert(campaignLinks)
        .values(compiled.links.map((url) => ({ campaignId: campaign.id, url })))
        .onConflictDoNothing();
    }
    const [row] = await tx
      .update(campaigns)
      .set({ status: 'sending', totalRecipients: recipients, scheduledAt: null, updatedAt: new Date() })
      .where(eq(campaigns.id, campaign.id))
      .returning();
    const [range] = await tx
      .select({
        min: sql<number>`min(${campaignSends.id})`.mapWith(Number),
        max: sql<number>`max(${campaignSends.id})`.mapWith(Number),
      })
      .from(campaignSends)
      .where(eq(campaignSends.campaignId, campaign.id));
    return { row: row ?? campaign, range: range ?? { min: 0, max: 0 } };
  });
  await queueBatches(ctx, campaignId, started.range.min, started.range.max);
  return started.row;
}

/** One job per id range of the ledger; a job that dies is retried and skips rows already sent. */
async function queueBatches(ctx: AppContext, campaignId: number, minId: number, maxId: number): Promise<void> {
  const jobs = [];
  for (let from = minId; from <= maxId; from += SEND_BATCH_SIZE) {
    jobs.push({
      name: SEND_BATCH_JOB,
      data: { campaignId, fromId: from, toId: Math.min(maxId, from + SEND_BATCH_SIZE - 1) },
      retryLimit: 10,
      retryDelay: 15,
      retryBackoff: true,
      // A batch whose worker died is handed to another worker after this long.
      expireInSeconds: ctx.config.sendBatchTimeoutSeconds,
    });
  }
  if (jobs.length > 0) {
    await ctx.queue.insert(jobs);
    wakeWorkers(ctx.queue, SEND_BATCH_JOB);
  }
}

/** Queues the start of a scheduled campaign at its time (pg-boss startAfter). */
export async function scheduleCampaignStart(ctx: AppContext, campaignId: number, at: Date): Promise<void> {
  await ctx.queue.send(
    START_SCHEDULED_JOB,
    { campaignId },
    { startAfter: at, singletonKey: `campaign-${campaignId}-${at.getTime()}` },
  );
}

const compiledCache = new Map<string, CompiledEmail>();

/** Campaign, sender and compiled email for a batch; compiled once per campaign version per process. */
async function sendingContext(ctx: AppContext, campaignId: number) {
  const [campaign] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId)).limit(1);
  if (!campaign) return null;
  const user = await findUserById(ctx.db, campaign.userId);
  if (!user) return null;
  const key = `${campaign.id}:${campaign.updatedAt.getTime()}`;
  let compiled = compiledCache.get(key);
  if (!compiled) {
    compiled = compileCampaign(campaign, user, ctx.config.publicUrl);
    compiledCache.set(key, compiled);
  }
  const links = await ctx.db.select().from(campaignLinks).where(eq(campaignLinks.campaignId, campaign.id));
  const linkIds = compiled.links.map((url) => links.find((l) => l.url === url)?.id ?? 0);
  const fromDomain = campaign.fromEmail.split('@')[1] ?? '';
  const dkimKey = await dkimSigningKeyFor(ctx.db, ctx.config, user.id, fromDomain);
  const sendingDomain = await sendingDomainFor(ctx.db, user.id, fromDomain);
  return { campaign, user, compiled, linkIds, dkimKey, sendingDomain };
}

/** Mailbox-level permanent failures (the address is bad), as opposed to policy or content rejections. */
function isHardBounce(error: TransportError): boolean {
  return (
    error.kind === 'reject' &&
    (error.responseCode === 550 || error.responseCode === 551 || error.responseCode === 553) &&
    /mailbox|user|recipient|address|unknown|no such/i.test(error.message)
  );
}

/** Rows claimed at a time: small, so a worker that dies holds little and others take over soon. */
const CLAIM_SIZE = 50;

/**
 * Claims up to `limit` queued rows of the range for this worker (SKIP LOCKED, so two workers never
 * claim the same row), first re-queuing rows whose claim went stale because their worker died.
 */
async function claimRows(
  ctx: AppContext,
  batch: { campaignId: number; fromId: number; toId: number },
  claimToken: string,
  limit: number,
) {
  const staleBefore = new Date(Date.now() - (ctx.config.sendBatchTimeoutSeconds * 1000) / 2);
  await ctx.db.execute(sql`
    UPDATE ${campaignSends} SET status = 'queued', claim_token = NULL
    WHERE campaign_id = ${batch.campaignId} AND id BETWEEN ${batch.fromId} AND ${batch.toId}
      AND status = 'sending' AND claimed_at < ${staleBefore.toISOString()}::timestamptz`);
  const result = await ctx.db.execute(sql`
    UPDATE ${campaignSends} SET status = 'sending', claim_token = ${claimToken}, claimed_at = now(), attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM ${campaignSends}
      WHERE campaign_id = ${batch.campaignId} AND id BETWEEN ${batch.fromId} AND ${batch.toId} AND status = 'queued'
      ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING id, contact_id AS "contactId", email, first_name AS "firstName", last_name AS "lastName", company`);
  return result.rows as {
    id: number;
    contactId: number | null;
    email: string;
    firstName: string;
    lastName: string;
    company: string | null;
  }[];
}

/**
 * Sends one batch of a campaign's ledger. Rows are claimed a few at a time; each message's record
 * as sent is committed in the same step that writes its final dot, and only by the claim that owns
 * it, so a worker killed at any point leaves each recipient with one message (send-record.ts,
 * transport.ts). 5xx answers mark rows failed
 * (mailbox errors also suppress the address); 4xx and network errors put rows back in the queue
 * and fail the job, so pg-boss retries it later with backoff. Warming caps defer what is over the
 * day's allowance to the next day.
 */
export async function sendCampaignBatch(
  ctx: AppContext,
  transport: Transport,
  batch: { campaignId: number; fromId: number; toId: number },
  concurrency = ctx.config.smtpMaxConnections,
): Promise<void> {
  const context = await sendingContext(ctx, batch.campaignId);
  if (!context || context.campaign.status !== 'sending') return;
  const { campaign, user, compiled, linkIds, dkimKey, sendingDomain } = context;
  const secret = ctx.config.sessionSecret;
  const base = ctx.config.publicUrl;
  const claimToken = randomBytes(9).toString('base64url');
  let retryLater = 0;
  const pendingRecords = new Set<Promise<void>>();
  let progressAt = Date.now();
  let unreported = 0;

  // A pause or cancel takes effect within a second, also in the middle of a batch.
  let stillSending = true;
  let checkedAt = Date.now();
  const keepGoing = async () => {
    if (Date.now() - checkedAt > 1000) {
      checkedAt = Date.now();
      const [current] = await ctx.db
        .select({ status: campaigns.status })
        .from(campaigns)
        .where(eq(campaigns.id, campaign.id))
        .limit(1);
      stillSending = current?.status === 'sending';
    }
    return stillSending;
  };

  type ClaimedRow = Awaited<ReturnType<typeof claimRows>>[number];
  /** Renders and signs one recipient's message (CPU work, done before any of the chunk is sent). */
  const prepare = async (row: ClaimedRow) => {
    const links = trackedLinks(base, secret, row.id, linkIds);
    const unsubscribeUrl = links.unsubscribe;
    const { subject, html, text } = renderForRecipient(compiled, row, links);
    const messageId = newMessageId(campaign.fromEmail);
    const unsigned = buildRawMessage({
      from: { name: campaign.fromName, address: campaign.fromEmail },
      to: row.email,
      replyTo: campaign.replyTo,
      subject,
      html,
      text,
      messageId,
      unsubscribeUrl,
      isTest: false,
    });
    return { row, subject, messageId, raw: dkimKey ? await signDkim(unsigned, dkimKey) : unsigned };
  };

  const sendOne = async ({ row, subject, messageId, raw }: Awaited<ReturnType<typeof prepare>>) => {
    // The mark that makes a message count as sent, committed together with its final dot.
    // Its completion is not waited for here (on Postgres it lasts a few ms, see send-record.ts):
    // the connection goes on to the next message and the batch collects it before it ends.
    const markSent = async (within?: DbOrTx) => {
      const record = await recordSend(
        ctx.database,
        { id: row.id, claimToken, messageId },
        within,
        ctx.config.sendEarlyJoinMaxMs,
      );
      if (!record) return null;
      return {
        ...record,
        finish: (dot: HeldDot) => {
          const committed = record.finish(dot).catch(async () => {
            // The message went out but its record did not commit: mark it sent without ceremony.
            await ctx.db
              .update(campaignSends)
              .set({ status: 'sent', sentAt: new Date(), messageId, error: null })
              .where(and(eq(campaignSends.id, row.id), eq(campaignSends.claimToken, claimToken)));
          });
          pendingRecords.add(committed);
          void committed.finally(() => pendingRecords.delete(committed));
          return committed;
        },
      };
    };
    try {
      // The ledger row (status 'sent', sent_at) is the record of sending; no separate event is written.
      await transport.send(
        {
          userId: user.id,
          campaignId: campaign.id,
          messageId,
          from: campaign.fromEmail,
          to: row.email,
          subject,
          raw,
          isTest: false,
        },
        markSent,
      );
      return true;
    } catch (error) {
      if (error instanceof TransportError && error.kind === 'superseded') return false;
      const message = (error as Error).message.slice(0, 500);
      const mine = and(eq(campaignSends.id, row.id), eq(campaignSends.claimToken, claimToken));
      // Recorded and dot sent, but the answer was lost: the server most likely has it, and a second
      // copy is worse than an unconfirmed one, so the row stays sent.
      if (error instanceof TransportError && error.kind === 'retry' && error.afterCommit) return true;
      if (!(error instanceof TransportError) || error.kind === 'retry') {
        retryLater += 1;
        await ctx.db.update(campaignSends).set({ status: 'queued', claimToken: null, error: message }).where(mine);
        return false;
      }
      const bounced = isHardBounce(error);
      await ctx.db
        .update(campaignSends)
        .set({ status: bounced ? 'bounced' : 'failed', error: message })
        .where(mine);
      if (bounced) {
        await ctx.db
          .insert(suppressions)
          .values({ userId: user.id, email: row.email, reason: 'bounce' })
          .onConflictDoNothing();
        await ctx.db.insert(emailEvents).values({
          userId: user.id,
          campaignId: campaign.id,
          sendId: row.id,
          contactId: row.contactId,
          type: 'bounce',
          detail: message,
        });
      }
      return false;
    }
  };

  /** Claims the next rows (within the warming allowance) and renders them; empty when there is nothing left now. */
  const nextChunk = async () => {
    let allowance = CLAIM_SIZE;
    let reservation: Awaited<ReturnType<typeof reserveDailySends>> | null = null;
    if (sendingDomain) {
      reservation = await reserveDailySends(ctx.db, sendingDomain.id, CLAIM_SIZE);
      allowance = reservation.granted;
    }
    const rows = allowance > 0 ? await claimRows(ctx, batch, claimToken, allowance) : [];
    if (reservation && sendingDomain && rows.length < reservation.granted) {
      await releaseDailySends(ctx.db, sendingDomain.id, reservation.granted - rows.length, reservation.day);
    }
    const prepared: Awaited<ReturnType<typeof prepare>>[] = [];
    for (const row of rows) prepared.push(await prepare(row));
    return { prepared, reservation };
  };

  type Chunk = {
    prepared: Awaited<ReturnType<typeof prepare>>[];
    reservation: Awaited<ReturnType<typeof nextChunk>>['reservation'];
    done: number;
    delivered: number;
  };
  /** Rendered messages waiting for a connection, in order; the next chunk is claimed before it runs dry. */
  const waitingToSend: { item: Awaited<ReturnType<typeof prepare>>; chunk: Chunk }[] = [];
  let exhausted = false;
  let loading: Promise<void> | null = null;

  /** When nothing is left to claim now: if warming held rows back, the batch resumes at the next allowance. */
  const deferRest = async (resumesAt: Date | null | undefined) => {
    const [waiting] = await ctx.db
      .select({ n: count() })
      .from(campaignSends)
      .where(
        and(
          eq(campaignSends.campaignId, campaign.id),
          gte(campaignSends.id, batch.fromId),
          lte(campaignSends.id, batch.toId),
          eq(campaignSends.status, 'queued'),
        ),
      );
    if (resumesAt && (waiting?.n ?? 0) > 0) {
      await ctx.db.update(campaigns).set({ pausedUntil: resumesAt }).where(eq(campaigns.id, campaign.id));
      await ctx.queue.send(SEND_BATCH_JOB, batch, {
        startAfter: resumesAt,
        retryLimit: 10,
        retryDelay: 30,
        retryBackoff: true,
        expireInSeconds: ctx.config.sendBatchTimeoutSeconds,
      });
    }
  };

  const load = () =>
    (loading ??= (async () => {
      try {
        if (!(await keepGoing())) {
          exhausted = true;
          return;
        }
        const { prepared, reservation } = await nextChunk();
        if (prepared.length === 0) {
          exhausted = true;
          await deferRest(reservation?.resumesAt);
          return;
        }
        if (campaign.pausedUntil) {
          campaign.pausedUntil = null;
          await ctx.db.update(campaigns).set({ pausedUntil: null }).where(eq(campaigns.id, campaign.id));
        }
        const chunk: Chunk = { prepared, reservation, done: 0, delivered: 0 };
        for (const item of prepared) waitingToSend.push({ item, chunk });
      } finally {
        loading = null;
      }
    })());

  // Each connection's slot takes the next rendered message as soon as it is free; the next chunk is
  // claimed and rendered while the current one still has work for every slot.
  const slot = async () => {
    for (;;) {
      if (waitingToSend.length <= concurrency && !exhausted) load().catch(() => undefined); // a failed load is tried again by the next slot that needs one
      let next = waitingToSend.shift();
      while (!next && !exhausted) {
        await load();
        next = waitingToSend.shift();
      }
      if (!next) return;
      const { item, chunk } = next;
      if (!(await keepGoing())) {
        await ctx.db
          .update(campaignSends)
          .set({ status: 'queued', claimToken: null })
          .where(and(eq(campaignSends.id, item.row.id), eq(campaignSends.claimToken, claimToken)));
      } else if (await sendOne(item)) {
        chunk.delivered += 1;
        unreported += 1;
      }
      chunk.done += 1;
      // What was reserved but did not go out is handed back, so daily counts stay real sends.
      if (chunk.done === chunk.prepared.length && chunk.reservation && sendingDomain && chunk.delivered < chunk.done) {
        await releaseDailySends(ctx.db, sendingDomain.id, chunk.done - chunk.delivered, chunk.reservation.day);
      }
      // The live figure on the campaigns page moves about once a second.
      if (Date.now() - progressAt > 1000) {
        progressAt = Date.now();
        const reported = unreported;
        unreported = 0;
        await refreshCampaignProgress(ctx.db, campaign.id, reported);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, slot));
  if (loading) await loading;
  await Promise.all(pendingRecords);
  // A chunk claimed after a pause or cancel goes back to the queue.
  await ctx.db
    .update(campaignSends)
    .set({ status: 'queued', claimToken: null })
    .where(
      and(
        eq(campaignSends.campaignId, campaign.id),
        eq(campaignSends.status, 'sending'),
        eq(campaignSends.claimToken, claimToken),
      ),
    );
  await refreshCampaignProgress(ctx.db, campaign.id, unreported);
  if (retryLater > 0)
    throw new Error(`${retryLater} recipients were deferred by the mail server; the batch will be retried`);
}

/**
 * Moves the campaign's totalSent forward and marks it sent when no recipient is left queued. While
 * sending, `newlySent` (what this worker sent since its last report) is added, which costs nothing
 * however large the ledger; the exact count is taken once nothing is left to send (by every batch
 * that ends then, so one finishing after another still counts its own), or when no `newlySent`
 * is given.
 */
export async function refreshCampaignProgress(db: DbOrTx, campaignId: number, newlySent?: number): Promise<void> {
  const exactCount = sql`(SELECT count(*) FROM ${campaignSends} WHERE campaign_id = ${campaignId} AND status = 'sent')`;
  await db.execute(sql`
    WITH state AS (
      SELECT NOT EXISTS (SELECT 1 FROM ${campaignSends} WHERE campaign_id = ${campaignId} AND status IN ('queued', 'sending')) AS done
    )
    UPDATE ${campaigns} c SET
      total_sent = CASE
        WHEN ${newlySent === undefined ? sql`true` : sql`c.status IN ('sending', 'sent') AND state.done`} THEN ${exactCount}
        ELSE c.total_sent + ${newlySent ?? 0} END,
      status = CASE WHEN c.status = 'sending' AND state.done THEN 'sent' ELSE c.status END,
      sent_at = CASE WHEN c.status = 'sending' AND state.done THEN now() ELSE c.sent_at END,
      updated_at = now()
    FROM state
    WHERE c.id = ${campaignId}`);
}

/** Starts a scheduled campaign when its job fires (idempotent: only if it is still scheduled and due). */
export async function startScheduledCampaign(ctx: AppContext, campaignId: number): Promise<void> {
  const [campaign] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId)).limit(1);
  if (!campaign || campaign.status !== 'scheduled' || !campaign.scheduledAt) return;
  // Fired early (this process's clock is behind the database's): wait for the time again rather
  // than leave the campaign scheduled forever.
  if (campaign.scheduledAt.getTime() > Date.now() + 1000) {
    // No singleton key: this job is still active and would block its own successor.
    await ctx.queue.send(START_SCHEDULED_JOB, { campaignId }, { startAfter: campaign.scheduledAt });
    return;
  }
  await startCampaignSend(ctx, campaign.userId, campaignId);
}

/** Sends the rendered campaign, marked as a test, to the given addresses (nothing is tracked or counted). */
export async function sendTestEmails(
  ctx: AppContext,
  transport: Transport,
  user: UserRow,
  campaignId: number,
  emails: string[],
): Promise<number> {
  const campaign = await findCampaign(ctx.db, user.id, campaignId);
  if (!campaign) throw new AppError('not_found', CAMPAIGN_NOT_FOUND);
  const compiled = compileCampaign(campaign, user, ctx.config.publicUrl);
  for (const email of emails) {
    const { subject, html, text } = renderForRecipient(
      compiled,
      { firstName: user.firstName, lastName: user.lastName, email, company: user.company || null },
      {
        click: (i) => compiled.links[i] ?? '#',
        openPixel: null,
        unsubscribe: `${ctx.config.publicUrl}/u/test`,
        preferences: `${ctx.config.publicUrl}/u/test`,
      },
    );
    const messageId = newMessageId(campaign.fromEmail);
    const unsigned = buildRawMessage({
      from: { name: campaign.fromName, address: campaign.fromEmail },
      to: email,
      replyTo: campaign.replyTo,
      subject,
      html,
      text,
      messageId,
      unsubscribeUrl: null,
      isTest: true,
    });
    const dkimKey = await dkimSigningKeyFor(ctx.db, ctx.config, user.id, campaign.fromEmail.split('@')[1] ?? '');
    const raw = dkimKey ? await signDkim(unsigned, dkimKey) : unsigned;
    try {
      await transport.send({
        userId: user.id,
        campaignId: campaign.id,
        messageId,
        from: campaign.fromEmail,
        to: email,
        subject: `[Test] ${subject}`,
        raw,
        isTest: true,
      });
    } catch (error) {
      throw new AppError(
        'bad_request',
        `The mail server did not accept the test for ${email}: ${(error as Error).message}`,
      );
    }
  }
  return emails.length;
}

async function changeStatus(
  ctx: AppContext,
  userId: string,
  campaignId: number,
  from: string[],
  to: string,
): Promise<CampaignRow> {
  return ctx.db.transaction(async (tx) => {
    const campaign = await lockCampaign(tx, userId, campaignId);
    if (!campaign) throw new AppError('not_found', CAMPAIGN_NOT_FOUND);
    if (!from.includes(campaign.status))
      throw new AppError('conflict', `A ${campaign.status} campaign cannot be ${to === 'sending' ? 'resumed' : to}`);
    const [row] = await tx
      .update(campaigns)
      .set({ status: to, updatedAt: new Date() })
      .where(eq(campaigns.id, campaignId))
      .returning();
    if (to === 'canceled') {
      await tx
        .update(campaignSends)
        .set({ status: 'canceled' })
        .where(and(eq(campaignSends.campaignId, campaignId), eq(campaignSends.status, 'queued')));
    }
    return row ?? campaign;
  });
}

/** Stops a sending campaign after the messages in flight; nothing queued is lost. */
export function pauseCampaign(ctx: AppContext, userId: string, campaignId: number): Promise<CampaignRow> {
  return changeStatus(ctx, userId, campaignId, ['sending'], 'paused');
}

/** Continues a paused campaign with the recipients still queued. */
export async function resumeCampaign(ctx: AppContext, userId: string, campaignId: number): Promise<CampaignRow> {
  const row = await changeStatus(ctx, userId, campaignId, ['paused'], 'sending');
  const [range] = await ctx.db
    .select({ min: sql<number | null>`min(${campaignSends.id})`, max: sql<number | null>`max(${campaignSends.id})` })
    .from(campaignSends)
    .where(and(eq(campaignSends.campaignId, campaignId), eq(campaignSends.status, 'queued')));
  if (range?.min != null && range.max != null)
    await queueBatches(ctx, campaignId, Number(range.min), Number(range.max));
  else await refreshCampaignProgress(ctx.db, campaignId);
  return row;
}

/** Cancels a scheduled, sending or paused campaign; recipients not yet sent are marked canceled. */
export function cancelCampaign(ctx: AppContext, userId: string, campaignId: number): Promise<CampaignRow> {
  return changeStatus(ctx, userId, campaignId, ['scheduled', 'sending', 'paused'], 'canceled');
}

/**
 * Picks up sends whose worker died: in every campaign still 'sending', claims older than half the
 * batch timeout go back to the queue and one fresh batch job covers what is queued. Runs every
 * minute and when a worker starts; extra jobs are harmless, since rows are claimed one owner at a time.
 */
export async function recoverCampaignSends(ctx: AppContext): Promise<number> {
  const staleBefore = new Date(Date.now() - (ctx.config.sendBatchTimeoutSeconds * 1000) / 2);
  await ctx.db.execute(sql`
    UPDATE ${campaignSends} s SET status = 'queued', claim_token = NULL
    FROM ${campaigns} c
    WHERE s.campaign_id = c.id AND c.status = 'sending' AND s.status = 'sending' AND s.claimed_at < ${staleBefore.toISOString()}::timestamptz`);
  const pending = await ctx.db.execute(sql`
    SELECT s.campaign_id AS "campaignId", min(s.id)::bigint AS "minId", max(s.id)::bigint AS "maxId"
    FROM ${campaignSends} s JOIN ${campaigns} c ON c.id = s.campaign_id
    WHERE c.status = 'sending' AND s.status = 'queued' AND (c.paused_until IS NULL OR c.paused_until <= now())
    GROUP BY s.campaign_id`);
  const rows = pending.rows as { campaignId: number; minId: string; maxId: string }[];
  for (const row of rows) await queueBatches(ctx, Number(row.campaignId), Number(row.minId), Number(row.maxId));
  return rows.length;
}
