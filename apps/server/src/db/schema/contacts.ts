import { getTableColumns, sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.ts';

/**
 * The text that contact search matches (lower-case; email is stored lower-case already).
 * The version trigger of migration 0010 watches the columns named here: change both together.
 */
export const contactSearchText = sql.raw(
  `(lower(first_name || ' ' || last_name || ' ' || coalesce(company, '')) || ' ' || email)`,
);

export const contacts = pgTable(
  'contacts',
  {
    // Column order is chosen for scans (migration 0013): Postgres reads a row's columns in order up to
    // the last one a query needs, and reaches a column after only fixed-width ones at once. So the
    // fixed-width columns come first, then what segment rules match on, then the rest.
    id: serial('id').primaryKey(),
    // References users.id, enforced by statement-level triggers (migration 0012), not a foreign key.
    userId: uuid('user_id').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    engagementScore: integer('engagement_score').notNull().default(0),
    totalEmailsOpened: integer('total_emails_opened').notNull().default(0),
    totalEmailsClicked: integer('total_emails_clicked').notNull().default(0),
    subscriptionDate: timestamp('subscription_date', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }),
    email: text('email').notNull(),
    // Segment rules match text case-insensitively. Calling lower() on every row of a million-row scan
    // was most of a segment count's time, so Postgres keeps the lower-cased copies as the row is written.
    firstNameLower: text('first_name_lower').generatedAlwaysAs(sql`lower(first_name)`),
    lastNameLower: text('last_name_lower').generatedAlwaysAs(sql`lower(last_name)`),
    companyLower: text('company_lower').generatedAlwaysAs(sql`lower(coalesce(company, ''))`),
    jobTitleLower: text('job_title_lower').generatedAlwaysAs(sql`lower(coalesce(job_title, ''))`),
    locationLower: text('location_lower').generatedAlwaysAs(sql`lower(coalesce(location, ''))`),
    /**
     * The tags, lower-cased, in tsvector text form with a space at each end: ` 'news' 'vip' `.
     * That form quotes every tag and doubles any quote inside one, so ` 'vip' ` occurs in it only
     * where a whole tag is "vip" (see tagNeedle); a text search on it is far cheaper per row than
     * unpacking the array. array_to_tsvector is used because it is immutable, which a generated
     * column needs (array_to_string and the text[]→text cast are only stable).
     */
    tagsLower: text('tags_lower').generatedAlwaysAs(
      sql`' ' || lower(array_to_tsvector(array_remove(array_remove(tags, NULL), ''))::text) || ' '`,
    ),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    company: text('company'),
    jobTitle: text('job_title'),
    phone: text('phone'),
    location: text('location'),
    notes: text('notes'),
    tags: text('tags').array().notNull().default([]),
  },
  (t) => [
    uniqueIndex('contacts_user_email_idx').on(t.userId, t.email),
    // Listings are ordered newest first with id breaking ties (an import batch shares one created_at);
    // walked backwards this index hands rows over in exactly that order, so a page stops early.
    index('contacts_user_created_id_idx').on(t.userId, t.createdAt, t.id),
    // Search matches email, name and company with ILIKE '%…%'; a trigram index serves it.
    index('contacts_search_trgm_idx').using('gin', sql`${contactSearchText} gin_trgm_ops`),
  ],
);

/** The stored lower-cased copies serve segment rules inside SQL; a read has no use for them. */
const segmentMatchColumns = [
  'firstNameLower',
  'lastNameLower',
  'companyLower',
  'jobTitleLower',
  'locationLower',
  'tagsLower',
] as const;
type SegmentMatchColumn = (typeof segmentMatchColumns)[number];

/**
 * What reads of contacts select (the contacts and segments repos alike): every column but the
 * segment-match copies (decoding them costs time on every page).
 */
export const contactFields = Object.fromEntries(
  Object.entries(getTableColumns(contacts)).filter(
    ([name]) => !(segmentMatchColumns as readonly string[]).includes(name),
  ),
) as Omit<(typeof contacts)['_']['columns'], SegmentMatchColumn>;

export type ContactRow = Omit<typeof contacts.$inferSelect, SegmentMatchColumn>;

export const contactLists = pgTable(
  'contact_lists',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    /** Kept exact in the same transaction as every membership change. */
    subscriberCount: integer('subscriber_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('contact_lists_user_name_idx').on(t.userId, sql`lower(${t.name})`)],
);

/**
 * A contact's place in a list. list_id and contact_id reference contact_lists and contacts, and
 * deleting either deletes the membership, like ON DELETE CASCADE foreign keys; statement-level
 * triggers (migration 0012) enforce it, because a foreign key checks and locks one row at a time,
 * which was a third of a million-row import's database time.
 */
export const contactListMembers = pgTable(
  'contact_list_members',
  {
    listId: integer('list_id').notNull(),
    contactId: integer('contact_id').notNull(),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.listId, t.contactId] }), index('contact_list_members_contact_idx').on(t.contactId)],
);

/** Where contact_counts.version values come from: never reused, so a version names one state of a user's contacts. */
export const contactCountsVersionSeq = pgSequence('contact_counts_version_seq');

/** Exact per-user totals, maintained by triggers (migration 0006), so unfiltered counts cost one row read. */
export const contactCounts = pgTable('contact_counts', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  total: integer('total').notNull().default(0),
  active: integer('active').notNull().default(0),
  /**
   * Set from contact_counts_version_seq by the same triggers (migration 0010) whenever one of the
   * user's contacts is inserted or deleted, or its status, search text or creation time changes.
   * Cached search results are valid while it still has the value they were read with.
   */
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});
