import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  RELATIVE_DATE,
  segmentFieldKinds,
  type SegmentConditions,
  type SegmentField,
  type SegmentRule,
} from '@sendwell/contract/segments';
import type { DbOrTx } from '../../db/client.ts';
import {
  contactFields,
  contacts,
  contactSegmentMembers,
  contactSegments,
  type ContactRow,
} from '../../db/schema/index.ts';

export type SegmentRow = typeof contactSegments.$inferSelect;
export type NewSegmentRow = typeof contactSegments.$inferInsert;

export async function listSegments(db: DbOrTx, userId: string): Promise<SegmentRow[]> {
  return db
    .select()
    .from(contactSegments)
    .where(eq(contactSegments.userId, userId))
    .orderBy(asc(contactSegments.createdAt), asc(contactSegments.id));
}

export async function findSegment(db: DbOrTx, userId: string, id: number): Promise<SegmentRow | undefined> {
  const [row] = await db
    .select()
    .from(contactSegments)
    .where(and(eq(contactSegments.userId, userId), eq(contactSegments.id, id)))
    .limit(1);
  return row;
}

export async function insertSegment(db: DbOrTx, values: NewSegmentRow): Promise<SegmentRow> {
  const [row] = await db.insert(contactSegments).values(values).returning();
  if (!row) throw new Error('segment insert returned nothing');
  return row;
}

export async function updateSegment(
  db: DbOrTx,
  userId: string,
  id: number,
  values: Partial<NewSegmentRow>,
): Promise<SegmentRow | undefined> {
  const [row] = await db
    .update(contactSegments)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(contactSegments.userId, userId), eq(contactSegments.id, id)))
    .returning();
  return row;
}

export async function deleteSegment(db: DbOrTx, userId: string, id: number): Promise<boolean> {
  const rows = await db
    .delete(contactSegments)
    .where(and(eq(contactSegments.userId, userId), eq(contactSegments.id, id)))
    .returning({ id: contactSegments.id });
  return rows.length > 0;
}

/** How many of the user's contacts match a compiled predicate. */
export async function countMatching(db: DbOrTx, userId: string, predicate: SQL): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(contacts)
    .where(and(eq(contacts.userId, userId), predicate));
  return row?.n ?? 0;
}

/** The first matching contacts, newest first. */
export async function firstMatching(db: DbOrTx, userId: string, predicate: SQL, limit: number): Promise<ContactRow[]> {
  return db
    .select(contactFields)
    .from(contacts)
    .where(and(eq(contacts.userId, userId), predicate))
    .orderBy(desc(contacts.createdAt), desc(contacts.id))
    .limit(limit);
}

/**
 * Brings the stored membership in line with the predicate: drops members that no longer match,
 * adds the ones that now do, and stores the new count. Answers the count.
 */
export async function recomputeMembership(db: DbOrTx, segment: SegmentRow, predicate: SQL): Promise<number> {
  await db.execute(sql`
    DELETE FROM ${contactSegmentMembers} m
    WHERE m.segment_id = ${segment.id}
      AND NOT EXISTS (SELECT 1 FROM ${contacts} WHERE ${contacts.id} = m.contact_id AND ${contacts.userId} = ${segment.userId} AND ${predicate})`);
  await db.execute(sql`
    INSERT INTO ${contactSegmentMembers} (segment_id, contact_id)
    SELECT ${segment.id}, ${contacts.id} FROM ${contacts} WHERE ${contacts.userId} = ${segment.userId} AND ${predicate}
    ON CONFLICT DO NOTHING`);
  const [row] = await db
    .select({ n: count() })
    .from(contactSegmentMembers)
    .where(eq(contactSegmentMembers.segmentId, segment.id));
  const total = row?.n ?? 0;
  await db
    .update(contactSegments)
    .set({ contactCount: total, lastUpdatedAt: new Date() })
    .where(eq(contactSegments.id, segment.id));
  return total;
}

/** One page of a segment's stored members, newest contacts first, with the total. */
export async function segmentMembers(db: DbOrTx, segmentId: number, page: { offset: number; limit: number }) {
  const where = sql`EXISTS (SELECT 1 FROM ${contactSegmentMembers} m WHERE m.segment_id = ${segmentId} AND m.contact_id = ${contacts.id})`;
  const [rows, totals] = await Promise.all([
    db
      .select(contactFields)
      .from(contacts)
      .where(where)
      .orderBy(desc(contacts.createdAt), desc(contacts.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(contactSegmentMembers).where(eq(contactSegmentMembers.segmentId, segmentId)),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** The user's auto-updating segments among `ids`. */
export async function autoUpdateSegmentsIn(db: DbOrTx, userId: string, ids: number[]): Promise<SegmentRow[]> {
  return db
    .select()
    .from(contactSegments)
    .where(
      and(eq(contactSegments.userId, userId), inArray(contactSegments.id, ids), eq(contactSegments.isAutoUpdate, true)),
    );
}

export async function autoUpdateSegmentsOf(db: DbOrTx, userId: string | undefined): Promise<SegmentRow[]> {
  const auto = eq(contactSegments.isAutoUpdate, true);
  return db
    .select()
    .from(contactSegments)
    .where(userId ? and(auto, eq(contactSegments.userId, userId)) : auto);
}

// Segment rules as SQL: the predicate the queries above take.

/**
 * The only columns a rule can reach: field names never become SQL text themselves. Text fields
 * read their stored lower-cased copies (email is stored lower-cased and never null).
 */
const columns: Record<SegmentField, SQL> = {
  email: sql`${contacts.email}`,
  firstName: sql`${contacts.firstNameLower}`,
  lastName: sql`${contacts.lastNameLower}`,
  company: sql`${contacts.companyLower}`,
  jobTitle: sql`${contacts.jobTitleLower}`,
  location: sql`${contacts.locationLower}`,
  engagementScore: sql`${contacts.engagementScore}`,
  totalEmailsOpened: sql`${contacts.totalEmailsOpened}`,
  totalEmailsClicked: sql`${contacts.totalEmailsClicked}`,
  createdAt: sql`${contacts.createdAt}`,
  lastActivityAt: sql`${contacts.lastActivityAt}`,
  tags: sql`${contacts.tags}`,
};

const DAY_MS = 86_400_000;

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * A date rule as a comparison: "N days ago" is that instant; a bare date means whole days (UTC),
 * so "before 2026-03-01" is before that day starts and "after 2026-03-01" is from the next day on.
 */
function dateComparison(
  value: string,
  operator: 'date_before' | 'date_after',
  now: Date,
): { op: '<' | '>' | '>='; at: Date } {
  const trimmed = value.trim();
  const relative = RELATIVE_DATE.exec(trimmed);
  if (relative)
    return { op: operator === 'date_before' ? '<' : '>', at: new Date(now.getTime() - Number(relative[1]) * DAY_MS) };
  if (/^\d{4}-\d{2}-\d{2}$/.test(trimmed)) {
    const dayStart = new Date(`${trimmed}T00:00:00Z`);
    return operator === 'date_before'
      ? { op: '<', at: dayStart }
      : { op: '>=', at: new Date(dayStart.getTime() + DAY_MS) };
  }
  return { op: operator === 'date_before' ? '<' : '>', at: new Date(trimmed) };
}

/** Integer columns: a fractional bound is turned into the equivalent integer one so indexes still apply. */
function numericRule(column: SQL, operator: string, raw: string): SQL {
  const x = Number(raw);
  const isInt = Number.isInteger(x);
  switch (operator) {
    case 'equals':
      return isInt ? sql`${column} = ${x}` : sql`false`;
    case 'not_equals':
      return isInt ? sql`${column} <> ${x}` : sql`true`;
    case 'greater_than':
      return sql`${column} > ${Math.floor(x)}`;
    case 'greater_equal':
      return sql`${column} >= ${Math.ceil(x)}`;
    case 'less_than':
      return sql`${column} < ${Math.ceil(x)}`;
    case 'less_equal':
      return sql`${column} <= ${Math.floor(x)}`;
    default:
      throw new Error(`numeric operator ${operator}`);
  }
}

/** `text` is a lower-cased, never-null column. */
function textRule(text: SQL, operator: string, raw: string): SQL {
  const value = raw.toLowerCase();
  switch (operator) {
    case 'equals':
      return sql`${text} = ${value}`;
    case 'not_equals':
      return sql`${text} <> ${value}`;
    case 'contains':
      return sql`${text} LIKE ${`%${escapeLike(value)}%`}`;
    case 'not_contains':
      return sql`${text} NOT LIKE ${`%${escapeLike(value)}%`}`;
    case 'starts_with':
      return sql`${text} LIKE ${`${escapeLike(value)}%`}`;
    case 'ends_with':
      return sql`${text} LIKE ${`%${escapeLike(value)}`}`;
    case 'is_empty':
      return sql`${text} = ''`;
    case 'is_not_empty':
      return sql`${text} <> ''`;
    default:
      throw new Error(`text operator ${operator}`);
  }
}

/**
 * What a whole tag looks like inside contacts.tags_lower (tsvector text form: each lexeme quoted,
 * quotes inside doubled, backslashes doubled, lexemes separated by one space). A quote inside a
 * tag is always doubled, so a single quote after a space opens a tag and one before a space closes it.
 */
function tagNeedle(tag: string): string {
  return ` '${tag.toLowerCase().replace(/\\/g, '\\\\').replace(/'/g, "''")}' `;
}

function tagsRule(column: SQL, operator: string, raw: string): SQL {
  switch (operator) {
    case 'tag_contains':
      // tags_lower holds the tags lower-cased; strpos on it is cheap per row where unpacking the array is not.
      return sql`strpos(${contacts.tagsLower}, ${tagNeedle(raw)}) > 0`;
    case 'is_empty':
      return sql`cardinality(${column}) = 0`;
    case 'is_not_empty':
      return sql`cardinality(${column}) > 0`;
    default:
      throw new Error(`tags operator ${operator}`);
  }
}

function compileRule(rule: SegmentRule, now: Date): SQL {
  const field = rule.field as SegmentField;
  const column = columns[field];
  switch (segmentFieldKinds[field]) {
    case 'numeric':
      return numericRule(column, rule.operator, rule.value);
    case 'text':
      return textRule(column, rule.operator, rule.value);
    case 'tags':
      return tagsRule(column, rule.operator, rule.value);
    case 'date': {
      const { op, at } = dateComparison(rule.value, rule.operator as 'date_before' | 'date_after', now);
      // Seconds since the epoch, not an ISO string: the day after 9999-12-31 is '+010000-01-01…' in ISO, which Postgres refuses.
      return sql`${column} ${sql.raw(op)} to_timestamp(${at.getTime() / 1000}::double precision)`;
    }
  }
}

/**
 * Compiles validated conditions (the contract's schema has checked field, operator and value)
 * into one parameterised predicate over the contacts table. Values are always bound parameters.
 */
export function compileConditions(conditions: SegmentConditions, now: Date = new Date()): SQL {
  const parts = conditions.rules.map((rule) => sql`(${compileRule(rule, now)})`);
  return sql`(${sql.join(parts, conditions.operator === 'AND' ? sql` AND ` : sql` OR `)})`;
}
