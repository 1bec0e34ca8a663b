import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { EmailBlock, EmailFont } from '@sendwell/contract/campaigns';
import { users } from './auth.ts';
import { contacts } from './contacts.ts';
import { emailSequences } from './sequences.ts';

export const campaigns = pgTable(
  'campaigns',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    subject: text('subject').notNull(),
    /** The preview text inboxes show after the subject (a hidden span at the top of the body). */
    preheader: text('preheader'),
    fromEmail: text('from_email').notNull(),
    fromName: text('from_name'),
    replyTo: text('reply_to'),
    status: text('status').notNull().default('draft'),
    contentHtml: text('content_html').notNull().default(''),
    contentText: text('content_text'),
    blocks: jsonb('blocks').$type<EmailBlock[]>(),
    listIds: integer('list_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    segmentIds: integer('segment_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
    /** The IANA time zone the campaign was scheduled in and shows its times in; null: the account's. */
    timeZone: text('time_zone'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** Set when warming caps or a complaint spike hold the send back. */
    pausedUntil: timestamp('paused_until', { withTimezone: true }),
    totalRecipients: integer('total_recipients').notNull().default(0),
    totalSent: integer('total_sent').notNull().default(0),
    totalOpens: integer('total_opens').notNull().default(0),
    totalClicks: integer('total_clicks').notNull().default(0),
    /**
     * Sends whose only opens are machine opens (a privacy proxy's or scanner's pre-fetch): kept out
     * of total_opens (human and implied opens), shown beside the open rate. A human open or a click
     * later moves the send from here to total_opens (modules/tracking, countEngagement).
     */
    machineOpens: integer('machine_opens').notNull().default(0),
    /** Sends whose only clicks are bot clicks (security scanners): kept out of total_clicks. */
    botClicks: integer('bot_clicks').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('campaigns_user_created_idx').on(t.userId, t.createdAt)],
);

/** Every link of a campaign as rendered; click tokens point at these ids, never at a URL. */
export const campaignLinks = pgTable(
  'campaign_links',
  {
    id: serial('id').primaryKey(),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
  },
  (t) => [uniqueIndex('campaign_links_campaign_url_idx').on(t.campaignId, t.url)],
);

/** The send ledger: one row per campaign recipient, marked sent only after the transport accepted it. */
export const campaignSends = pgTable(
  'campaign_sends',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    /** Kept (as null) when the contact is deleted, so sent history stays. */
    contactId: integer('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    company: text('company'),
    /** Merge values copied with the name when the audience is resolved (issue 30: {{jobTitle}}, {{location}}). */
    jobTitle: text('job_title'),
    location: text('location'),
    /** queued → sending (claimed by one worker) → sent (committed just before the message is completed) | failed | bounced | canceled */
    status: text('status').notNull().default('queued'),
    /** Which claim holds a 'sending' row; only that claim may mark it sent. */
    claimToken: text('claim_token'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    messageId: text('message_id'),
    error: text('error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('campaign_sends_campaign_contact_idx').on(t.campaignId, t.contactId),
    index('campaign_sends_campaign_status_idx').on(t.campaignId, t.status, t.id),
    // Sequences' frequency cap counts a contact's campaign emails of the last 24 hours.
    index('campaign_sends_contact_sent_idx')
      .on(t.contactId, t.sentAt)
      .where(sql`contact_id IS NOT NULL AND sent_at IS NOT NULL`),
  ],
);

/** What happened to sent mail: sent, open, click, unsubscribe, bounce, complaint. */
export const emailEvents = pgTable(
  'email_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').notNull(),
    campaignId: integer('campaign_id').references(() => campaigns.id, { onDelete: 'cascade' }),
    sendId: bigint('send_id', { mode: 'number' }),
    contactId: integer('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    type: text('type').notNull(),
    linkId: integer('link_id'),
    detail: text('detail'),
    /** For 'bounce' events: the classified reason (modules/bounces, BOUNCE_REASONS); null before it was recorded. */
    reason: text('reason'),
    /** For 'purchase' events: the order's value in cents. */
    amountCents: integer('amount_cents'),
    /**
     * For 'open' and 'click' events: made by a machine, not the reader (an open by Apple Mail's
     * privacy proxy or a pre-fetcher; a click by a security scanner). Decided when the event is
     * recorded (modules/tracking/traffic.ts); machine events count in no open or click rate.
     */
    machine: boolean('machine').notNull().default(false),
    /**
     * Events of sequence mail (open, click, unsubscribe, bounce): the sequence and its send row
     * (sequence_sends.id). campaign_id and send_id stay null on those rows, so no campaign figure
     * and no join to campaign_sends ever reads them.
     */
    sequenceId: integer('sequence_id').references(() => emailSequences.id, { onDelete: 'cascade' }),
    sequenceSendId: bigint('sequence_send_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('email_events_campaign_type_idx').on(t.campaignId, t.type, t.createdAt),
    index('email_events_contact_idx').on(t.contactId),
    // One send's opens and clicks (deciding its human / machine state as each event arrives).
    index('email_events_send_idx')
      .on(t.sendId, t.type)
      .where(sql`send_id IS NOT NULL`),
    index('email_events_user_type_idx').on(t.userId, t.type, t.createdAt),
    index('email_events_sequence_send_idx')
      .on(t.sequenceSendId, t.type, t.createdAt)
      .where(sql`sequence_send_id IS NOT NULL`),
  ],
);

/** Addresses a user must never mail again (unsubscribed, hard-bounced, complained). */
export const suppressions = pgTable(
  'suppressions',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    reason: text('reason').notNull(),
    /** The screen and the API name a row by this (the key stays user + address). */
    id: serial('id').notNull().unique(),
    /** Why, in words: a bounce's classified reason and the receiver's answer, or the soft-bounce count. */
    detail: text('detail'),
    /** The campaign whose send bounced or drew the complaint, when there was one. */
    campaignId: integer('campaign_id').references(() => campaigns.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.email] })],
);

/** Images a user uploaded; kind 'logo' ones form the Logo Library. */
export const uploadedImages = pgTable(
  'uploaded_images',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull().default('image'),
    storageKey: text('storage_key').notNull(),
    url: text('url').notNull(),
    width: integer('width'),
    height: integer('height'),
    bytes: integer('bytes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('uploaded_images_user_kind_idx').on(t.userId, t.kind)],
);

/** The built-in mail catcher (no SMTP_URL): every message the app sends, as sent, shown in the Outbox. */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    campaignId: integer('campaign_id').references(() => campaigns.id, { onDelete: 'set null' }),
    /** The sequence whose email step sent it, and that step's name as it was then. */
    sequenceId: integer('sequence_id').references(() => emailSequences.id, { onDelete: 'set null' }),
    sequenceStep: text('sequence_step'),
    messageId: text('message_id').notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    raw: text('raw').notNull(),
    isTest: integer('is_test').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('outbox_messages_user_created_idx').on(t.userId, t.createdAt)],
);

/**
 * Test mails sent from the editor, one row per recipient: they count against the plan's monthly
 * emails and an hourly limit per account.
 */
export const campaignTestSends = pgTable(
  'campaign_test_sends',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    campaignId: integer('campaign_id').references(() => campaigns.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('campaign_test_sends_user_sent_idx').on(t.userId, t.sentAt)],
);

/**
 * A campaign's content saved under a name, to start new campaigns from (the gallery's starting
 * templates ship with the app and are not stored). Blocks, or a campaign's own HTML with no blocks.
 */
export const campaignTemplates = pgTable(
  'campaign_templates',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    subject: text('subject').notNull().default(''),
    preheader: text('preheader').notNull().default(''),
    blocks: jsonb('blocks')
      .$type<EmailBlock[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    contentHtml: text('content_html').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('campaign_templates_user_created_idx').on(t.userId, t.createdAt)],
);

/**
 * An account's brand kit (issue 30 part 2): the header logo, colours, font and footer address its new
 * campaigns start with. No row: the defaults (BRAND_KIT_DEFAULTS), and new campaigns start unbranded.
 */
export const brandKits = pgTable('brand_kits', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  logoUrl: text('logo_url'),
  logoAlt: text('logo_alt').notNull().default(''),
  headerBackground: text('header_background').notNull(),
  primaryColor: text('primary_color').notNull(),
  textColor: text('text_color').notNull(),
  fontFamily: text('font_family').$type<EmailFont>().notNull(),
  address: text('address').notNull().default(''),
  applyToNew: boolean('apply_to_new').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Blocks an account saved from a campaign's canvas to reuse (issue 30 part 5), listed in the editor's palette. */
export const savedBlocks = pgTable(
  'saved_blocks',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    blocks: jsonb('blocks').$type<EmailBlock[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('saved_blocks_user_name_idx').on(t.userId, t.name)],
);
