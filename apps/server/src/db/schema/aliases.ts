import {
  bigint,
  bigserial,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { domains } from './domains.ts';

/** Raw message bytes (Postgres bytea) as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** Rule conditions and actions as stored (the contract's shapes). */
export type StoredRuleConditions = { fromDomain?: string; subjectContains?: string; hasAttachment?: boolean };
export type StoredRuleActions = {
  forwardTo: string[];
  block: boolean;
  autoReply: boolean;
  autoReplyMessage: string | null;
};

/** An address on one of the user's domains whose mail Sendwell forwards (spec part 2 §3 Email alias). */
export const emailAliases = pgTable(
  'email_aliases',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    domainId: integer('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    /** Lower-cased local part; '*' is the domain's catch-all. */
    alias: text('alias').notNull(),
    destination: text('destination'),
    forwardingType: text('forwarding_type').notNull().default('simple'),
    description: text('description'),
    autoReply: boolean('auto_reply').notNull().default(false),
    autoReplyMessage: text('auto_reply_message'),
    isActive: boolean('is_active').notNull().default(true),
    /** round_robin: how many messages were handed out so far (the next destination is this modulo their count). */
    roundRobinCursor: bigint('round_robin_cursor', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('email_aliases_domain_alias_idx').on(t.domainId, t.alias),
    index('email_aliases_user_idx').on(t.userId),
  ],
);

export const forwardingRules = pgTable(
  'forwarding_rules',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    aliasId: integer('alias_id')
      .notNull()
      .references(() => emailAliases.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    priority: integer('priority').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    conditions: jsonb('conditions').$type<StoredRuleConditions>().notNull(),
    actions: jsonb('actions').$type<StoredRuleActions>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('forwarding_rules_alias_idx').on(t.aliasId, t.priority)],
);

export const forwardingDestinations = pgTable(
  'forwarding_destinations',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    aliasId: integer('alias_id')
      .notNull()
      .references(() => emailAliases.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name'),
    weight: integer('weight').notNull().default(1),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('forwarding_destinations_alias_email_idx').on(t.aliasId, t.email)],
);

/**
 * Addresses an account forwards to, and whether each followed the link mailed to it: nothing is
 * forwarded to an address until it did. One row per account and address, for all its aliases.
 */
export const forwardAddresses = pgTable(
  'forward_addresses',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    confirmationSentAt: timestamp('confirmation_sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('forward_addresses_user_email_idx').on(t.userId, t.email)],
);

/** One message as it arrived (SMTP or webhook), stored before the sender is answered. */
export const inboundMessages = pgTable('inbound_messages', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** The Message-ID header (or one we made when it had none). */
  messageId: text('message_id').notNull(),
  mailFrom: text('mail_from').notNull(),
  via: text('via').notNull(),
  raw: bytea('raw').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** What became of an inbound message on one alias: the activity log and the stats count these. */
export const aliasMessages = pgTable(
  'alias_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    aliasId: integer('alias_id')
      .notNull()
      .references(() => emailAliases.id, { onDelete: 'cascade' }),
    inboundMessageId: bigint('inbound_message_id', { mode: 'number' })
      .notNull()
      .references(() => inboundMessages.id, { onDelete: 'cascade' }),
    messageId: text('message_id').notNull(),
    /** The envelope recipient it came for (alias@domain). */
    recipient: text('recipient').notNull(),
    fromAddress: text('from_address').notNull(),
    subject: text('subject').notNull(),
    outcome: text('outcome').notNull(),
    detail: text('detail').notNull(),
    ruleId: integer('rule_id'),
    ruleName: text('rule_name'),
    forwardedTo: jsonb('forwarded_to').$type<string[]>().notNull().default([]),
    autoReplied: boolean('auto_replied').notNull().default(false),
    isTest: boolean('is_test').notNull().default(false),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A retry of the same message to the same alias is stored (and forwarded) once.
    uniqueIndex('alias_messages_alias_message_idx').on(t.aliasId, t.messageId),
    index('alias_messages_alias_received_idx').on(t.aliasId, t.receivedAt),
  ],
);

/** The forwarding ledger: one row per message and destination, sent by a job, at most once after a 250. */
export const aliasForwards = pgTable(
  'alias_forwards',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    aliasId: integer('alias_id')
      .notNull()
      .references(() => emailAliases.id, { onDelete: 'cascade' }),
    aliasMessageId: bigint('alias_message_id', { mode: 'number' })
      .notNull()
      .references(() => aliasMessages.id, { onDelete: 'cascade' }),
    /** 'forward' or 'auto_reply'. */
    kind: text('kind').notNull(),
    toEmail: text('to_email').notNull(),
    /** pending, deferred (the plan or the warming cap), sending, sent, failed */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** The Message-ID it went out with, as the send engine's recorders mark every table of sends. */
    messageId: text('message_id'),
    error: text('error'),
    /** While 'sending': which worker claimed it, and when (a stale claim is taken over). */
    claimToken: text('claim_token'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('alias_forwards_message_kind_to_idx').on(t.aliasMessageId, t.kind, t.toEmail),
    index('alias_forwards_alias_created_idx').on(t.aliasId, t.createdAt),
    index('alias_forwards_status_idx').on(t.status, t.createdAt),
  ],
);

/** The last auto-reply per alias and sender: at most one in 7 days (RFC 3834 §2). */
export const aliasAutoReplies = pgTable(
  'alias_auto_replies',
  {
    aliasId: integer('alias_id')
      .notNull()
      .references(() => emailAliases.id, { onDelete: 'cascade' }),
    sender: text('sender').notNull(),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('alias_auto_replies_pk').on(t.aliasId, t.sender)],
);

/**
 * SRS return paths Sendwell used as the envelope sender of a forward: a bounce to one is relayed
 * to the original sender only if it is here, and only a few times.
 */
export const srsReturnPaths = pgTable('srs_return_paths', {
  address: text('address').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  originalSender: text('original_sender').notNull(),
  bouncesRelayed: integer('bounces_relayed').notNull().default(0),
  /** When a delivery report was relayed through it (at most once): counted against the account's monthly emails. */
  relayedAt: timestamp('relayed_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Auto-replies an account sent per clock hour: the hourly cap is taken with one upsert
 * (`… SET sent = sent + 1 WHERE sent < cap RETURNING`), so concurrent messages never pass it together.
 */
export const aliasAutoReplyHours = pgTable(
  'alias_auto_reply_hours',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    sent: integer('sent').notNull().default(0),
  },
  (t) => [uniqueIndex('alias_auto_reply_hours_pk').on(t.userId, t.hour)],
);
