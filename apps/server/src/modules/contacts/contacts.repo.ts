import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from '../../db/client.ts';
import { rawStatement, type RawRow } from '../../db/raw-statement.ts';
import type { SessionCompanion } from '../auth/index.ts';
import {
  suppressions,
  contactCounts,
  contactFields,
  contactListMembers,
  contactLists,
  contacts,
  contactSearchText,
  contactSegmentMembers,
  contactSegments,
  type ContactRow,
  users,
} from '../../db/schema/index.ts';

export type { ContactRow };
export type NewContactRow = typeof contacts.$inferInsert;
export type ContactListRow = typeof contactLists.$inferSelect;

export type ContactFilter = { search?: string; listId?: number; status?: 'active' | 'unsubscribed' };

/** Escapes LIKE wildcards so a search for "50%" means the characters, not a pattern. */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function contactWhere(userId: string, filter: ContactFilter): SQL {
  const conditions: SQL[] = [eq(contacts.userId, userId)];
  if (filter.search) conditions.push(sql`${contactSearchText} LIKE ${likePattern(filter.search)}`);
  if (filter.status) conditions.push(eq(contacts.isActive, filter.status === 'active'));
  if (filter.listId !== undefined) {
    conditions.push(
      sql`EXISTS (SELECT 1 FROM ${contactListMembers} m WHERE m.contact_id = ${contacts.id} AND m.list_id = ${filter.listId})`,
    );
  }
  return and(...conditions) as SQL;
}

/** The ids of the user's contacts matching the filter, at most `limit` (a bulk action on "all matching"). */
export async function contactIdsMatching(
  db: DbOrTx,
  userId: string,
  filter: ContactFilter,
  limit: number,
): Promise<number[]> {
  const rows = await db.select({ id: contacts.id }).from(contacts).where(contactWhere(userId, filter)).limit(limit);
  return rows.map((row) => row.id);
}

/** Counts above this are reported as "at least" (a search matching half a million rows is not counted row by row). */
export const COUNT_CAP = 10_000;

/**
 * The total for a filter, cheaply: unfiltered and status-only totals come from the trigger-kept
 * contact_counts row, a bare list filter from the list's own count, anything else is counted
 * up to COUNT_CAP.
 */
async function countContacts(
  db: DbOrTx,
  userId: string,
  filter: ContactFilter,
  where: SQL,
): Promise<{ total: number; exact: boolean }> {
  if (!filter.search && filter.listId === undefined) {
    const [row] = await db.select().from(contactCounts).where(eq(contactCounts.userId, userId)).limit(1);
    const total = row?.total ?? 0;
    const active = row?.active ?? 0;
    return {
      total: filter.status === 'active' ? active : filter.status === 'unsubscribed' ? total - active : total,
      exact: true,
    };
  }
  if (!filter.search && !filter.status && filter.listId !== undefined) {
    const [list] = await db
      .select({ n: contactLists.subscriberCount })
      .from(contactLists)
      .where(eq(contactLists.id, filter.listId))
      .limit(1);
    return { total: list?.n ?? 0, exact: true };
  }
  const result = await db.execute(
    sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${contacts} WHERE ${where} LIMIT ${COUNT_CAP + 1}) capped`,
  );
  const n = Number((result.rows[0] as { n: number }).n);
  return n > COUNT_CAP ? { total: COUNT_CAP, exact: false } : { total: n, exact: true };
}

/** One page of the user's contacts, newest first, and the total matching the filter. */
export async function listContacts(
  db: DbOrTx,
  userId: string,
  filter: ContactFilter,
  page: { offset: number; limit: number },
): Promise<{ rows: ContactRow[]; total: number; exact: boolean }> {
  const where = contactWhere(userId, filter);
  const [rows, counted] = await Promise.all([
    db
      .select(contactFields)
      .from(contacts)
      .where(where)
      .orderBy(desc(contacts.createdAt), desc(contacts.id))
      .limit(page.limit)
      .offset(page.offset),
    countContacts(db, userId, filter, where),
  ]);
  return { rows, ...counted };
}

/**
 * The ids of the user's contacts matching a search (and status), newest first, at most `limit` of
 * them, with the version of the user's contacts they were read at: one statement, so both come from
 * one snapshot. The version is null when the user has no contact_counts row (never had a contact).
 */
export async function matchingContactIds(
  db: DbOrTx,
  userId: string,
  filter: { search: string; status?: 'active' | 'unsubscribed' },
  limit: number,
): Promise<{ version: string | null; ids: number[] }> {
  const result = await db.execute(sql`
    SELECT (SELECT ${contactCounts.version}::text FROM ${contactCounts} WHERE ${contactCounts.userId} = ${userId}) AS version,
           ARRAY(SELECT ${contacts.id} FROM ${contacts} WHERE ${contactWhere(userId, filter)}
                 ORDER BY ${contacts.createdAt} DESC, ${contacts.id} DESC LIMIT ${limit}) AS ids`);
  const row = result.rows[0] as { version: string | null; ids: number[] };
  return { version: row.version, ids: row.ids };
}

/**
 * A contact as a page of search results needs it, one array per row in this order: timestamps as
 * epoch milliseconds (what a Date holds), then the row version's address (ctid) and creating
 * transaction (xmin), which let a later statement confirm cheaply that the row is unchanged.
 */
export type ContactPageRow = [
  id: number,
  email: string,
  firstName: string,
  lastName: string,
  company: string | null,
  jobTitle: string | null,
  phone: string | null,
  location: string | null,
  notes: string | null,
  tags: string[],
  isActive: boolean,
  subscriptionDateMs: number,
  createdAtMs: number,
  engagementScore: number,
  totalEmailsOpened: number,
  totalEmailsClicked: number,
  lastActivityAtMs: number | null,
  ctid: string,
  xmin: string,
];

// floor: a Date holds whole milliseconds and drops the microseconds Postgres keeps (as new Date() of its text does).
const epochMs = (column: string) => `floor(extract(epoch FROM c.${column}) * 1000)::float8`;

const CONTACT_PAGE_SQL = `
  SELECT c.id, c.email, c.first_name, c.last_name, c.company, c.job_title, c.phone, c.location, c.notes, c.tags, c.is_active,
         ${epochMs('subscription_date')}, ${epochMs('created_at')}, c.engagement_score, c.total_emails_opened, c.total_emails_clicked,
         ${epochMs('last_activity_at')}, c.ctid::text, c.xmin::text
  FROM contacts c
  WHERE c.user_id = $1 AND c.id = ANY($2::int[])
    AND EXISTS (SELECT 1 FROM contact_counts cc WHERE cc.user_id = $1 AND cc.version = $3::bigint)`;

type PageStatements = { rows: (values: unknown[]) => Promise<RawRow[]> };

/** Built once per database handle. */
const pageStatements = new WeakMap<Db, PageStatements>();

function pageStatementsOf(db: Db): PageStatements {
  let statements = pageStatements.get(db);
  if (!statements) {
    statements = { rows: rawStatement(db, 'contact_page_rows', CONTACT_PAGE_SQL) };
    pageStatements.set(db, statements);
  }
  return statements;
}

/** A Postgres array literal (`{3,2,1}`, or `{"(0,1)"}` quoted), passed as one text parameter. */
export function arrayLiteral(values: ArrayLike<number | string>, quoted = false): string {
  const parts = Array.from(values, (value) => (quoted ? `"${value}"` : String(value)));
  return `{${parts.join(',')}}`;
}

/**
 * The user's contacts with these ids (an array literal), in no particular order, if the user's
 * contacts are still at `version`; null if they changed since (the check and the read are one
 * statement, one snapshot). At an unchanged version every id is still there (a delete moves the
 * version), so fewer rows than ids also mean a change.
 */
export async function contactPageAtVersion(
  db: Db,
  userId: string,
  ids: string,
  count: number,
  version: string,
): Promise<ContactPageRow[] | null> {
  const rows = (await pageStatementsOf(db).rows([userId, ids, version])) as ContactPageRow[];
  return rows.length === count ? rows : null;
}

/** What a page read earlier remembers of its rows, as array literals (see arrayLiteral). */
export type PageRowVersions = { version: string; ids: string; ctids: string; xmins: string; count: number };

/**
 * Whether a page read earlier is still exactly what a read now would answer, for the user whose id
 * is `userId` (a column or a placeholder), with the page in placeholders (see pageCheckValues):
 * the user's contacts are at the same version (same matches in the same order), and each
 * remembered address still holds a visible version of one of the page's rows, made by one of the
 * transactions that made the versions read. A row updated since has a newer version, made by a
 * later transaction (and the old one is no longer visible); a table rewrite moves rows to new
 * addresses. Either way fewer than pageCount rows qualify and the page is read again.
 * ctid = ANY(…) is a TID scan: each row version is fetched by its address with no index descent,
 * a third of the cost of looking the rows up by id again (measured with pgbench).
 */
function pageIsCurrent(userId: SQL | AnyPgColumn): SQL {
  return sql`(EXISTS (SELECT 1 FROM contact_counts cc WHERE cc.user_id = ${userId} AND cc.version = ${sql.placeholder('pageVersion')}::bigint)
    AND (SELECT count(*) FROM contacts c
         WHERE c.ctid = ANY(${sql.placeholder('pageCtids')}::tid[]) AND c.user_id = ${userId}
           AND c.id = ANY(${sql.placeholder('pageIds')}::int[]) AND c.xmin = ANY(${sql.placeholder('pageXmins')}::xid[])) = ${sql.placeholder('pageCount')})`;
}

/** The placeholder values pageIsCurrent reads. */
export function pageCheckValues(page: PageRowVersions): Record<string, unknown> {
  return {
    pageVersion: page.version,
    pageCtids: page.ctids,
    pageIds: page.ids,
    pageXmins: page.xmins,
    pageCount: page.count,
  };
}

function preparePageIsCurrent(db: DbOrTx) {
  return db
    .select({ current: sql<boolean>`${pageIsCurrent(contactCounts.userId)}` })
    .from(contactCounts)
    .where(eq(contactCounts.userId, sql.placeholder('userId')))
    .prepare('contact_page_current');
}

const pageIsCurrentQueries = new WeakMap<DbOrTx, ReturnType<typeof preparePageIsCurrent>>();

/** Whether a page read earlier for the user is still exactly what a read now would answer (one statement, one snapshot). */
export async function contactPageIsCurrent(db: DbOrTx, userId: string, page: PageRowVersions): Promise<boolean> {
  let query = pageIsCurrentQueries.get(db);
  if (!query) {
    query = preparePageIsCurrent(db);
    pageIsCurrentQueries.set(db, query);
  }
  const [row] = await query.execute({ userId, ...pageCheckValues(page) });
  return row?.current === true;
}

/**
 * The same check asked along the session lookup, for the page the request would be served from if
 * the session is the user's (`pageUserId`): one round trip for both.
 */
export const pageIsCurrentAlongSession: SessionCompanion = {
  name: 'contact_page',
  condition: (sessionUserId) =>
    sql`${sessionUserId} = ${sql.placeholder('pageUserId')}::uuid AND ${pageIsCurrent(sessionUserId)}`,
};

export async function findContact(db: DbOrTx, userId: string, id: number): Promise<ContactRow | undefined> {
  const [row] = await db
    .select(contactFields)
    .from(contacts)
    .where(and(eq(contacts.userId, userId), eq(contacts.id, id)))
    .limit(1);
  return row;
}

/** The user's contact with this (lower-cased) email, if any. */
export async function findContactByEmail(db: DbOrTx, userId: string, email: string): Promise<ContactRow | undefined> {
  const [row] = await db
    .select(contactFields)
    .from(contacts)
    .where(and(eq(contacts.userId, userId), eq(contacts.email, email)))
    .limit(1);
  return row;
}

/** Inserts a contact; undefined when the user already has that email. */
export async function insertContact(db: DbOrTx, values: NewContactRow): Promise<ContactRow | undefined> {
  const [row] = await db
    .insert(contacts)
    .values(values)
    .onConflictDoNothing({ target: [contacts.userId, contacts.email] })
    .returning(contactFields);
  return row;
}

export async function updateContact(
  db: DbOrTx,
  userId: string,
  id: number,
  values: Partial<NewContactRow>,
): Promise<ContactRow | undefined> {
  const [row] = await db
    .update(contacts)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(contacts.userId, userId), eq(contacts.id, id)))
    .returning(contactFields);
  return row;
}

export async function emailTaken(db: DbOrTx, userId: string, email: string, exceptId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.userId, userId), eq(contacts.email, email)))
    .limit(1);
  return row !== undefined && row.id !== exceptId;
}

/** Deletes the user's contacts among `ids`, taking them out of their lists' and segments' counts first. */
export async function deleteContacts(db: DbOrTx, userId: string, ids: number[]): Promise<number> {
  await db.execute(sql`
    WITH removed AS (
      DELETE FROM ${contactSegmentMembers} m USING ${contacts} c
      WHERE m.contact_id = c.id AND c.user_id = ${userId} AND c.id = ANY(${sqlIntArray(ids)})
      RETURNING m.segment_id
    )
    UPDATE ${contactSegments} s SET contact_count = s.contact_count - r.n
    FROM (SELECT segment_id, count(*)::int AS n FROM removed GROUP BY segment_id) r
    WHERE s.id = r.segment_id`);
  await db.execute(sql`
    WITH removed AS (
      DELETE FROM ${contactListMembers} m USING ${contacts} c
      WHERE m.contact_id = c.id AND c.user_id = ${userId} AND c.id = ANY(${sqlIntArray(ids)})
      RETURNING m.list_id
    )
    UPDATE ${contactLists} l SET subscriber_count = l.subscriber_count - r.n
    FROM (SELECT list_id, count(*)::int AS n FROM removed GROUP BY list_id) r
    WHERE l.id = r.list_id`);
  const deleted = await db
    .delete(contacts)
    .where(and(eq(contacts.userId, userId), inArray(contacts.id, ids)))
    .returning({ id: contacts.id });
  return deleted.length;
}

/** A bound int[] parameter (one parameter, whatever the number of ids; a bare array would be spread). */
function sqlIntArray(ids: number[]): SQL {
  return sql`${sql.param(ids)}::int[]`;
}

/** Adds the user's contacts among `ids` to a list (already members are left alone); answers how many joined. */
export async function addMembers(db: DbOrTx, userId: string, listId: number, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.execute(sql`
    WITH added AS (
      INSERT INTO ${contactListMembers} (list_id, contact_id)
      SELECT ${listId}, c.id FROM ${contacts} c WHERE c.user_id = ${userId} AND c.id = ANY(${sqlIntArray(ids)})
      ON CONFLICT DO NOTHING
      RETURNING 1
    )
    UPDATE ${contactLists} SET subscriber_count = subscriber_count + (SELECT count(*)::int FROM added)
    WHERE id = ${listId} AND user_id = ${userId}
    RETURNING (SELECT count(*)::int FROM added) AS n`);
  return Number((result.rows[0] as { n?: number } | undefined)?.n ?? 0);
}

/** Takes the user's contacts among `ids` out of a list; answers how many left it. */
export async function removeMembers(db: DbOrTx, userId: string, listId: number, ids: number[]): Promise<number> {
  const result = await db.execute(sql`
    WITH removed AS (
      DELETE FROM ${contactListMembers} m USING ${contacts} c
      WHERE m.list_id = ${listId} AND m.contact_id = c.id AND c.user_id = ${userId} AND c.id = ANY(${sqlIntArray(ids)})
      RETURNING 1
    )
    UPDATE ${contactLists} SET subscriber_count = subscriber_count - (SELECT count(*)::int FROM removed)
    WHERE id = ${listId} AND user_id = ${userId}
    RETURNING (SELECT count(*)::int FROM removed) AS n`);
  return Number((result.rows[0] as { n?: number } | undefined)?.n ?? 0);
}

export async function listsOfContact(db: DbOrTx, contactId: number): Promise<{ id: number; name: string }[]> {
  return db
    .select({ id: contactLists.id, name: contactLists.name })
    .from(contactListMembers)
    .innerJoin(contactLists, eq(contactLists.id, contactListMembers.listId))
    .where(eq(contactListMembers.contactId, contactId))
    .orderBy(asc(contactLists.name));
}

export async function listLists(db: DbOrTx, userId: string): Promise<ContactListRow[]> {
  return db
    .select()
    .from(contactLists)
    .where(eq(contactLists.userId, userId))
    .orderBy(asc(contactLists.createdAt), asc(contactLists.id));
}

export async function findList(db: DbOrTx, userId: string, id: number): Promise<ContactListRow | undefined> {
  const [row] = await db
    .select()
    .from(contactLists)
    .where(and(eq(contactLists.userId, userId), eq(contactLists.id, id)))
    .limit(1);
  return row;
}

export async function findListByName(db: DbOrTx, userId: string, name: string): Promise<ContactListRow | undefined> {
  const [row] = await db
    .select()
    .from(contactLists)
    .where(and(eq(contactLists.userId, userId), sql`lower(${contactLists.name}) = ${name.toLowerCase()}`))
    .limit(1);
  return row;
}

/** Inserts a list; undefined when the user already has a list of that name (any case). */
export async function insertList(
  db: DbOrTx,
  userId: string,
  name: string,
  description: string | null,
): Promise<ContactListRow | undefined> {
  const [row] = await db.insert(contactLists).values({ userId, name, description }).onConflictDoNothing().returning();
  return row;
}

export async function updateList(
  db: DbOrTx,
  userId: string,
  id: number,
  values: { name?: string; description?: string | null },
): Promise<ContactListRow | undefined> {
  const [row] = await db
    .update(contactLists)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(contactLists.userId, userId), eq(contactLists.id, id)))
    .returning();
  return row;
}

export async function deleteList(db: DbOrTx, userId: string, id: number): Promise<boolean> {
  const deleted = await db
    .delete(contactLists)
    .where(and(eq(contactLists.userId, userId), eq(contactLists.id, id)))
    .returning({ id: contactLists.id });
  return deleted.length > 0;
}

/** Contacts in id order after `afterId`, for streaming exports in pages. */
export async function contactsAfter(
  db: DbOrTx,
  userId: string,
  listId: number | undefined,
  afterId: number,
  limit: number,
): Promise<ContactRow[]> {
  return db
    .select(contactFields)
    .from(contacts)
    .where(and(contactWhere(userId, { listId }), sql`${contacts.id} > ${afterId}`))
    .orderBy(asc(contacts.id))
    .limit(limit);
}

/** One checked row of a CSV import. */
export type ImportRow = {
  email: string;
  firstName: string;
  lastName: string;
  company: string | null;
  jobTitle: string | null;
  phone: string | null;
  location: string | null;
  notes: string | null;
  tags: string[];
};

const TAG_SEPARATOR = '\u001f';

/**
 * One statement per batch inserts new contacts and fills empty fields of existing ones (unsubscribed
 * contacts stay unsubscribed) and, when a list is given, adds every contact of the batch to it; a
 * second one moves the list's count by exactly the rows that joined. Answers how many contacts were new.
 */
export async function upsertImportBatch(
  tx: DbOrTx,
  userId: string,
  listId: number | null,
  rows: ImportRow[],
): Promise<number> {
  // Each column travels as one JSON array: JSON.stringify and Postgres' JSON parser are cheaper than
  // node-postgres' array literals and array_in (measured ~3x in Node, ~1.4x in Postgres).
  const column = (pick: (row: ImportRow) => string | null) =>
    sql`json_array_elements_text(${JSON.stringify(rows.map(pick))}::json)`;
  const upsert = sql`
    INSERT INTO ${contacts} (user_id, email, first_name, last_name, company, job_title, phone, location, notes, tags)
    SELECT ${userId}, u.email, u.first_name, u.last_name, u.company, u.job_title, u.phone, u.location, u.notes,
           CASE WHEN u.tags = '' THEN '{}'::text[] ELSE string_to_array(u.tags, ${TAG_SEPARATOR}) END
    FROM input u
    ON CONFLICT (user_id, email) DO UPDATE SET
      first_name = CASE WHEN contacts.first_name = '' THEN excluded.first_name ELSE contacts.first_name END,
      last_name = CASE WHEN contacts.last_name = '' THEN excluded.last_name ELSE contacts.last_name END,
      company = coalesce(contacts.company, excluded.company),
      job_title = coalesce(contacts.job_title, excluded.job_title),
      phone = coalesce(contacts.phone, excluded.phone),
      location = coalesce(contacts.location, excluded.location),
      notes = coalesce(contacts.notes, excluded.notes),
      tags = CASE WHEN cardinality(contacts.tags) = 0 THEN excluded.tags ELSE contacts.tags END,
      updated_at = now()
    WHERE (contacts.first_name = '' AND excluded.first_name <> '')
       OR (contacts.last_name = '' AND excluded.last_name <> '')
       OR (contacts.company IS NULL AND excluded.company IS NOT NULL)
       OR (contacts.job_title IS NULL AND excluded.job_title IS NOT NULL)
       OR (contacts.phone IS NULL AND excluded.phone IS NOT NULL)
       OR (contacts.location IS NULL AND excluded.location IS NOT NULL)
       OR (contacts.notes IS NULL AND excluded.notes IS NOT NULL)
       OR (cardinality(contacts.tags) = 0 AND cardinality(excluded.tags) > 0)
    RETURNING id, email, (xmax = 0) AS inserted`;
  const input = sql`
    input AS (
      SELECT * FROM ROWS FROM (${column((r) => r.email)}, ${column((r) => r.firstName)}, ${column((r) => r.lastName)},
                           ${column((r) => r.company)}, ${column((r) => r.jobTitle)}, ${column((r) => r.phone)},
                           ${column((r) => r.location)}, ${column((r) => r.notes)}, ${column((r) => r.tags.join(TAG_SEPARATOR))})
        AS u(email, first_name, last_name, company, job_title, phone, location, notes, tags))`;
  if (listId === null) {
    const result = await tx.execute(
      sql`WITH ${input}, upserted AS (${upsert}) SELECT count(*) FILTER (WHERE inserted)::int AS inserted FROM upserted`,
    );
    return Number((result.rows[0] as { inserted: number }).inserted);
  }
  // A contact this statement inserted is in no list yet, and no other transaction can see it: it joins
  // with a plain insert. Only contacts that existed need ON CONFLICT, whose speculative insertion costs
  // an extra index probe and WAL record per row.
  // Contacts the upsert left untouched are not RETURNed; they existed before, so the snapshot finds them.
  // Each is looked up by itself through the (user_id, email) index (OFFSET 0 keeps the lateral subquery
  // from becoming a join): as a join, the planner may hash all of the user's contacts for every batch,
  // which grows with each batch of a large import.
  const result = await tx.execute(sql`
    WITH ${input},
    upserted AS (${upsert}),
    existing_ids AS (
      SELECT id FROM upserted WHERE NOT inserted
      UNION ALL
      SELECT found.id FROM input i
      CROSS JOIN LATERAL (SELECT c.id FROM ${contacts} c WHERE c.user_id = ${userId} AND c.email = i.email OFFSET 0) found
      WHERE NOT EXISTS (SELECT 1 FROM upserted x WHERE x.email = i.email)
    ),
    added_new AS (
      INSERT INTO ${contactListMembers} (list_id, contact_id) SELECT ${listId}, id FROM upserted WHERE inserted RETURNING 1
    ),
    added_existing AS (
      INSERT INTO ${contactListMembers} (list_id, contact_id) SELECT ${listId}, id FROM existing_ids
      ON CONFLICT DO NOTHING RETURNING 1
    )
    SELECT (SELECT count(*) FILTER (WHERE inserted)::int FROM upserted) AS inserted,
           (SELECT count(*)::int FROM added_new) + (SELECT count(*)::int FROM added_existing) AS added`);
  const { inserted, added } = result.rows[0] as { inserted: number; added: number };
  // A statement of its own, after the one above has run its foreign-key checks: the list's row stays
  // locked until COMMIT, and another batch of the same import waits for it only this short while.
  if (added > 0)
    await tx.execute(
      sql`UPDATE ${contactLists} SET subscriber_count = subscriber_count + ${added} WHERE id = ${listId}`,
    );
  return inserted;
}

/**
 * Locks the account's row until the transaction ends and answers its plan: contacts are counted
 * against the plan's subscriber limit one writer at a time, so two writers at the limit cannot both pass.
 */
export async function lockAccountPlan(tx: DbOrTx, userId: string): Promise<string | undefined> {
  const [row] = await tx.select({ plan: users.plan }).from(users).where(eq(users.id, userId)).for('update');
  return row?.plan;
}

/** Which of these emails the account has as contacts already. */
export async function existingEmails(db: DbOrTx, userId: string, emails: string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await db
    .select({ email: contacts.email })
    .from(contacts)
    .where(and(eq(contacts.userId, userId), inArray(contacts.email, emails)));
  return new Set(rows.map((row) => row.email));
}

export type TimelineRow = {
  type: string;
  at: Date;
  reason: string | null;
  detail: string | null;
  machine: boolean | null;
  url: string | null;
  campaignId: number | null;
  campaignName: string | null;
  sequenceId: number | null;
  sequenceName: string | null;
  sourceName: string | null;
};

/**
 * One page of everything that happened with the account's contact, newest first: sent mail
 * (campaign and sequence ledgers), its events, sequences entered and left, forms and lead captures.
 * Each part reads only the contact's rows on its contact index and at most the rows the page
 * needs; `limit` + 1 rows come back so the caller knows whether more follow.
 */
export async function timelineOfContact(
  db: DbOrTx,
  userId: string,
  contact: { id: number; email: string },
  page: { limit: number; offset: number },
): Promise<TimelineRow[]> {
  const upTo = page.offset + page.limit + 1;
  const result = await db.execute(sql`
    SELECT * FROM (
      (SELECT 'sent' AS type, cs.sent_at AS at, NULL AS reason, NULL AS detail, NULL::boolean AS machine, NULL AS url,
              cs.campaign_id AS "campaignId", c.name AS "campaignName", NULL::int AS "sequenceId", NULL AS "sequenceName",
              NULL AS "sourceName", cs.id AS tie
       FROM campaign_sends cs JOIN campaigns c ON c.id = cs.campaign_id AND c.user_id = ${userId}
       WHERE cs.contact_id = ${contact.id} AND cs.user_id = ${userId} AND cs.sent_at IS NOT NULL
       ORDER BY cs.sent_at DESC LIMIT ${upTo})
      UNION ALL
      (SELECT 'sent', ss.sent_at, NULL, ss.node_id, NULL, NULL, NULL, NULL, ss.sequence_id, es.name, NULL, ss.id
       FROM sequence_sends ss JOIN email_sequences es ON es.id = ss.sequence_id AND es.user_id = ${userId}
       WHERE ss.contact_id = ${contact.id} AND ss.user_id = ${userId} AND ss.sent_at IS NOT NULL
       ORDER BY ss.sent_at DESC LIMIT ${upTo})
      UNION ALL
      (SELECT e.type, e.created_at, e.reason,
              CASE WHEN e.type = 'click' THEN NULL WHEN e.type = 'purchase' THEN e.amount_cents::text ELSE e.detail END,
              CASE WHEN e.type IN ('open', 'click') THEN e.machine END,
              CASE WHEN e.type = 'click' THEN coalesce(l.url, CASE WHEN e.campaign_id IS NULL THEN e.detail END) END,
              e.campaign_id, c.name, e.sequence_id, es.name, NULL, e.id
       FROM email_events e
       LEFT JOIN campaigns c ON c.id = e.campaign_id AND c.user_id = ${userId}
       LEFT JOIN email_sequences es ON es.id = e.sequence_id AND es.user_id = ${userId}
       LEFT JOIN campaign_links l ON e.type = 'click' AND l.id = e.link_id AND l.campaign_id = e.campaign_id
       WHERE e.contact_id = ${contact.id} AND e.user_id = ${userId}
         AND e.type IN ('open', 'click', 'bounce', 'complaint', 'unsubscribe', 'auto-reply', 'delivered', 'purchase')
       ORDER BY e.created_at DESC LIMIT ${upTo})
      UNION ALL
      (SELECT 'sequence-entered', en.entered_at, NULL, NULL, NULL, NULL, NULL, NULL, en.sequence_id, es.name, NULL, en.id
       FROM sequence_enrolments en JOIN email_sequences es ON es.id = en.sequence_id AND es.user_id = ${userId}
       WHERE en.contact_id = ${contact.id} AND en.user_id = ${userId}
       ORDER BY en.entered_at DESC LIMIT ${upTo})
      UNION ALL
      (SELECT 'sequence-left', en.finished_at, NULL, coalesce(en.exit_reason, en.state), NULL, NULL, NULL, NULL,
              en.sequence_id, es.name, NULL, en.id
       FROM sequence_enrolments en JOIN email_sequences es ON es.id = en.sequence_id AND es.user_id = ${userId}
       WHERE en.contact_id = ${contact.id} AND en.user_id = ${userId} AND en.finished_at IS NOT NULL
       ORDER BY en.finished_at DESC LIMIT ${upTo})
      UNION ALL
      (SELECT 'form', coalesce(f.confirmed_at, f.submitted_at), NULL,
              CASE WHEN f.confirmed_at IS NULL THEN 'awaiting confirmation' ELSE 'confirmed' END,
              NULL, NULL, NULL, NULL, NULL, NULL, s.name, f.id
       FROM lead_form_submissions f JOIN lead_sources s ON s.id = f.source_id AND s.user_id = ${userId}
       WHERE f.user_id = ${userId} AND f.email = ${contact.email}
       ORDER BY coalesce(f.confirmed_at, f.submitted_at) DESC LIMIT ${upTo})
      UNION ALL
      (SELECT 'lead', ld.created_at, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, s.name, ld.id
       FROM leads ld LEFT JOIN lead_sources s ON s.id = ld.source_id AND s.user_id = ${userId}
       WHERE ld.user_id = ${userId} AND ld.contact_id = ${contact.id}
       ORDER BY ld.created_at DESC LIMIT ${upTo})
    ) timeline
    ORDER BY at DESC, tie DESC
    LIMIT ${page.limit + 1} OFFSET ${page.offset}`);
  return (result.rows as (Omit<TimelineRow, 'at'> & { at: Date | string })[]).map((row) => ({
    ...row,
    at: new Date(row.at),
    campaignId: row.campaignId === null ? null : Number(row.campaignId),
    sequenceId: row.sequenceId === null ? null : Number(row.sequenceId),
  }));
}

/** The account's suppression of an address, if any. */
export async function suppressionOf(db: DbOrTx, userId: string, email: string) {
  const [row] = await db
    .select({ reason: suppressions.reason, detail: suppressions.detail, since: suppressions.createdAt })
    .from(suppressions)
    .where(and(eq(suppressions.userId, userId), eq(suppressions.email, email.toLowerCase())))
    .limit(1);
  return row;
}
