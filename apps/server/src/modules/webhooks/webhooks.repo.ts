import { and, asc, count, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from '../../db/schema/index.ts';

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
export type WebhookEventRow = typeof webhookEvents.$inferSelect;

export async function listEndpoints(db: DbOrTx, userId: string): Promise<WebhookEndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, userId))
    .orderBy(asc(webhookEndpoints.id));
}

export async function countEndpoints(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId));
  return row?.n ?? 0;
}

export async function findEndpoint(db: DbOrTx, userId: string, id: number): Promise<WebhookEndpointRow | null> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.userId, userId), eq(webhookEndpoints.id, id)));
  return row ?? null;
}

export async function insertEndpoint(
  db: DbOrTx,
  values: typeof webhookEndpoints.$inferInsert,
): Promise<WebhookEndpointRow> {
  const [row] = await db.insert(webhookEndpoints).values(values).returning();
  if (!row) throw new Error('webhook endpoint insert returned nothing');
  return row;
}

export async function updateEndpoint(
  db: DbOrTx,
  userId: string,
  id: number,
  values: Partial<typeof webhookEndpoints.$inferInsert>,
): Promise<WebhookEndpointRow | null> {
  const [row] = await db
    .update(webhookEndpoints)
    .set(values)
    .where(and(eq(webhookEndpoints.userId, userId), eq(webhookEndpoints.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteEndpoint(db: DbOrTx, userId: string, id: number): Promise<boolean> {
  const rows = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.userId, userId), eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

/** The enabled endpoints of an account that want an event type (an empty filter wants every type). */
export async function endpointsWanting(
  db: DbOrTx,
  userId: string,
  type: string,
): Promise<Pick<WebhookEndpointRow, 'id'>[]> {
  return db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.userId, userId),
        isNull(webhookEndpoints.disabledAt),
        or(sql`cardinality(${webhookEndpoints.eventTypes}) = 0`, sql`${type} = any(${webhookEndpoints.eventTypes})`),
      ),
    );
}

/** Whether an account has any enabled endpoint (the cheap question asked before each event). */
export async function hasEnabledEndpoint(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.userId, userId), isNull(webhookEndpoints.disabledAt)))
    .limit(1);
  return row !== undefined;
}

export async function insertEvent(db: DbOrTx, values: typeof webhookEvents.$inferInsert): Promise<void> {
  await db.insert(webhookEvents).values(values);
}

export async function insertDeliveries(
  db: DbOrTx,
  values: (typeof webhookDeliveries.$inferInsert)[],
): Promise<WebhookDeliveryRow[]> {
  if (values.length === 0) return [];
  return db.insert(webhookDeliveries).values(values).returning();
}

/** One delivery of an endpoint of the account, with its event. */
export async function findDelivery(
  db: DbOrTx,
  userId: string,
  endpointId: number,
  deliveryId: number,
): Promise<WebhookDeliveryRow | null> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.userId, userId),
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.id, deliveryId),
      ),
    );
  return row ?? null;
}

/** An endpoint's newest deliveries with their event type. */
export async function latestDeliveries(
  db: DbOrTx,
  userId: string,
  endpointId: number,
  limit: number,
): Promise<(WebhookDeliveryRow & { eventType: string })[]> {
  const rows = await db
    .select({ delivery: webhookDeliveries, eventType: webhookEvents.type })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.userId, userId), eq(webhookDeliveries.endpointId, endpointId)))
    .orderBy(desc(webhookDeliveries.id))
    .limit(limit);
  return rows.map((row) => ({ ...row.delivery, eventType: row.eventType }));
}

export async function attemptsOf(db: DbOrTx, deliveryIds: number[]): Promise<WebhookAttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, deliveryIds))
    .orderBy(desc(webhookAttempts.id));
}

/**
 * Claims due deliveries for one worker until `lockedUntil` (others skip locked and claimed rows),
 * each with its endpoint and event.
 */
export async function claimDueDeliveries(
  db: DbOrTx,
  now: Date,
  lockedUntil: Date,
  limit: number,
): Promise<{ delivery: WebhookDeliveryRow; endpoint: WebhookEndpointRow; event: WebhookEventRow }[]> {
  const due = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.nextAttemptAt, now),
        or(isNull(webhookDeliveries.lockedUntil), lte(webhookDeliveries.lockedUntil, now)),
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(webhookDeliveries)
    .set({ lockedUntil })
    .where(inArray(webhookDeliveries.id, due))
    .returning({ id: webhookDeliveries.id });
  if (claimed.length === 0) return [];
  return db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: webhookEvents })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(
      inArray(
        webhookDeliveries.id,
        claimed.map((row) => row.id),
      ),
    )
    .orderBy(asc(webhookDeliveries.id));
}

export async function insertAttempt(db: DbOrTx, values: typeof webhookAttempts.$inferInsert): Promise<void> {
  await db.insert(webhookAttempts).values(values);
}

export async function updateDelivery(
  db: DbOrTx,
  id: number,
  values: Partial<typeof webhookDeliveries.$inferInsert>,
): Promise<void> {
  await db.update(webhookDeliveries).set(values).where(eq(webhookDeliveries.id, id));
}

/** Starts an endpoint's failure streak at `at` unless one runs; answers when it started. */
export async function noteEndpointFailure(db: DbOrTx, endpointId: number, at: Date): Promise<Date | null> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${at.toISOString()}::timestamptz)` })
    .where(eq(webhookEndpoints.id, endpointId))
    .returning({ failingSince: webhookEndpoints.failingSince });
  return row?.failingSince ?? null;
}

export async function clearEndpointFailure(db: DbOrTx, endpointId: number): Promise<void> {
  await db
    .update(webhookEndpoints)
    .set({ failingSince: null })
    .where(and(eq(webhookEndpoints.id, endpointId), sql`${webhookEndpoints.failingSince} is not null`));
}

/** Disables an enabled endpoint; answers false when it was disabled already (so only one notice goes out). */
export async function disableEndpointFor(db: DbOrTx, endpointId: number, at: Date, reason: string): Promise<boolean> {
  const rows = await db
    .update(webhookEndpoints)
    .set({ disabledAt: at, disabledReason: reason })
    .where(and(eq(webhookEndpoints.id, endpointId), isNull(webhookEndpoints.disabledAt)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}
