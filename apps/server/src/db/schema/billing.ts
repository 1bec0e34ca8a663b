import { pgTable, primaryKey, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';

/**
 * Stripe webhook events already applied, by id: written in the same transaction as the event's
 * effect, so an event Stripe delivers twice changes the account once.
 */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The usage warnings (80%, 100% of a plan limit) already sent, one per account, kind, threshold and
 * period (the calendar month, UTC): use that drops and climbs again in the same month (deleted
 * contacts, failed sends) does not warn twice.
 */
export const usageWarningsSent = pgTable(
  'usage_warnings_sent',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'subscribers' or 'emails'. */
    kind: text('kind').notNull(),
    /** The share of the limit crossed: 0.8 or 1. */
    threshold: real('threshold').notNull(),
    /** 'YYYY-MM' (UTC). */
    period: text('period').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind, t.threshold, t.period] })],
);
