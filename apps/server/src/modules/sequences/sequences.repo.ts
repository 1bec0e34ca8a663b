import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  DEFAULT_SEQUENCE_SETTINGS,
  type FlowData,
  type ReentryRule,
  type SequenceSettings,
} from '@sendwell/contract/sequences';
import type { DbOrTx } from '../../db/client.ts';
import {
  contactListMembers,
  contactLists,
  contacts,
  contactSegmentMembers,
  contactSegments,
  contactTagAdditions,
  emailSequences,
  emailSequenceVersions,
  sequenceEnrolments,
  sequenceNodeStats,
  sequenceSends,
  sequenceSettings,
  suppressions,
} from '../../db/schema/index.ts';

export type SequenceRow = typeof emailSequences.$inferSelect;
export type NewSequenceRow = typeof emailSequences.$inferInsert;
export type SequenceWithCounts = SequenceRow & { totalSubscribers: number; activeSubscribers: number };

// The outer column is named in full: Drizzle writes a bare "id" for a column inside a select's own sql, which the subquery would read as e.id.
const totalSubscribers = sql<number>`(SELECT count(*) FROM ${sequenceEnrolments} e WHERE e.sequence_id = "email_sequences"."id")::int`;
const activeSubscribers = sql<number>`(SELECT count(*) FROM ${sequenceEnrolments} e WHERE e.sequence_id = "email_sequences"."id" AND e.state = 'active')::int`;

export async function listSequences(db: DbOrTx, userId: string): Promise<SequenceWithCounts[]> {
  return db
    .select({ sequence: emailSequences, totalSubscribers, activeSubscribers })
    .from(emailSequences)
    .where(eq(emailSequences.userId, userId))
    .orderBy(desc(emailSequences.createdAt), desc(emailSequences.id))
    .then((rows) =>
      rows.map((row) => ({
        ...row.sequence,
        totalSubscribers: row.totalSubscribers,
        activeSubscribers: row.activeSubscribers,
      })),
    );
}

export async function findSequenceWithCounts(
  db: DbOrTx,
  userId: string,
  id: number,
): Promise<SequenceWithCounts | undefined> {
  const [row] = await db
    .select({ sequence: emailSequences, totalSubscribers, activeSubscribers })
    .from(emailSequences)
    .where(and(eq(emailSequences.userId, userId), eq(emailSequences.id, id)))
    .limit(1);
  return row && { ...row.sequence, totalSubscribers: row.totalSubscribers, activeSubscribers: row.activeSubscribers };
}

/** The sequence, locked for the rest of the transaction (edits and enrolments of one sequence take turns). */
export async function lockSequence(tx: DbOrTx, userId: string, id: number): Promise<SequenceRow | undefined> {
  const [row] = await tx
    .select()
    .from(emailSequences)
    .where(and(eq(emailSequences.userId, userId), eq(emailSequences.id, id)))
    .for('update')
    .limit(1);
  return row;
}

export async function findSequence(db: DbOrTx, userId: string, id: number): Promise<SequenceRow | undefined> {
  const [row] = await db
    .select()
    .from(emailSequences)
    .where(and(eq(emailSequences.userId, userId), eq(emailSequences.id, id)))
    .limit(1);
  return row;
}

/** Inserts a sequence and its version 1. */
export async function insertSequence(tx: DbOrTx, values: NewSequenceRow): Promise<SequenceRow> {
  const [row] = await tx.insert(emailSequences).values(values).returning();
  if (!row) throw new Error('sequence insert returned nothing');
  await tx.insert(emailSequenceVersions).values({ sequenceId: row.id, version: row.version, flowData: row.flowData });
  return row;
}

export async function updateSequence(
  tx: DbOrTx,
  id: number,
  values: Partial<NewSequenceRow>,
): Promise<SequenceRow | undefined> {
  const [row] = await tx
    .update(emailSequences)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(emailSequences.id, id))
    .returning();
  return row;
}

/** Replaces the flow of the published version in place (nothing is in flight on it). */
export async function replaceCurrentFlow(tx: DbOrTx, sequence: SequenceRow, flowData: FlowData): Promise<void> {
  await tx
    .update(emailSequenceVersions)
    .set({ flowData })
    .where(and(eq(emailSequenceVersions.sequenceId, sequence.id), eq(emailSequenceVersions.version, sequence.version)));
  await tx.update(emailSequences).set({ flowData, updatedAt: new Date() }).where(eq(emailSequences.id, sequence.id));
}

/**
 * Publishes `flowData` as the next version and moves the enrolments in flight whose current node
 * survives into it; the others stay on the version they are on and finish there. Answers how many moved.
 */
export async function publishVersion(
  tx: DbOrTx,
  sequence: SequenceRow,
  flowData: FlowData,
  survivingNodeIds: readonly string[],
): Promise<number> {
  const version = sequence.version + 1;
  await tx.insert(emailSequenceVersions).values({ sequenceId: sequence.id, version, flowData });
  await tx
    .update(emailSequences)
    .set({ flowData, version, updatedAt: new Date() })
    .where(eq(emailSequences.id, sequence.id));
  if (survivingNodeIds.length === 0) return 0;
  const moved = await tx
    .update(sequenceEnrolments)
    .set({ version, updatedAt: new Date() })
    .where(
      and(
        eq(sequenceEnrolments.sequenceId, sequence.id),
        eq(sequenceEnrolments.version, sequence.version),
        eq(sequenceEnrolments.state, 'active'),
        inArray(sequenceEnrolments.currentNodeId, [...survivingNodeIds]),
      ),
    )
    .returning({ id: sequenceEnrolments.id });
  return moved.length;
}

/** The enrolments in flight on one version, counted by their current node. */
export async function activeByNode(db: DbOrTx, sequenceId: number, version: number): Promise<Map<string, number>> {
  const rows = await db
    .select({ nodeId: sequenceEnrolments.currentNodeId, n: count() })
    .from(sequenceEnrolments)
    .where(
      and(
        eq(sequenceEnrolments.sequenceId, sequenceId),
        eq(sequenceEnrolments.version, version),
        eq(sequenceEnrolments.state, 'active'),
      ),
    )
    .groupBy(sequenceEnrolments.currentNodeId);
  return new Map(rows.map((row) => [row.nodeId, row.n]));
}

export async function deleteSequence(db: DbOrTx, userId: string, id: number): Promise<boolean> {
  const rows = await db
    .delete(emailSequences)
    .where(and(eq(emailSequences.userId, userId), eq(emailSequences.id, id)))
    .returning({ id: emailSequences.id });
  return rows.length > 0;
}

export async function listExists(db: DbOrTx, userId: string, listId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: contactLists.id })
    .from(contactLists)
    .where(and(eq(contactLists.userId, userId), eq(contactLists.id, listId)))
    .limit(1);
  return row !== undefined;
}

export async function segmentExists(db: DbOrTx, userId: string, segmentId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: contactSegments.id })
    .from(contactSegments)
    .where(and(eq(contactSegments.userId, userId), eq(contactSegments.id, segmentId)))
    .limit(1);
  return row !== undefined;
}

/** How many of `contactIds` are the user's contacts. */
export async function countOwnContacts(db: DbOrTx, userId: string, contactIds: readonly number[]): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(contacts)
    .where(and(eq(contacts.userId, userId), inArray(contacts.id, [...contactIds])));
  return row?.n ?? 0;
}

/** Which of the user's contacts an enrolment request names (or a trigger found). */
export type EnrolSource =
  | { contactIds: readonly number[] }
  | { listId: number }
  | { segmentId: number }
  /** Contacts who joined the list (any of the user's lists when null) in (since, until]. */
  | { joinedList: { listId: number | null; since: Date; until: Date } }
  /** Contacts who joined the segment in (since, until]. */
  | { joinedSegment: { segmentId: number; since: Date; until: Date } }
  /** Contacts the tag (any case) was added to in (since, until] (contact_tag_additions). */
  | { taggedWith: { tag: string; since: Date; until: Date } };

function sourcePredicate(source: EnrolSource): SQL {
  if ('contactIds' in source) return inArray(contacts.id, [...source.contactIds]);
  if ('joinedList' in source) {
    const { listId, since, until } = source.joinedList;
    return sql`EXISTS (SELECT 1 FROM ${contactListMembers} m WHERE m.contact_id = ${contacts.id}
      ${listId === null ? sql`` : sql`AND m.list_id = ${listId}`}
      AND m.added_at > ${since.toISOString()}::timestamptz AND m.added_at <= ${until.toISOString()}::timestamptz)`;
  }
  if ('joinedSegment' in source) {
    const { segmentId, since, until } = source.joinedSegment;
    return sql`EXISTS (SELECT 1 FROM ${contactSegmentMembers} m WHERE m.segment_id = ${segmentId} AND m.contact_id = ${contacts.id}
      AND m.added_at > ${since.toISOString()}::timestamptz AND m.added_at <= ${until.toISOString()}::timestamptz)`;
  }
  if ('taggedWith' in source) {
    const { tag, since, until } = source.taggedWith;
    return sql`EXISTS (SELECT 1 FROM ${contactTagAdditions} t WHERE t.user_id = ${contacts.userId} AND t.tag = ${tag.toLowerCase()}
      AND t.contact_id = ${contacts.id}
      AND t.added_at > ${since.toISOString()}::timestamptz AND t.added_at <= ${until.toISOString()}::timestamptz)`;
  }
  if ('listId' in source) {
    return sql`EXISTS (SELECT 1 FROM ${contactListMembers} m WHERE m.list_id = ${source.listId} AND m.contact_id = ${contacts.id})`;
  }
  return sql`EXISTS (SELECT 1 FROM ${contactSegmentMembers} m WHERE m.segment_id = ${source.segmentId} AND m.contact_id = ${contacts.id})`;
}

/** The re-entry rule as a condition on a contact about to enter (a contact in flight never enters twice). */
function reentryPredicate(sequence: SequenceRow): SQL {
  const rule = sequence.reentry as ReentryRule;
  const earlier = sql`SELECT 1 FROM ${sequenceEnrolments} e WHERE e.sequence_id = ${sequence.id} AND e.contact_id = ${contacts.id}`;
  if (rule === 'once') return sql`NOT EXISTS (${earlier})`;
  if (rule === 'cooldown') {
    const hours = sequence.reentryCooldownHours ?? 0;
    return sql`NOT EXISTS (${earlier} AND (e.state = 'active' OR e.entered_at > now() - make_interval(hours => ${hours}::int)))`;
  }
  return sql`NOT EXISTS (${earlier} AND e.state = 'active')`;
}

/**
 * Enrols the user's subscribed, unsuppressed contacts that `source` names and the re-entry rule lets
 * in, at the start node of the published version, due now. Answers how many entered.
 */
export async function enrolContacts(
  tx: DbOrTx,
  sequence: SequenceRow,
  startNodeId: string,
  source: EnrolSource,
): Promise<number> {
  const inserted = await tx.execute(sql`
    INSERT INTO ${sequenceEnrolments} (user_id, sequence_id, version, contact_id, current_node_id, next_run_at)
    SELECT ${sequence.userId}, ${sequence.id}, ${sequence.version}, ${contacts.id}, ${startNodeId}, now()
    FROM ${contacts}
    WHERE ${contacts.userId} = ${sequence.userId}
      AND ${contacts.isActive}
      AND ${sourcePredicate(source)}
      AND NOT EXISTS (SELECT 1 FROM ${suppressions} s WHERE s.user_id = ${sequence.userId} AND s.email = ${contacts.email})
      AND ${reentryPredicate(sequence)}
    ON CONFLICT DO NOTHING`);
  return inserted.rowCount ?? 0;
}

export type EnrolmentListRow = {
  id: number;
  contactId: number;
  email: string;
  firstName: string;
  lastName: string;
  version: number;
  currentNodeId: string;
  state: string;
  exitReason: string | null;
  nextRunAt: Date | null;
  enteredAt: Date;
  finishedAt: Date | null;
};

/** One page of a sequence's enrolments, newest first, with the total. */
export async function enrolmentPage(
  db: DbOrTx,
  sequenceId: number,
  page: { offset: number; limit: number; state?: string | undefined },
): Promise<{ rows: EnrolmentListRow[]; total: number }> {
  const where = and(
    eq(sequenceEnrolments.sequenceId, sequenceId),
    page.state ? eq(sequenceEnrolments.state, page.state) : undefined,
  );
  const [rows, totals] = await Promise.all([
    db
      .select({
        id: sequenceEnrolments.id,
        contactId: sequenceEnrolments.contactId,
        email: contacts.email,
        firstName: contacts.firstName,
        lastName: contacts.lastName,
        version: sequenceEnrolments.version,
        currentNodeId: sequenceEnrolments.currentNodeId,
        state: sequenceEnrolments.state,
        exitReason: sequenceEnrolments.exitReason,
        nextRunAt: sequenceEnrolments.nextRunAt,
        enteredAt: sequenceEnrolments.enteredAt,
        finishedAt: sequenceEnrolments.finishedAt,
      })
      .from(sequenceEnrolments)
      .innerJoin(contacts, eq(contacts.id, sequenceEnrolments.contactId))
      .where(where)
      .orderBy(desc(sequenceEnrolments.enteredAt), desc(sequenceEnrolments.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(sequenceEnrolments).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** The flows of the given versions of a sequence, by version. */
export async function versionFlows(
  db: DbOrTx,
  sequenceId: number,
  versions: readonly number[],
): Promise<Map<number, FlowData>> {
  if (versions.length === 0) return new Map();
  const rows = await db
    .select({ version: emailSequenceVersions.version, flowData: emailSequenceVersions.flowData })
    .from(emailSequenceVersions)
    .where(and(eq(emailSequenceVersions.sequenceId, sequenceId), inArray(emailSequenceVersions.version, [...versions])))
    .orderBy(asc(emailSequenceVersions.version));
  return new Map(rows.map((row) => [row.version, row.flowData]));
}

/** The active sequences with a signup (list join) or segment_joined trigger, of one user or of everyone. */
export async function activeJoinTriggeredSequences(db: DbOrTx, userId?: string): Promise<SequenceRow[]> {
  return db
    .select()
    .from(emailSequences)
    .where(
      and(
        eq(emailSequences.status, 'active'),
        inArray(emailSequences.triggerType, ['signup', 'segment_joined', 'tag_added']),
        userId ? eq(emailSequences.userId, userId) : undefined,
      ),
    );
}

/** The user's active sequences triggered by the custom event `eventName`. */
export async function activeEventSequences(db: DbOrTx, userId: string, eventName: string): Promise<SequenceRow[]> {
  return db
    .select()
    .from(emailSequences)
    .where(
      and(
        eq(emailSequences.userId, userId),
        eq(emailSequences.status, 'active'),
        eq(emailSequences.triggerType, 'custom_event'),
        sql`${emailSequences.triggerConfig}->>'eventName' = ${eventName}`,
      ),
    );
}

/** The user's contact with this id or address, if any. */
export async function findContactId(
  db: DbOrTx,
  userId: string,
  by: { contactId: number } | { email: string },
): Promise<number | undefined> {
  const [row] = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(
      and(
        eq(contacts.userId, userId),
        'contactId' in by ? eq(contacts.id, by.contactId) : eq(contacts.email, by.email.toLowerCase()),
      ),
    )
    .limit(1);
  return row?.id;
}

export async function setTriggerCheckedAt(db: DbOrTx, sequenceId: number, at: Date): Promise<void> {
  await db.update(emailSequences).set({ triggerCheckedAt: at }).where(eq(emailSequences.id, sequenceId));
}

export type EnrolmentCounts = { enrolled: number; active: number; completed: number; exited: number };
export type SendCounts = { queued: number; sent: number; opened: number; clicked: number };

const sendCountColumns = sql`
  count(*) FILTER (WHERE s.status IN ('queued', 'sending'))::int AS queued,
  count(*) FILTER (WHERE s.status = 'sent')::int AS sent,
  count(*) FILTER (WHERE s.opened_at IS NOT NULL OR s.clicked_at IS NOT NULL)::int AS opened,
  count(*) FILTER (WHERE s.clicked_at IS NOT NULL)::int AS clicked`;

/** Enrolment and send totals of one sequence, or of all of the user's. */
export async function totalsOf(db: DbOrTx, userId: string, sequenceId?: number): Promise<EnrolmentCounts & SendCounts> {
  const enrolmentsWhere = sequenceId === undefined ? sql`e.user_id = ${userId}` : sql`e.sequence_id = ${sequenceId}`;
  const sendsWhere = sequenceId === undefined ? sql`s.user_id = ${userId}` : sql`s.sequence_id = ${sequenceId}`;
  const [enrolments] = (
    await db.execute(sql`
      SELECT count(*)::int AS enrolled, count(*) FILTER (WHERE e.state = 'active')::int AS active,
        count(*) FILTER (WHERE e.state = 'completed')::int AS completed,
        count(*) FILTER (WHERE e.state = 'exited')::int AS exited
      FROM ${sequenceEnrolments} e WHERE ${enrolmentsWhere}`)
  ).rows as EnrolmentCounts[];
  const [sends] = (await db.execute(sql`SELECT ${sendCountColumns} FROM ${sequenceSends} s WHERE ${sendsWhere}`))
    .rows as SendCounts[];
  return {
    ...(enrolments ?? { enrolled: 0, active: 0, completed: 0, exited: 0 }),
    ...(sends ?? { queued: 0, sent: 0, opened: 0, clicked: 0 }),
  };
}

export type NodeCounts = { entered: number; branchedElse: number; waiting: number; ended: number } & SendCounts;

/** Per node of one sequence: the advancer's counters, enrolments there now or ended there, and sends. */
export async function nodeCountsOf(db: DbOrTx, sequenceId: number): Promise<Map<string, NodeCounts>> {
  const counts = new Map<string, NodeCounts>();
  const at = (nodeId: string) => {
    let row = counts.get(nodeId);
    if (!row) {
      row = { entered: 0, branchedElse: 0, waiting: 0, ended: 0, queued: 0, sent: 0, opened: 0, clicked: 0 };
      counts.set(nodeId, row);
    }
    return row;
  };
  const stats = await db.select().from(sequenceNodeStats).where(eq(sequenceNodeStats.sequenceId, sequenceId));
  for (const row of stats) Object.assign(at(row.nodeId), { entered: row.entered, branchedElse: row.branchedElse });
  const positions = (
    await db.execute(sql`
      SELECT current_node_id AS "nodeId", count(*) FILTER (WHERE state = 'active')::int AS waiting,
        count(*) FILTER (WHERE state <> 'active')::int AS ended
      FROM ${sequenceEnrolments} WHERE sequence_id = ${sequenceId} GROUP BY current_node_id`)
  ).rows as { nodeId: string; waiting: number; ended: number }[];
  for (const row of positions) Object.assign(at(row.nodeId), { waiting: row.waiting, ended: row.ended });
  const sends = (
    await db.execute(sql`
      SELECT s.node_id AS "nodeId", ${sendCountColumns}
      FROM ${sequenceSends} s WHERE s.sequence_id = ${sequenceId} GROUP BY s.node_id`)
  ).rows as ({ nodeId: string } & SendCounts)[];
  for (const { nodeId, ...row } of sends) Object.assign(at(nodeId), row);
  return counts;
}

/**
 * Ends the enrolments in flight whose email a reply answers: the accounts' sequence sends with one
 * of these Message-IDs (on the (user_id, message_id) index) exit with reason 'replied', and their
 * sends still queued are dropped ('suppressed'). Answers how many enrolments ended.
 */
export async function exitRepliedEnrolments(
  db: DbOrTx,
  userIds: readonly string[],
  messageIds: readonly string[],
): Promise<number> {
  if (userIds.length === 0 || messageIds.length === 0) return 0;
  const result = await db.execute(sql`
    WITH replied AS (
      SELECT DISTINCT s.enrolment_id AS id FROM ${sequenceSends} s
      WHERE s.user_id = ANY(${sql.param([...userIds])}::uuid[]) AND s.message_id = ANY(${sql.param([...messageIds])}::text[])
        AND s.enrolment_id IS NOT NULL),
    exited AS (
      UPDATE ${sequenceEnrolments} e SET state = 'exited', exit_reason = 'replied', next_run_at = NULL,
        finished_at = now(), updated_at = now()
      FROM replied r WHERE e.id = r.id AND e.state = 'active'
      RETURNING e.id),
    dropped AS (
      UPDATE ${sequenceSends} q SET status = 'suppressed', claim_token = NULL
      FROM exited x WHERE q.enrolment_id = x.id AND q.status = 'queued'
      RETURNING q.id)
    SELECT (SELECT count(*)::int FROM exited) AS n, (SELECT count(*)::int FROM dropped) AS dropped`);
  return Number((result.rows[0] as { n?: number } | undefined)?.n ?? 0);
}

/**
 * Forgets tag additions older than `before`: every active tag_added sequence has checked past them
 * (the minute tick), and a sequence activated later only reads additions from its activation on.
 */
export async function pruneTagAdditions(db: DbOrTx, before: Date): Promise<void> {
  await db.execute(sql`DELETE FROM ${contactTagAdditions} WHERE added_at < ${before.toISOString()}::timestamptz`);
}

/** The account's sequence settings (the defaults until saved). */
export async function sequenceSettingsOf(db: DbOrTx, userId: string): Promise<SequenceSettings> {
  const [row] = await db
    .select({ maxEmailsPerContactPerDay: sequenceSettings.maxEmailsPerContactPerDay })
    .from(sequenceSettings)
    .where(eq(sequenceSettings.userId, userId))
    .limit(1);
  return row ?? DEFAULT_SEQUENCE_SETTINGS;
}

/** Saves the account's sequence settings (one row per account). */
export async function saveSequenceSettings(db: DbOrTx, userId: string, settings: SequenceSettings): Promise<void> {
  await db
    .insert(sequenceSettings)
    .values({ userId, ...settings })
    .onConflictDoUpdate({ target: sequenceSettings.userId, set: { ...settings, updatedAt: new Date() } });
}
