import { Resolver } from 'node:dns/promises';
import {
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_TEST_EVENT_TYPE,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookEndpoint,
  type WebhookEventType,
  type WebhookSecret,
} from '@sendwell/contract/webhooks';
import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { openSecret, sealSecret } from '../../lib/secret-box.ts';
import {
  checkWebhookUrl,
  RefusedWebhookTarget,
  systemResolver,
  type GuardOptions,
  type HostResolver,
} from './ssrf-guard.ts';
import { newWebhookSecret } from './signing.ts';
import { forgetEndpointsOf, recordEventFor, webhookSignals } from './webhook-events.ts';
import { WEBHOOK_SECRET_PURPOSE } from './webhook-delivery.ts';
import * as repo from './webhooks.repo.ts';

/** How long a rotated-out secret still signs beside the new one, so receivers can switch without a gap. */
const ROTATION_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Deliveries the endpoint's log shows. */
const DELIVERIES_SHOWN = 50;

/** The guard's options from the configuration: DNS_SERVERS when set, the system's resolver otherwise. */
export function webhookGuard(config: Config): GuardOptions {
  return { allowLoopback: config.webhookAllowLoopback, resolve: resolverFor(config.dnsServers) };
}

function resolverFor(servers: string[]): HostResolver {
  if (servers.length === 0) return systemResolver;
  const resolver = new Resolver({ timeout: 2500, tries: 2 });
  resolver.setServers(servers);
  return async (hostname) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const addresses = [v4, v6].flatMap((answer) => (answer.status === 'fulfilled' ? answer.value : []));
    if (addresses.length === 0) throw new Error(`${hostname} has no address`);
    return addresses;
  };
}

function toEndpoint(row: repo.WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes as WebhookEventType[],
    status: row.disabledAt ? 'disabled' : 'enabled',
    disabledReason: row.disabledReason,
    failingSince: row.failingSince?.toISOString() ?? null,
    previousSecretExpiresAt: row.previousSecretExpiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

async function ownEndpoint(db: Db, userId: string, id: number): Promise<repo.WebhookEndpointRow> {
  const row = await repo.findEndpoint(db, userId, id);
  if (!row) throw new AppError('not_found', 'Webhook endpoint not found');
  return row;
}

/** The URL check for the user: a refused target is a 400 on the url field. */
async function checkUrl(url: string, guard: GuardOptions): Promise<void> {
  try {
    await checkWebhookUrl(url, guard);
  } catch (error) {
    if (error instanceof RefusedWebhookTarget) throw new AppError('bad_request', error.message, { url: error.message });
    throw error;
  }
}

export async function listWebhookEndpoints(db: Db, userId: string): Promise<WebhookEndpoint[]> {
  return (await repo.listEndpoints(db, userId)).map(toEndpoint);
}

export async function webhookEndpoint(db: Db, userId: string, id: number): Promise<WebhookEndpoint> {
  return toEndpoint(await ownEndpoint(db, userId, id));
}

export async function createWebhookEndpoint(
  ctx: AppContext,
  userId: string,
  input: { url: string; description: string; eventTypes: WebhookEventType[] },
  guard: GuardOptions = webhookGuard(ctx.config),
): Promise<WebhookEndpoint & { secret: string }> {
  await checkUrl(input.url, guard);
  if ((await repo.countEndpoints(ctx.db, userId)) >= MAX_WEBHOOK_ENDPOINTS)
    throw new AppError('conflict', `An account can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints`);
  const secret = newWebhookSecret();
  const row = await repo.insertEndpoint(ctx.db, {
    userId,
    url: input.url,
    description: input.description,
    eventTypes: input.eventTypes,
    secretSealed: sealSecret(ctx.config.sessionSecret, WEBHOOK_SECRET_PURPOSE, secret),
  });
  forgetEndpointsOf(userId);
  return { ...toEndpoint(row), secret };
}

export async function updateWebhookEndpoint(
  ctx: AppContext,
  userId: string,
  id: number,
  input: { url?: string; description?: string; eventTypes?: WebhookEventType[]; enabled?: boolean },
  guard: GuardOptions = webhookGuard(ctx.config),
): Promise<WebhookEndpoint> {
  const current = await ownEndpoint(ctx.db, userId, id);
  if (input.url !== undefined && input.url !== current.url) await checkUrl(input.url, guard);
  const enable = input.enabled === true && current.disabledAt !== null;
  const disable = input.enabled === false && current.disabledAt === null;
  const row = await repo.updateEndpoint(ctx.db, userId, id, {
    ...(input.url !== undefined && { url: input.url }),
    ...(input.description !== undefined && { description: input.description }),
    ...(input.eventTypes !== undefined && { eventTypes: input.eventTypes }),
    // Enabling starts afresh: no streak carried over from before.
    ...(enable && { disabledAt: null, disabledReason: null, failingSince: null }),
    ...(disable && { disabledAt: new Date(), disabledReason: 'Disabled by you' }),
  });
  if (!row) throw new AppError('not_found', 'Webhook endpoint not found');
  forgetEndpointsOf(userId);
  return toEndpoint(row);
}

export async function deleteWebhookEndpoint(db: Db, userId: string, id: number): Promise<void> {
  if (!(await repo.deleteEndpoint(db, userId, id))) throw new AppError('not_found', 'Webhook endpoint not found');
  forgetEndpointsOf(userId);
}

/** The endpoint's current signing secret (shown on request, like Svix's "reveal"). */
export async function revealWebhookSecret(ctx: AppContext, userId: string, id: number): Promise<WebhookSecret> {
  const row = await ownEndpoint(ctx.db, userId, id);
  return {
    secret: openSecret(ctx.config.sessionSecret, WEBHOOK_SECRET_PURPOSE, row.secretSealed),
    previousSecretExpiresAt: row.previousSecretExpiresAt?.toISOString() ?? null,
  };
}

/**
 * A new secret; the one it replaces signs beside it for 24 hours (the signature header then carries
 * both), so the receiver can switch without refusing a message.
 */
export async function rotateWebhookSecret(
  ctx: AppContext,
  userId: string,
  id: number,
  now: Date = new Date(),
): Promise<WebhookSecret> {
  const row = await ownEndpoint(ctx.db, userId, id);
  const secret = newWebhookSecret();
  const previousSecretExpiresAt = new Date(now.getTime() + ROTATION_WINDOW_MS);
  await repo.updateEndpoint(ctx.db, userId, id, {
    secretSealed: sealSecret(ctx.config.sessionSecret, WEBHOOK_SECRET_PURPOSE, secret),
    previousSecretSealed: row.secretSealed,
    previousSecretExpiresAt,
  });
  return { secret, previousSecretExpiresAt: previousSecretExpiresAt.toISOString() };
}

/** Sends a `webhook.test` event to this endpoint alone (whatever its filter). */
export async function sendTestWebhook(db: Db, userId: string, id: number, now: Date = new Date()): Promise<void> {
  const row = await ownEndpoint(db, userId, id);
  if (row.disabledAt) throw new AppError('conflict', 'Enable the endpoint before sending it a test event');
  await recordEventFor(db, userId, [row.id], WEBHOOK_TEST_EVENT_TYPE, { message: 'A test event from Sendwell' }, now);
}

export async function webhookDeliveries(db: Db, userId: string, endpointId: number): Promise<WebhookDeliveryList> {
  await ownEndpoint(db, userId, endpointId);
  const rows = await repo.latestDeliveries(db, userId, endpointId, DELIVERIES_SHOWN);
  const attempts = await repo.attemptsOf(
    db,
    rows.map((row) => row.id),
  );
  return {
    deliveries: rows.map((row): WebhookDelivery => ({
      id: row.id,
      eventId: row.eventId,
      eventType: row.eventType,
      status: row.status as WebhookDelivery['status'],
      attempts: row.attempts,
      nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
      tries: attempts
        .filter((attempt) => attempt.deliveryId === row.id)
        .map((attempt) => ({
          attempt: attempt.attempt,
          statusCode: attempt.statusCode,
          latencyMs: attempt.latencyMs,
          response: attempt.response,
          createdAt: attempt.createdAt.toISOString(),
        })),
    })),
  };
}

/** Sends a logged event to the endpoint again, as a new delivery with the same `webhook-id`. */
export async function replayWebhookDelivery(
  db: Db,
  userId: string,
  endpointId: number,
  deliveryId: number,
  now: Date = new Date(),
): Promise<void> {
  const endpoint = await ownEndpoint(db, userId, endpointId);
  const delivery = await repo.findDelivery(db, userId, endpointId, deliveryId);
  if (!delivery) throw new AppError('not_found', 'Delivery not found');
  if (endpoint.disabledAt) throw new AppError('conflict', 'Enable the endpoint before replaying a delivery');
  await repo.insertDeliveries(db, [
    { userId, endpointId, eventId: delivery.eventId, nextAttemptAt: now, createdAt: now },
  ]);
  webhookSignals.emit('due');
}
