import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
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
import type { FlowData, TriggerConfig } from '@sendwell/contract/sequences';
import { users } from './auth.ts';
import { contacts } from './contacts.ts';

/** An email sequence (spec part 2 §3); flow_data is its published version's flow. */
export const emailSequences = pgTable(
  'email_sequences',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    /** draft | active | paused: only an active sequence's enrolments advance. */
    status: text('status').notNull().default('draft'),
    triggerType: text('trigger_type').notNull().default('signup'),
    triggerConfig: jsonb('trigger_config').$type<TriggerConfig>().notNull().default({}),
    /** once | every_time | cooldown (reentry_cooldown_hours after the last entry). */
    reentry: text('reentry').notNull().default('once'),
    reentryCooldownHours: integer('reentry_cooldown_hours'),
    /**
     * The join triggers (signup, segment_joined) have enrolled the joiners up to this moment (set at activation, so only
     * contacts who join the list or segment after it enter).
     */
    triggerCheckedAt: timestamp('trigger_checked_at', { withTimezone: true }),
    fromEmail: text('from_email'),
    fromName: text('from_name'),
    /** The published version: flow_data equals email_sequence_versions' row of this number. */
    version: integer('version').notNull().default(1),
    flowData: jsonb('flow_data').$type<FlowData>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('email_sequences_user_idx').on(t.userId, t.createdAt)],
);

/** Every published flow of a sequence: enrolments that started on an older one finish on it. */
export const emailSequenceVersions = pgTable(
  'email_sequence_versions',
  {
    sequenceId: integer('sequence_id')
      .notNull()
      .references(() => emailSequences.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    flowData: jsonb('flow_data').$type<FlowData>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.sequenceId, t.version] })],
);

/**
 * One contact's way through one sequence: where it is (current_node_id of `version`), whether it is
 * still moving (state), and when it is next due (next_run_at). The advancer claims due rows with
 * FOR UPDATE SKIP LOCKED, so any number of workers share them.
 */
export const sequenceEnrolments = pgTable(
  'sequence_enrolments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').notNull(),
    sequenceId: integer('sequence_id')
      .notNull()
      .references(() => emailSequences.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    currentNodeId: text('current_node_id').notNull(),
    /** active → completed (reached the end) | exited (unsubscribed, bounced, complained, replied, removed) */
    state: text('state').notNull().default('active'),
    exitReason: text('exit_reason'),
    /** When the current node is due; null while nothing is due. */
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    /** How many steps it has taken: numbers its step sends, so a node visited twice (a loop) sends twice, never a step twice. */
    stepCount: integer('step_count').notNull().default(0),
    enteredAt: timestamp('entered_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    // The advancer's scan: only rows still moving, in due order.
    index('sequence_enrolments_due_idx')
      .on(t.nextRunAt)
      .where(sql`state = 'active'`),
    index('sequence_enrolments_sequence_idx').on(t.sequenceId, t.state),
    index('sequence_enrolments_contact_idx').on(t.contactId),
    // A contact is at most once in flight per sequence, whatever the re-entry rule and however many enrol at once.
    uniqueIndex('sequence_enrolments_one_active_idx')
      .on(t.sequenceId, t.contactId)
      .where(sql`state = 'active'`),
  ],
);

/** The send ledger of email steps: one row per (enrolment, step), so a step never sends twice. */
export const sequenceSends = pgTable(
  'sequence_sends',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').notNull(),
    sequenceId: integer('sequence_id')
      .notNull()
      .references(() => emailSequences.id, { onDelete: 'cascade' }),
    /** Kept (as null) when the enrolment goes with its contact, so sent history stays. */
    enrolmentId: bigint('enrolment_id', { mode: 'number' }).references(() => sequenceEnrolments.id, {
      onDelete: 'set null',
    }),
    /** The enrolment's step_count when it reached this email node. */
    step: integer('step').notNull(),
    nodeId: text('node_id').notNull(),
    contactId: integer('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    /** queued → sending (claimed) → sent | failed | suppressed */
    status: text('status').notNull().default('queued'),
    claimToken: text('claim_token'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    messageId: text('message_id'),
    error: text('error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    openedAt: timestamp('opened_at', { withTimezone: true }),
    clickedAt: timestamp('clicked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The domain warming slot this claim holds (domain and UTC day), set while the row is claimed:
     * the recovery of a dead claim hands the slot back with the row (sequence-batch.ts).
     */
    warmingDomainId: integer('warming_domain_id'),
    warmingDay: text('warming_day'),
  },
  (t) => [
    uniqueIndex('sequence_sends_enrolment_step_idx').on(t.enrolmentId, t.step),
    // The frequency cap counts a contact's sequence emails of the last 24 hours.
    index('sequence_sends_contact_claimed_idx')
      .on(t.contactId, t.claimedAt)
      .where(sql`contact_id IS NOT NULL`),
    index('sequence_sends_sequence_node_idx').on(t.sequenceId, t.nodeId),
    index('sequence_sends_status_idx').on(t.status, t.id),
    // A reply names the message it answers (In-Reply-To / References): found within its account.
    index('sequence_sends_message_id_idx')
      .on(t.userId, t.messageId)
      .where(sql`message_id IS NOT NULL`),
  ],
);

/**
 * What the advancer saw at each node, for the per-step funnel: enrolments that arrived there, and
 * how many a condition sent down its else branch (kept as counters because no row remembers a
 * node an enrolment has left). Summed over versions: a node keeps its id across versions.
 */
export const sequenceNodeStats = pgTable(
  'sequence_node_stats',
  {
    sequenceId: integer('sequence_id')
      .notNull()
      .references(() => emailSequences.id, { onDelete: 'cascade' }),
    nodeId: text('node_id').notNull(),
    entered: integer('entered').notNull().default(0),
    branchedElse: integer('branched_else').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.sequenceId, t.nodeId] })],
);

/**
 * When a tag was added to a contact, for the tag_added trigger (polled like the list and segment
 * joins). Written by a statement-level trigger on contacts (migration 0023), so every writer of
 * tags (the contact form, bulk tagging, imports, lead capture, the API) records it without knowing
 * of sequences; only for accounts with an active tag_added sequence, so imports of everyone else
 * write nothing here. `tag` is lower-cased (tags match without regard to case).
 */
export const contactTagAdditions = pgTable(
  'contact_tag_additions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // No foreign key: a bulk delete of contacts would check this table row by row. Rows of a deleted
    // contact are inert (the trigger's query joins contacts) and contact ids are never reused.
    contactId: integer('contact_id').notNull(),
    tag: text('tag').notNull(),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('contact_tag_additions_user_tag_idx').on(t.userId, t.tag, t.addedAt)],
);

/**
 * An account's sequence settings (GET/PUT /api/sequence-settings). No row: the defaults
 * (DEFAULT_SEQUENCE_SETTINGS in the contract).
 */
export const sequenceSettings = pgTable('sequence_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Marketing emails (sequence and campaign) after which a contact's sequence emails wait, per 24 hours. */
  maxEmailsPerContactPerDay: integer('max_emails_per_contact_per_day').notNull().default(3),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
