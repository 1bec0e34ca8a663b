import { and, eq, sql } from 'drizzle-orm';
import { SUNSET_DEFAULTS, type SunsetPolicyBody } from '@sendwell/contract/sunset';
import type { DbOrTx } from '../../db/client.ts';
import {
  campaignSends,
  contacts,
  emailSequences,
  sequenceSends,
  sunsetContacts,
  sunsetPolicies,
  suppressions,
} from '../../db/schema/index.ts';

/** The reason a suppression made by the policy carries (suppressions.reason). */
const UNENGAGED = 'unengaged';

export type StoredPolicy = SunsetPolicyBody & { lastRunAt: Date | null };

/** The account's policy: its row, or the defaults when it never changed them. */
export async function policyOf(db: DbOrTx, userId: string): Promise<StoredPolicy> {
  const [row] = await db.select().from(sunsetPolicies).where(eq(sunsetPolicies.userId, userId));
  if (!row) return { ...SUNSET_DEFAULTS, reengagementSequenceId: null, lastRunAt: null };
  return {
    enabled: row.enabled,
    inactiveDays: row.inactiveDays,
    minMessages: row.minMessages,
    graceDays: row.graceDays,
    reengagementSequenceId: row.reengagementSequenceId,
    lastRunAt: row.lastRunAt,
  };
}

export async function savePolicy(db: DbOrTx, userId: string, body: SunsetPolicyBody): Promise<void> {
  await db
    .insert(sunsetPolicies)
    .values({ userId, ...body })
    .onConflictDoUpdate({ target: sunsetPolicies.userId, set: { ...body, updatedAt: new Date() } });
}

/** Stamps the account's last sweep (writing the default policy's row if it had none). */
export async function markRun(db: DbOrTx, userId: string, policy: SunsetPolicyBody, at: Date): Promise<void> {
  await db
    .insert(sunsetPolicies)
    .values({ userId, ...policy, lastRunAt: at })
    .onConflictDoUpdate({ target: sunsetPolicies.userId, set: { lastRunAt: at } });
}

/** The account's sequence of this id (name and status), or null when it is not the account's. */
export async function sequenceOf(db: DbOrTx, userId: string, id: number) {
  const [row] = await db
    .select({ id: emailSequences.id, name: emailSequences.name, status: emailSequences.status })
    .from(emailSequences)
    .where(and(eq(emailSequences.userId, userId), eq(emailSequences.id, id)));
  return row ?? null;
}

/** How many of the account's contacts are in their re-engagement period, and how many the policy suppressed. */
export async function standing(db: DbOrTx, userId: string): Promise<{ reengaging: number; suppressed: number }> {
  const result = await db.execute(sql`SELECT
      (SELECT count(*) FROM ${sunsetContacts} WHERE user_id = ${userId})::int AS reengaging,
      (SELECT count(*) FROM ${suppressions} WHERE user_id = ${userId} AND reason = ${UNENGAGED})::int AS suppressed`);
  const row = result.rows[0] as { reengaging: number; suppressed: number };
  return { reengaging: Number(row.reengaging), suppressed: Number(row.suppressed) };
}

/** The accounts whose policy is on and whose sweep is due (never run, or not since `before`). */
export async function accountsDue(db: DbOrTx, before: Date): Promise<string[]> {
  const result = await db.execute(sql`SELECT u.id FROM users u
    LEFT JOIN ${sunsetPolicies} p ON p.user_id = u.id
    WHERE coalesce(p.enabled, ${SUNSET_DEFAULTS.enabled}) AND (p.last_run_at IS NULL OR p.last_run_at < ${before})
    ORDER BY u.id`);
  return (result.rows as { id: string }[]).map((row) => row.id);
}

/** Ends the re-engagement period of contacts who acted since it began (a human open or click), or left. */
export async function releaseEngaged(db: DbOrTx, userId: string): Promise<number> {
  const result = await db.execute(sql`DELETE FROM ${sunsetContacts} sc
    USING ${contacts} c
    WHERE sc.user_id = ${userId} AND c.id = sc.contact_id
      AND (c.last_activity_at > sc.started_at OR NOT c.is_active
        OR EXISTS (SELECT 1 FROM ${suppressions} s WHERE s.user_id = ${userId} AND s.email = c.email))`);
  return result.rowCount ?? 0;
}

/** Contacts whose re-engagement period ended before `endedBefore` without them acting: id and address. */
export async function periodsEnded(db: DbOrTx, userId: string, endedBefore: Date) {
  const result = await db.execute(sql`SELECT c.id, c.email FROM ${sunsetContacts} sc
    JOIN ${contacts} c ON c.id = sc.contact_id
    WHERE sc.user_id = ${userId} AND sc.started_at < ${endedBefore}
    ORDER BY c.id`);
  return (result.rows as { id: number; email: string }[]).map((row) => ({
    id: Number(row.id),
    email: row.email,
  }));
}

export async function endPeriod(db: DbOrTx, contactId: number): Promise<void> {
  await db.delete(sunsetContacts).where(eq(sunsetContacts.contactId, contactId));
}

/**
 * Starts the re-engagement period of the account's subscribed, unsuppressed contacts who have had
 * no human open or click for `inactiveDays` (and were subscribed at least that long), and who were
 * sent at least `minMessages` messages (campaign and sequence mail) in that time. Answers their ids.
 */
export async function startPeriods(
  db: DbOrTx,
  userId: string,
  policy: { inactiveDays: number; minMessages: number },
  now: Date,
): Promise<number[]> {
  const since = new Date(now.getTime() - policy.inactiveDays * 86_400_000);
  const result = await db.execute(sql`INSERT INTO ${sunsetContacts} (contact_id, user_id, started_at)
    SELECT c.id, c.user_id, ${now}
    FROM ${contacts} c
    WHERE c.user_id = ${userId} AND c.is_active
      AND c.subscription_date < ${since}
      AND (c.last_activity_at IS NULL OR c.last_activity_at < ${since})
      AND NOT EXISTS (SELECT 1 FROM ${sunsetContacts} sc WHERE sc.contact_id = c.id)
      AND NOT EXISTS (SELECT 1 FROM ${suppressions} s WHERE s.user_id = c.user_id AND s.email = c.email)
      AND (SELECT count(*) FROM ${campaignSends} cs
             WHERE cs.contact_id = c.id AND cs.sent_at IS NOT NULL AND cs.sent_at >= ${since})
        + (SELECT count(*) FROM ${sequenceSends} ss
             WHERE ss.contact_id = c.id AND ss.sent_at IS NOT NULL AND ss.sent_at >= ${since}) >= ${policy.minMessages}
    ON CONFLICT DO NOTHING
    RETURNING contact_id`);
  return (result.rows as { contact_id: number }[]).map((row) => Number(row.contact_id));
}

/** One contact's period (when it is in one) and whether the policy suppressed its address. */
export async function contactStanding(db: DbOrTx, userId: string, contactId: number) {
  const result = await db.execute(sql`SELECT c.id,
      (SELECT sc.started_at FROM ${sunsetContacts} sc WHERE sc.contact_id = c.id) AS started_at,
      EXISTS (SELECT 1 FROM ${suppressions} s WHERE s.user_id = c.user_id AND s.email = c.email AND s.reason = ${UNENGAGED}) AS unengaged
    FROM ${contacts} c WHERE c.user_id = ${userId} AND c.id = ${contactId}`);
  const row = result.rows[0] as { started_at: Date | string | null; unengaged: boolean } | undefined;
  if (!row) return null;
  return { startedAt: row.started_at === null ? null : new Date(row.started_at), unengaged: Boolean(row.unengaged) };
}
