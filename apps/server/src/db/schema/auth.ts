import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const users = pgTable('users', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  company: text('company').notNull().default(''),
  postalAddress: text('postal_address').notNull().default(''),
  profileImageUrl: text('profile_image_url'),
  plan: text('plan').notNull().default('pro'),
  subscriptionStatus: text('subscription_status'),
  trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }),
  /** The account's Stripe customer, created at its first checkout. */
  stripeCustomerId: text('stripe_customer_id').unique(),
  /** The Stripe subscription plan and status were last read from. */
  stripeSubscriptionId: text('stripe_subscription_id'),
  /** When the plan and status were last read from Stripe; an older reading never overwrites a newer one. */
  billingSyncedAt: timestamp('billing_synced_at', { withTimezone: true }),
  /** When the subscription became past_due (cleared when it is paid): sending stops after a grace period. */
  pastDueSince: timestamp('past_due_since', { withTimezone: true }),
  /** Set once a Stripe subscription of the account had a trial: checkout offers the trial only once. */
  stripeTrialUsed: boolean('stripe_trial_used').notNull().default(false),
  /** Set by `npm run admin -- grant-unlimited EMAIL`: the account may activate the Unlimited plan. */
  unlimitedGrantedAt: timestamp('unlimited_granted_at', { withTimezone: true }),
  /** Requests per second each of the account's API keys may make (RateLimit-* headers, 429 beyond). */
  apiRequestsPerSecond: integer('api_requests_per_second').notNull().default(10),
  passwordChangeRequired: boolean('password_change_required').notNull().default(false),
  /** Set while the password is an admin-issued temporary one; after it, that password no longer logs in. */
  temporaryPasswordExpiresAt: timestamp('temporary_password_expires_at', { withTimezone: true }),
  /** When the owner followed the link mailed to `email`; until then the account sends nothing. */
  emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
  /** When the last confirmation link went out, so a resend can wait its turn. */
  emailConfirmationSentAt: timestamp('email_confirmation_sent_at', { withTimezone: true }),
  /** The account's IANA time zone: schedules are read and times shown in it unless a campaign picks its own. */
  timeZone: text('time_zone').notNull().default('UTC'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the cookie's token, so a leaked table cannot be replayed as cookies. */
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), index('sessions_expires_at_idx').on(t.expiresAt)],
);

/**
 * Sign-in attempts per account and client address since the last success there: the first few run
 * at once, then each must wait until nextAttemptAt (a growing delay). Keyed by both, so failures
 * from one address never slow the owner down at another.
 */
export const loginThrottles = pgTable(
  'login_throttles',
  {
    email: text('email').notNull(),
    /** The client address (IPv6 by its /64), as the rate limits see it. */
    client: text('client').notNull(),
    /** Attempts let through since the last success (counted before their password check). */
    attempts: integer('attempts').notNull(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }).notNull(),
    /** The next attempt is refused before this; null while attempts are free. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.email, t.client] }),
    index('login_throttles_last_attempt_at_idx').on(t.lastAttemptAt),
  ],
);
