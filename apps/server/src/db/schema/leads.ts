import { sql } from 'drizzle-orm';
import {
  boolean,
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

/**
 * Where an account's leads come from (spec part 2 §3 "Lead source"). Its API key, when the type
 * needs one (places, enrichment), is stored sealed (lib/secret-box.ts) and never answered back.
 */
export const leadSources = pgTable(
  'lead_sources',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** form | places | enrichment | webhook | csv | sample (contract leadSourceTypes). */
    type: text('type').notNull(),
    /** The provider a places or enrichment source searches: google | yelp | hunter; null otherwise. */
    provider: text('provider'),
    isActive: boolean('is_active').notNull().default(true),
    /** A form's public address /f/:slug (unguessable, from lib/tokens.ts); null for other types. */
    slug: text('slug'),
    /** Settings the type needs that are not secret (a form's consent text, a CSV list's lawful basis). */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    /** The account's own API key for the provider, sealed for purpose 'lead-source-key'. */
    apiKeySealed: text('api_key_sealed'),
    /** The key's last four characters, so the account can tell which key is stored. */
    apiKeyHint: text('api_key_hint'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('lead_sources_user_idx').on(t.userId, t.id), uniqueIndex('lead_sources_slug_idx').on(t.slug)],
);

/** A named group of leads (spec part 2 §3 "Lead campaign"); its counts are computed from its leads' statuses. */
export const leadCampaigns = pgTable(
  'lead_campaigns',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('lead_campaigns_user_idx').on(t.userId, t.id)],
);

/** What a lead's consent record keeps: when and where the person agreed, and to exactly which words. */
export type LeadConsentRecord = {
  /** When the form was submitted (ISO). */
  submittedAt: string;
  ip: string | null;
  formVersion: number;
  /** The consent text the form showed, word for word. */
  text: string;
  /** When the person followed the double opt-in link (ISO), or null for a single opt-in form. */
  confirmedAt: string | null;
};

/**
 * A person or business that may become a contact (spec part 2 §3 "Lead"). A lead is never sent to:
 * it becomes sendable only when converted into a contact, which needs a consent record or a
 * recorded lawful basis, and is refused for sample (demo) leads.
 */
export const leads = pgTable(
  'leads',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sourceId: integer('source_id').references(() => leadSources.id, { onDelete: 'set null' }),
    campaignId: integer('campaign_id').references(() => leadCampaigns.id, { onDelete: 'set null' }),
    /** Lower-cased; null for a business found without a published address. */
    email: text('email'),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    company: text('company'),
    jobTitle: text('job_title'),
    location: text('location'),
    phone: text('phone'),
    website: text('website'),
    score: integer('score').notNull().default(0),
    /** new | contacted | qualified | converted | lost */
    status: text('status').notNull().default('new'),
    tags: text('tags').array().notNull().default([]),
    /** Spec §3's metadata: { source, foundAt } and what the source found (provider ids, categories). */
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    notes: text('notes'),
    /** Why the account may mail this person when it has no consent record: consent | legitimate_interest | contract. */
    lawfulBasis: text('lawful_basis'),
    consent: jsonb('consent').$type<LeadConsentRecord>(),
    /** Demo directory leads: badged everywhere, never converted into a contact. */
    isSample: boolean('is_sample').notNull().default(false),
    /** The contact the lead was converted into. */
    contactId: integer('contact_id'),
    /**
     * Keys of the business a generated lead belongs to (place:google:<id>, place:yelp:<id>,
     * web:<domain>, name:<name>|<street>): a business found again, by any key, is a duplicate.
     */
    businessKeys: text('business_keys').array().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // De-duplication by email: one lead per address per account.
    uniqueIndex('leads_user_email_idx')
      .on(t.userId, t.email)
      .where(sql`${t.email} IS NOT NULL`),
    index('leads_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('leads_source_idx').on(t.sourceId),
    index('leads_campaign_idx').on(t.campaignId),
    index('leads_business_keys_idx').using('gin', t.businessKeys),
  ],
);

/**
 * A submission of a hosted form waiting for its double opt-in: the lead is stored only once the
 * person follows the link mailed to the address, so nobody becomes a lead by someone else typing
 * their address. Keeps what the consent record needs (IP, form version, the exact words shown).
 */
export const leadFormSubmissions = pgTable(
  'lead_form_submissions',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sourceId: integer('source_id')
      .notNull()
      .references(() => leadSources.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    company: text('company'),
    ip: text('ip'),
    formVersion: integer('form_version').notNull(),
    consentText: text('consent_text').notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the confirmation mail went (the job that sends it runs once per submission). */
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    leadId: integer('lead_id'),
  },
  (t) => [index('lead_form_submissions_source_idx').on(t.sourceId, t.submittedAt)],
);

/** One platform's part of a generation run, as the run keeps it (contract leadGenerationPlatformSchema). */
export type LeadGenerationPlatformProgress = {
  platform: string;
  state: 'pending' | 'searched' | 'skipped' | 'failed';
  found: number;
  created: number;
  reason: string | null;
};

/**
 * A run of POST /api/leads/generate: what was asked, each platform's progress, and the counts. One
 * pg-boss job works it; the screen polls it by its id.
 */
export const leadGenerationRuns = pgTable(
  'lead_generation_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    profession: text('profession').notNull(),
    location: text('location').notNull(),
    /** queued | running | done | failed */
    state: text('state').notNull().default('queued'),
    platforms: jsonb('platforms').$type<LeadGenerationPlatformProgress[]>().notNull(),
    /** What the enrichment source did during the run (lookups, addresses found, why it stopped). */
    enrichment: jsonb('enrichment').$type<Record<string, unknown>>(),
    created: integer('created').notNull().default(0),
    duplicates: integer('duplicates').notNull().default(0),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('lead_generation_runs_user_idx').on(t.userId, t.createdAt)],
);

/**
 * Signatures of webhook deliveries already accepted, kept a little longer than the timestamp
 * tolerance: a delivery sent again (same signature) within the tolerance is refused as a replay.
 */
export const leadWebhookDeliveries = pgTable(
  'lead_webhook_deliveries',
  {
    sourceId: integer('source_id')
      .notNull()
      .references(() => leadSources.id, { onDelete: 'cascade' }),
    signature: text('signature').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('lead_webhook_deliveries_idx').on(t.sourceId, t.signature)],
);
