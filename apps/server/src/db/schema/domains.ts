import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';

export const domains = pgTable(
  'domains',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Lower-case bare domain, e.g. mail.example.com. */
    domain: text('domain').notNull(),
    dkimSelector: text('dkim_selector').notNull(),
    /** PEM, AES-256-GCM encrypted with a key derived from SESSION_SECRET (iv:tag:ciphertext, base64). */
    dkimPrivateKeyEncrypted: text('dkim_private_key_encrypted').notNull(),
    dkimPublicKey: text('dkim_public_key').notNull(),
    spfRecord: text('spf_record').notNull(),
    dkimRecord: text('dkim_record').notNull(),
    dmarcRecord: text('dmarc_record').notNull(),
    /** Per-record status of the last look-up: verified, missing or wrong; with what was found. */
    spfStatus: text('spf_status').notNull().default('missing'),
    dkimStatus: text('dkim_status').notNull().default('missing'),
    dmarcStatus: text('dmarc_status').notNull().default('missing'),
    spfFound: text('spf_found'),
    dkimFound: text('dkim_found'),
    dmarcFound: text('dmarc_found'),
    /** The optional return path bounces.<domain>: its MX (at INBOUND_MX_HOST) and SPF records, checked like the others. */
    bounceMxStatus: text('bounce_mx_status').notNull().default('missing'),
    bounceMxFound: text('bounce_mx_found'),
    bounceSpfStatus: text('bounce_spf_status').notNull().default('missing'),
    bounceSpfFound: text('bounce_spf_found'),
    isVerified: boolean('is_verified').notNull().default(false),
    isPrimary: boolean('is_primary').notNull().default(false),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    /** When warming started: the first time the domain was verified. */
    warmingStartedAt: timestamp('warming_started_at', { withTimezone: true }),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('domains_user_domain_idx').on(t.userId, t.domain),
    index('domains_check_idx').on(t.isVerified, t.lastCheckedAt),
  ],
);

export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** An in-app path the notification points to, e.g. /domain-settings. */
    link: text('link'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notifications_user_created_idx').on(t.userId, t.createdAt)],
);

/** Daily sending counts per domain, for warming caps and reputation. */
export const domainDailySends = pgTable(
  'domain_daily_sends',
  {
    domainId: integer('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    sent: integer('sent').notNull().default(0),
  },
  (t) => [uniqueIndex('domain_daily_sends_pk').on(t.domainId, t.day)],
);
