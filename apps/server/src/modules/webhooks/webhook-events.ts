import { EventEmitter } from 'node:events';
import { MAX_WEBHOOK_PAYLOAD_BYTES, type WebhookEventType } from '@sendwell/contract/webhooks';
import type { DbOrTx } from '../../db/client.ts';
import * as repo from './webhooks.repo.ts';
import { newWebhookMessageId } from './signing.ts';

/** What an event says about its object (JSON): small fields and ids (large objects are fetched by id). */
export type WebhookEventData = Record<string, unknown>;

/** Wakes this process's delivery loop when an event was recorded (other processes poll). */
export const webhookSignals = new EventEmitter();

/**
 * How long this process believes an account has no enabled endpoint: events of accounts without
 * endpoints (most of them) then cost no query. A change made here clears the entry at once; one made
 * by another API process is seen within this time.
 */
const NO_ENDPOINT_MEMORY_MS = 5_000;
const accountsWithoutEndpoints = new Map<string, number>();

/** Forget what this process believes of an account's endpoints (called on every endpoint change). */
export function forgetEndpointsOf(userId: string): void {
  accountsWithoutEndpoints.delete(userId);
}

/** The exact JSON body of an event (Standard Webhooks: type, timestamp, data), at most 20 KB. */
function webhookEventBody(type: string, data: WebhookEventData, at: Date): string {
  const body = JSON.stringify({ type, timestamp: at.toISOString(), data });
  if (Buffer.byteLength(body) <= MAX_WEBHOOK_PAYLOAD_BYTES) return body;
  // Too large: only the ids go, the receiver fetches the object through the API.
  const ids = Object.fromEntries(
    Object.entries(data).filter(([key, value]) => /(^id|Id)$/.test(key) && typeof value !== 'object'),
  );
  return JSON.stringify({ type, timestamp: at.toISOString(), data: { ...ids, truncated: true } });
}

/**
 * Records an event for the account's endpoints that want it: one event row and one delivery per
 * endpoint, due now. Pass the transaction of the change it reports, so the event exists exactly
 * when the change does; the delivery loop sends it after the commit.
 */
export async function recordWebhookEvent(
  db: DbOrTx,
  userId: string,
  type: WebhookEventType,
  data: WebhookEventData,
  at: Date = new Date(),
): Promise<void> {
  const knownEmpty = accountsWithoutEndpoints.get(userId);
  if (knownEmpty !== undefined && knownEmpty > Date.now()) return;
  const endpoints = await repo.endpointsWanting(db, userId, type);
  if (endpoints.length === 0) {
    if (!(await repo.hasEnabledEndpoint(db, userId)))
      accountsWithoutEndpoints.set(userId, Date.now() + NO_ENDPOINT_MEMORY_MS);
    return;
  }
  await recordEventFor(
    db,
    userId,
    endpoints.map((endpoint) => endpoint.id),
    type,
    data,
    at,
  );
}

/** Stores one event and its deliveries to the given endpoints; answers the event's id. */
export async function recordEventFor(
  db: DbOrTx,
  userId: string,
  endpointIds: number[],
  type: string,
  data: WebhookEventData,
  at: Date,
): Promise<string> {
  const id = newWebhookMessageId();
  await repo.insertEvent(db, { id, userId, type, body: webhookEventBody(type, data, at), createdAt: at });
  await repo.insertDeliveries(
    db,
    endpointIds.map((endpointId) => ({ userId, endpointId, eventId: id, nextAttemptAt: at, createdAt: at })),
  );
  webhookSignals.emit('due');
  return id;
}
