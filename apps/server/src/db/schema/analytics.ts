import { date, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';

/*
 * Daily rollups behind /analytics (GET /api/analytics/overview). They are kept by triggers in the
 * same transaction as the rows they count (migration 0036_analytics_rollups): every path that sends,
 * tracks, bounces or adds a contact — whatever module it is in — moves them, and /analytics reads a
 * few hundred rollup rows instead of scanning millions of events. `analytics_rebuild_rollups()`
 * recomputes them from the stored rows (the migration's backfill; the tests compare the two).
 * Days are UTC. Deleting a campaign or a contact does not take back what was sent or added: the
 * mail went out, and a mailbox provider's view of the sending domain does not forget it either.
 */

/**
 * Mail per account, UTC day and sending domain (the from address's domain), by the day the mail was
 * sent: what went out that day and what has become of it since (a cohort), so every rate is over
 * the same messages and never passes 100%. Counts are messages, not events.
 */
export const analyticsMailDaily = pgTable(
  'analytics_mail_daily',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    /** The sending domain, lower case; '' when an event names no message (an unsubscribe from the preferences page). */
    domain: text('domain').notNull(),
    /** Campaign and sequence messages the relay accepted. */
    sent: integer('sent').notNull().default(0),
    /** Messages with a human open or a human click (a click implies an open). */
    opened: integer('opened').notNull().default(0),
    /** Messages whose only opens are a machine's (Apple's privacy proxy, pre-fetchers). */
    machineOpened: integer('machine_opened').notNull().default(0),
    /** Messages with a human click. */
    clicked: integer('clicked').notNull().default(0),
    /** Messages whose only clicks are a scanner's. */
    botClicked: integer('bot_clicked').notNull().default(0),
    /** Hard bounces (the address is bad); soft ones are not a delivery failure. */
    bounced: integer('bounced').notNull().default(0),
    complaints: integer('complaints').notNull().default(0),
    unsubscribes: integer('unsubscribes').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day, t.domain] })],
);

/** The list per account and UTC day of the change: contacts added, and lost to unsubscribes, hard bounces and complaints. */
export const analyticsContactsDaily = pgTable(
  'analytics_contacts_daily',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    added: integer('added').notNull().default(0),
    unsubscribed: integer('unsubscribed').notNull().default(0),
    bounced: integer('bounced').notNull().default(0),
    complained: integer('complained').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

/** Human clicks per account, UTC day of the click and link URL (bot clicks left out). */
export const analyticsLinkDaily = pgTable(
  'analytics_link_daily',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    url: text('url').notNull(),
    clicks: integer('clicks').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day, t.url] })],
);
