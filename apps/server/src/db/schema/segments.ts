import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { SegmentConditions } from '@sendwell/contract/segments';
import { users } from './auth.ts';
import { contacts } from './contacts.ts';

export const contactSegments = pgTable(
  'contact_segments',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    isActive: boolean('is_active').notNull().default(true),
    isAutoUpdate: boolean('is_auto_update').notNull().default(false),
    conditions: jsonb('conditions').$type<SegmentConditions>().notNull(),
    /** The size of the membership as of lastUpdatedAt, kept in step when members are deleted. */
    contactCount: integer('contact_count').notNull().default(0),
    lastUpdatedAt: timestamp('last_updated_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('contact_segments_user_idx').on(t.userId)],
);

/** A segment's membership as of its last refresh (static segments keep it until refreshed). */
export const contactSegmentMembers = pgTable(
  'contact_segment_members',
  {
    segmentId: integer('segment_id')
      .notNull()
      .references(() => contactSegments.id, { onDelete: 'cascade' }),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    /** When the contact joined the segment (a recompute that finds it matching): the segment_joined sequence trigger reads it. */
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.segmentId, t.contactId] }),
    index('contact_segment_members_contact_idx').on(t.contactId),
  ],
);
