import { randomInt } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { confirmationMail, installationSender } from '../../lib/confirmation-link.ts';
import { openSecret } from '../../lib/secret-box.ts';
import { userById } from '../auth/index.ts';
import { notifyUser } from '../notifications/index.ts';
import type { GuardOptions } from './ssrf-guard.ts';
import { webhookHeaders } from './signing.ts';
import { postWebhook, type PostOutcome } from './webhook-sender.ts';
import * as repo from './webhooks.repo.ts';

/** The purpose label secrets are sealed under (lib/secret-box.ts). */
export const WEBHOOK_SECRET_PURPOSE = 'webhook-endpoint-secret';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The wait before each retry after a failed attempt (Svix's schedule, carried on to ~3 days): the
 * first attempt is immediate, the 12th and last comes about 2 days 22 hours after it.
 */
export const RETRY_SCHEDULE_MS = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
  12 * HOUR,
  12 * HOUR,
  12 * HOUR,
  6 * HOUR,
];

/** Each wait varies by up to ±10 %, so many receivers failing at once are not all retried at once. */
const RETRY_JITTER = 0.1;

/** An endpoint whose every attempt failed for this long is disabled (and its owner told). */
export const FAILURE_STREAK_DISABLES_MS = 5 * DAY;

/** How long a claimed delivery stays with its worker (an attempt lasts at most 10 s). */
const CLAIM_MS = 2 * MINUTE;
/** Deliveries one pass claims, and how many of them are in flight at once. */
const CLAIM_BATCH = 200;
const IN_FLIGHT = 50;

export type DeliveryOptions = {
  now?: () => Date;
  guard: GuardOptions;
};

/** The wait before retry number `retry` (1-based), jittered; null when no retry is left. */
function retryDelayMs(retry: number, jitter = randomJitter): number | null {
  const base = RETRY_SCHEDULE_MS[retry - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 + jitter()));
}

/** A factor in [-RETRY_JITTER, +RETRY_JITTER], from crypto randomness. */
function randomJitter(): number {
  return ((randomInt(0, 2001) - 1000) / 1000) * RETRY_JITTER;
}

/** Secrets signing at `now`: the current one, and the previous one while its rotation window lasts. */
function signingSecrets(ctx: AppContext, endpoint: repo.WebhookEndpointRow, now: Date): string[] {
  const secrets = [openSecret(ctx.config.sessionSecret, WEBHOOK_SECRET_PURPOSE, endpoint.secretSealed)];
  if (endpoint.previousSecretSealed && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now)
    secrets.push(openSecret(ctx.config.sessionSecret, WEBHOOK_SECRET_PURPOSE, endpoint.previousSecretSealed));
  return secrets;
}

/**
 * One pass of the delivery loop: claims due deliveries and attempts each (50 at once); answers how
 * many it claimed. Safe to run in many processes at once (claims skip locked and claimed rows).
 */
export async function deliverDueWebhooks(ctx: AppContext, options: DeliveryOptions): Promise<number> {
  const now = options.now ?? (() => new Date());
  const claimedAt = now();
  const claimed = await repo.claimDueDeliveries(
    ctx.db,
    claimedAt,
    new Date(claimedAt.getTime() + CLAIM_MS),
    CLAIM_BATCH,
  );
  let next = 0;
  const work = async () => {
    while (next < claimed.length) {
      const item = claimed[next] as (typeof claimed)[number];
      next += 1;
      await attemptDelivery(ctx, item, now, options.guard);
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, claimed.length) }, work));
  return claimed.length;
}

async function attemptDelivery(
  ctx: AppContext,
  { delivery, endpoint, event }: Awaited<ReturnType<typeof repo.claimDueDeliveries>>[number],
  now: () => Date,
  guard: GuardOptions,
): Promise<void> {
  if (endpoint.disabledAt) {
    // A disabled endpoint gets nothing; its waiting deliveries end (a replay sends one again once enabled).
    await repo.updateDelivery(ctx.db, delivery.id, { status: 'failed', nextAttemptAt: null, lockedUntil: null });
    return;
  }
  const startedAt = now();
  const timestamp = Math.floor(startedAt.getTime() / 1000);
  const headers = webhookHeaders(signingSecrets(ctx, endpoint, startedAt), event.id, timestamp, event.body);
  const outcome = await postWebhook(endpoint.url, headers, event.body, guard);
  const attempt = delivery.attempts + 1;
  const finishedAt = now();
  await repo.insertAttempt(ctx.db, {
    deliveryId: delivery.id,
    attempt,
    statusCode: outcome.statusCode,
    latencyMs: outcome.latencyMs,
    response: outcome.response,
    createdAt: finishedAt,
  });
  if (succeeded(outcome)) {
    await repo.updateDelivery(ctx.db, delivery.id, {
      status: 'succeeded',
      attempts: attempt,
      nextAttemptAt: null,
      lockedUntil: null,
    });
    await repo.clearEndpointFailure(ctx.db, endpoint.id);
    return;
  }
  if (outcome.statusCode === 410) {
    // 410 Gone: the receiver says the endpoint no longer exists (Standard Webhooks): stop at once.
    await repo.updateDelivery(ctx.db, delivery.id, {
      status: 'failed',
      attempts: attempt,
      nextAttemptAt: null,
      lockedUntil: null,
    });
    await disableEndpoint(ctx, endpoint, finishedAt, 'The endpoint answered 410 Gone');
    return;
  }
  const wait = retryDelayMs(attempt);
  await repo.updateDelivery(ctx.db, delivery.id, {
    status: wait === null ? 'failed' : 'pending',
    attempts: attempt,
    nextAttemptAt: wait === null ? null : new Date(finishedAt.getTime() + wait),
    lockedUntil: null,
  });
  const failingSince = await repo.noteEndpointFailure(ctx.db, endpoint.id, finishedAt);
  if (failingSince && finishedAt.getTime() - failingSince.getTime() >= FAILURE_STREAK_DISABLES_MS)
    await disableEndpoint(ctx, endpoint, finishedAt, 'Every delivery failed for 5 days');
}

function succeeded(outcome: PostOutcome): boolean {
  return outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
}

/** Disables an endpoint and tells its owner in the app and by mail (once, by whoever disabled it first). */
async function disableEndpoint(
  ctx: AppContext,
  endpoint: repo.WebhookEndpointRow,
  at: Date,
  reason: string,
): Promise<void> {
  if (!(await repo.disableEndpointFor(ctx.db, endpoint.id, at, reason))) return;
  const title = 'Webhook endpoint disabled';
  const body = `${endpoint.url} was disabled: ${reason}. Fix the receiver, then enable it again on the Webhooks page.`;
  await notifyUser(ctx.db, endpoint.userId, { title, body, link: `/webhooks/${endpoint.id}` });
  const owner = await userById(ctx.db, endpoint.userId);
  if (!owner) return;
  const { html, text } = confirmationMail({
    heading: title,
    paragraphs: [
      body,
      'Events that happen while it is disabled are not sent to it; replay any you need from its delivery log.',
    ],
    link: `${ctx.config.publicUrl}/webhooks/${endpoint.id}`,
    buttonLabel: 'Open the endpoint',
    footnote: 'You receive this because you added this webhook endpoint to your Sendwell account.',
  });
  try {
    await ctx.mailer.sendTransactional({
      userId: owner.id,
      from: installationSender(ctx.config),
      to: owner.email,
      subject: title,
      html,
      text,
    });
  } catch {
    // The notification in the app stands; a mail that could not go is not worth failing the delivery loop.
  }
}
