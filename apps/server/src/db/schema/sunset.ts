import { boolean, index, integer, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { contacts } from './contacts.ts';
import { emailSequences } from './sequences.ts';

/**
 * An account's sunset policy (modules/sunset). No row: the defaults (SUNSET_DEFAULTS, on), so every
 * account has the policy without a row being written at sign-up.
 */
export const sunsetPolicies = pgTable('sunset_policies', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull(),
  inactiveDays: integer('inactive_days').notNull(),
  minMessages: integer('min_messages').notNull(),
  graceDays: integer('grace_days').notNull(),
  reengagementSequenceId: integer('reengagement_sequence_id').references(() => emailSequences.id, {
    onDelete: 'set null',
  }),
  /** When the daily sweep last ran for the account (also for accounts without a row: it writes one then). */
  lastRunAt: timestamp('last_run_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Contacts in their re-engagement period: since `startedAt` the policy waits for a human open or
 * click (contacts.last_activity_at after it); the row goes when they act, or when they are
 * suppressed as unengaged at the end of the period.
 */
export const sunsetContacts = pgTable(
  'sunset_contacts',
  {
    contactId: integer('contact_id')
      .primaryKey()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sunset_contacts_user_started_idx').on(t.userId, t.startedAt)],
);
