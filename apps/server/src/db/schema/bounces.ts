import { boolean, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';

/**
 * What an account does with the bounces and complaints that come back (modules/bounces). No row:
 * the defaults (DEFAULT_BOUNCE_SETTINGS in the contract).
 */
export const bounceSettings = pgTable('bounce_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** A hard bounce (the address is bad) suppresses the address at once. */
  suppressHardBounces: boolean('suppress_hard_bounces').notNull().default(true),
  /** This many soft bounces of one address within softBounceWindowDays suppress it; 0: never. */
  softBounceLimit: integer('soft_bounce_limit').notNull().default(3),
  softBounceWindowDays: integer('soft_bounce_window_days').notNull().default(30),
  /** A complaint unsubscribes the contact (the address is suppressed either way). */
  unsubscribeOnComplaint: boolean('unsubscribe_on_complaint').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * An account's setting for one sending provider's bounce webhook (modules/bounces/providers): the SES
 * topic ARN, the SendGrid verification key, the Mailgun signing key or the Postmark secret, sealed
 * with lib/secret-box.ts like every secret the app reads back.
 */
export const bounceProviderSecrets = pgTable(
  'bounce_provider_secrets',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    secretSealed: text('secret_sealed').notNull(),
    /** The last 4 characters, shown so a person can tell which key is saved. */
    hint: text('hint').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.provider] })],
);

/**
 * How the installation's bounce mailbox (BOUNCE_IMAP_URL) fared: one row per mailbox (keyed by
 * user@host/mailbox), written by every poll, read by the Domain Settings page's status card.
 */
export const bounceMailboxStatus = pgTable('bounce_mailbox_status', {
  mailbox: text('mailbox').primaryKey(),
  lastPolledAt: timestamp('last_polled_at', { withTimezone: true }).notNull(),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  /** The last poll's failure, in words; null when it worked. */
  error: text('error'),
  processedCount: integer('processed_count').notNull().default(0),
});
