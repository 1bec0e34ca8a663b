import { and, count, desc, eq, ilike, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import type { SuppressionReason } from '@sendwell/contract/suppressions';
import { campaigns, contacts, sequenceEnrolments, suppressions } from '../../db/schema/index.ts';

export async function isSuppressed(db: DbOrTx, userId: string, email: string): Promise<boolean> {
  const [row] = await db
    .select({ email: suppressions.email })
    .from(suppressions)
    .where(and(eq(suppressions.userId, userId), eq(suppressions.email, email.toLowerCase())))
    .limit(1);
  return row !== undefined;
}

/** Which of `emails` (lower-cased) the account's suppression list holds. */
export async function suppressedAmong(db: DbOrTx, userId: string, emails: string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await db
    .select({ email: suppressions.email })
    .from(suppressions)
    .where(
      and(
        eq(suppressions.userId, userId),
        sql`${suppressions.email} = ANY(${sql.param(emails.map((email) => email.toLowerCase()))}::text[])`,
      ),
    );
  return new Set(rows.map((row) => row.email));
}

export interface SuppressionCause {
  /** A bounce's classified reason and the receiver's words, or the soft-bounce count. */
  detail?: string | null;
  campaignId?: number | null;
}

export async function addSuppression(
  db: DbOrTx,
  userId: string,
  email: string,
  reason: SuppressionReason,
  cause: SuppressionCause = {},
): Promise<void> {
  await db
    .insert(suppressions)
    .values({
      userId,
      email: email.toLowerCase(),
      reason,
      detail: cause.detail?.slice(0, 500) ?? null,
      campaignId: cause.campaignId ?? null,
    })
    .onConflictDoNothing();
}

/** How a suppression reads as the end of a sequence enrolment (sequence_enrolments.exit_reason). */
export const EXIT_REASON_OF_SUPPRESSION: Record<SuppressionReason, string> = {
  unsubscribe: 'unsubscribed',
  bounce: 'bounced',
  complaint: 'complained',
  unengaged: 'unengaged',
};

/**
 * Ends every enrolment in flight of the account's contact with this address (sequence_enrolments:
 * exited, nothing more due), so a suppressed address leaves its sequences at once rather than at
 * the sequences' next minute tick. Answers how many ended.
 */
export async function endEnrolmentsOf(db: DbOrTx, userId: string, email: string, exitReason: string): Promise<number> {
  const result = await db.execute(sql`
    UPDATE ${sequenceEnrolments} AS e SET state = 'exited', exit_reason = ${exitReason}, next_run_at = NULL,
      finished_at = now(), updated_at = now()
    FROM ${contacts} c
    WHERE e.state = 'active' AND e.user_id = ${userId} AND c.id = e.contact_id AND c.user_id = ${userId}
      AND c.email = ${email.toLowerCase()}`);
  return result.rowCount ?? 0;
}

/** `%`, `_` and `\` in a search are literal characters. */
const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const listColumns = {
  id: suppressions.id,
  email: suppressions.email,
  reason: suppressions.reason,
  detail: suppressions.detail,
  campaignId: suppressions.campaignId,
  campaignName: campaigns.name,
  createdAt: suppressions.createdAt,
};

function listWhere(userId: string, search: string | undefined) {
  return search
    ? and(eq(suppressions.userId, userId), ilike(suppressions.email, likePattern(search)))
    : eq(suppressions.userId, userId);
}

/** One page of the account's suppression list, newest first, with the campaign's name. */
export async function listSuppressions(
  db: DbOrTx,
  userId: string,
  options: { search?: string; limit: number; offset: number },
) {
  const where = listWhere(userId, options.search);
  const rows = await db
    .select(listColumns)
    .from(suppressions)
    .leftJoin(campaigns, eq(campaigns.id, suppressions.campaignId))
    .where(where)
    .orderBy(desc(suppressions.createdAt), desc(suppressions.id))
    .limit(options.limit)
    .offset(options.offset);
  const [total] = await db.select({ n: count() }).from(suppressions).where(where);
  return { rows, total: total?.n ?? 0 };
}

/** Lifts one suppression of the account; false when the account has no such row. */
export async function deleteSuppression(db: DbOrTx, userId: string, id: number): Promise<boolean> {
  const deleted = await db
    .delete(suppressions)
    .where(and(eq(suppressions.userId, userId), eq(suppressions.id, id)))
    .returning({ id: suppressions.id });
  return deleted.length > 0;
}
