import { z } from 'zod';
import { rowIdSchema } from './common.ts';
import { contactEmailSchema, tagsSchema } from './contacts.ts';

/** Spec part 2 §9: Recent Leads shows at most 10. */
export const RECENT_LEADS_SHOWN = 10;
/** Spec part 2 §5: location is optional and defaults to this. */
export const DEFAULT_LEAD_LOCATION = 'United States';

export const LEAD_SOURCE_CREATED = 'Lead source created successfully';
export const LEAD_SOURCE_CREATE_FAILED = 'Failed to create lead source';

/** What a lead source is. Each type finds leads differently; none invents people. */
export const leadSourceTypes = ['form', 'places', 'enrichment', 'webhook', 'csv', 'sample'] as const;
export const leadSourceTypeSchema = z.enum(leadSourceTypes, { error: 'Choose a source type' });
export type LeadSourceType = z.infer<typeof leadSourceTypeSchema>;

/** The providers searched with the account's own key: Google Places and Yelp for businesses, Hunter for addresses. */
export const placesProviders = ['google', 'yelp'] as const;
export const leadProviders = [...placesProviders, 'hunter'] as const;
export type LeadProvider = (typeof leadProviders)[number];

/** Why the account may mail a lead with no consent record (GDPR Art. 6(1) bases that fit marketing). */
export const lawfulBases = ['consent', 'legitimate_interest', 'contract'] as const;
export const lawfulBasisSchema = z.enum(lawfulBases, { error: 'Choose a lawful basis' });
export type LawfulBasis = z.infer<typeof lawfulBasisSchema>;

/** Spec §4: a lead moves new → contacted → qualified → converted or lost. */
export const leadStatuses = ['new', 'contacted', 'qualified', 'converted', 'lost'] as const;
export const leadStatusSchema = z.enum(leadStatuses, { error: 'Unknown lead status' });
export type LeadStatus = z.infer<typeof leadStatusSchema>;

/**
 * The statuses a lead may move to by PATCH from each status. 'converted' is reached only by adding
 * the lead to a contact list (POST /api/leads/:id/convert), so a converted lead always has its contact.
 */
export const leadStatusMoves: Record<LeadStatus, readonly LeadStatus[]> = {
  new: ['contacted', 'lost'],
  contacted: ['qualified', 'lost'],
  qualified: ['lost'],
  converted: [],
  lost: [],
};

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`);

const optionalText = (label: string, max: number) =>
  text(label, max)
    .nullish()
    .transform((value) => (value ? value : null));

const sourceName = text('Name', 100).min(1, 'Name is required');
const apiKey = z
  .string({ error: 'API key is required' })
  .trim()
  .min(1, 'API key is required')
  .max(500, 'API key must be at most 500 characters');

export const DEFAULT_CONSENT_TEXT =
  'I agree to receive emails from this sender. I can unsubscribe at any time with the link in every email.';

/** POST /api/lead-sources: one form per type. */
export const createLeadSourceBodySchema = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('form'),
      name: sourceName,
      /** The consent text the hosted page shows beside its button, stored word for word with each lead. */
      consentText: text('Consent text', 1000).min(1, 'Consent text is required').default(DEFAULT_CONSENT_TEXT),
      /** Double opt-in (a confirmation mail with a link) unless turned off. */
      doubleOptIn: z.boolean({ error: 'doubleOptIn must be true or false' }).default(true),
    }),
    z.object({
      type: z.literal('places'),
      name: sourceName,
      provider: z.enum(placesProviders, { error: 'Choose Google Places or Yelp' }),
      apiKey: apiKey.optional(),
    }),
    z.object({ type: z.literal('enrichment'), name: sourceName, apiKey: apiKey.optional() }),
    z.object({ type: z.literal('webhook'), name: sourceName }),
    z.object({
      type: z.literal('csv'),
      name: sourceName,
      /** Where the list came from (an event sign-up sheet, a CRM export). */
      origin: text('Origin', 500).min(1, 'Say where the list comes from'),
      lawfulBasis: lawfulBasisSchema,
    }),
    z.object({ type: z.literal('sample'), name: sourceName }),
  ],
  { error: 'Choose a source type' },
);
export type CreateLeadSourceBody = z.input<typeof createLeadSourceBodySchema>;

/** PATCH /api/lead-sources/:id: the fields any type may change; apiKey null disconnects. */
export const updateLeadSourceBodySchema = z.object({
  name: sourceName.optional(),
  isActive: z.boolean({ error: 'isActive must be true or false' }).optional(),
  apiKey: apiKey.nullable().optional(),
  consentText: text('Consent text', 1000).min(1, 'Consent text is required').optional(),
  doubleOptIn: z.boolean({ error: 'doubleOptIn must be true or false' }).optional(),
});
export type UpdateLeadSourceBody = z.input<typeof updateLeadSourceBodySchema>;

/** A lead source as the API answers it (spec §3 plus what the screen needs to say what it can do). */
export const leadSourceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: leadSourceTypeSchema,
  provider: z.enum(leadProviders).nullable(),
  totalLeads: z.number().int(),
  isActive: z.boolean(),
  /** Whether the source can run: a key-based source without a key shows 'Not connected'. */
  connected: z.boolean(),
  /** The stored key's last four characters; the key itself is never answered. */
  apiKeyHint: z.string().nullable(),
  /** Non-secret settings of the type: form {slug, version, consentText, doubleOptIn}; csv {origin, lawfulBasis}. */
  settings: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type LeadSource = z.infer<typeof leadSourceSchema>;
export const leadSourcesResponseSchema = z.array(leadSourceSchema);

/** A consent record (see the leads table): when, from where, which form version, the exact words. */
export const leadConsentSchema = z.object({
  submittedAt: z.string(),
  ip: z.string().nullable(),
  formVersion: z.number().int(),
  text: z.string(),
  confirmedAt: z.string().nullable(),
});
export type LeadConsent = z.infer<typeof leadConsentSchema>;

export const leadMetadataSchema = z.looseObject({
  source: z.string().optional(),
  foundAt: z.string().optional(),
});

/** A lead as the API answers it (spec part 2 §3 plus its consent, lawful basis and contact). */
export const leadSchema = z.object({
  id: z.number().int(),
  email: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  company: z.string().nullable(),
  jobTitle: z.string().nullable(),
  location: z.string().nullable(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
  score: z.number().int(),
  status: leadStatusSchema,
  tags: z.array(z.string()),
  metadata: leadMetadataSchema,
  notes: z.string().nullable(),
  sourceId: z.number().int().nullable(),
  campaignId: z.number().int().nullable(),
  lawfulBasis: lawfulBasisSchema.nullable(),
  consent: leadConsentSchema.nullable(),
  isSample: z.boolean(),
  contactId: z.number().int().nullable(),
  createdAt: z.string(),
});
export type Lead = z.infer<typeof leadSchema>;
export const leadsResponseSchema = z.array(leadSchema);

const isoTimestamp = z.iso.datetime({ offset: true, error: 'foundAt must be an ISO timestamp' });

/**
 * POST /api/leads: one lead added by hand (spec §7's fields). The score is computed by the server
 * from the lead's data (see the scoring formula), and status can only be 'new' (spec §4).
 */
export const createLeadBodySchema = z.object({
  email: contactEmailSchema,
  firstName: text('First name', 100).default(''),
  lastName: text('Last name', 100).default(''),
  company: optionalText('Company', 200),
  jobTitle: optionalText('Job title', 200),
  location: optionalText('Location', 200),
  phone: optionalText('Phone', 50),
  website: optionalText('Website', 500),
  /** Accepted for the spec's client, which sends one; the stored score is always the server's. */
  score: z.number({ error: 'Score must be a number' }).int('Score must be a whole number').min(0).max(100).optional(),
  status: z.literal('new', { error: "A new lead's status is 'new'" }).optional(),
  tags: tagsSchema.optional(),
  metadata: z
    .object({
      source: text('Source', 100).optional(),
      foundAt: isoTimestamp.optional(),
    })
    .optional(),
  notes: optionalText('Notes', 5000),
  lawfulBasis: lawfulBasisSchema.nullish(),
  sourceId: rowIdSchema('sourceId must be a lead source id').nullish(),
  campaignId: rowIdSchema('campaignId must be a lead campaign id').nullish(),
});
export type CreateLeadBody = z.input<typeof createLeadBodySchema>;

/** PATCH /api/leads/:id: status along leadStatusMoves, notes, lawful basis, campaign. */
export const updateLeadBodySchema = z.object({
  status: leadStatusSchema.optional(),
  notes: optionalText('Notes', 5000).optional(),
  lawfulBasis: lawfulBasisSchema.nullable().optional(),
  campaignId: rowIdSchema('campaignId must be a lead campaign id').nullable().optional(),
});
export type UpdateLeadBody = z.input<typeof updateLeadBodySchema>;

/** POST /api/leads/:id/convert: add the lead to a contact list (creating or updating its contact). */
export const convertLeadBodySchema = z.object({ listId: rowIdSchema('Choose a contact list') });
export type ConvertLeadBody = z.input<typeof convertLeadBodySchema>;
export const convertLeadResultSchema = z.object({
  lead: leadSchema,
  contactId: z.number().int(),
  /** False when a contact with the lead's email existed and was updated. */
  createdContact: z.boolean(),
});
export type ConvertLeadResult = z.infer<typeof convertLeadResultSchema>;

/** POST /api/lead-campaigns */
export const createLeadCampaignBodySchema = z.object({
  name: text('Name', 100).min(1, 'Name is required'),
  description: optionalText('Description', 1000),
});
export type CreateLeadCampaignBody = z.input<typeof createLeadCampaignBodySchema>;

/** A lead campaign (spec §3); the counts come from its leads' statuses. */
export const leadCampaignSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  totalLeads: z.number().int(),
  /** Leads that reached qualified: status qualified or converted. */
  qualifiedLeads: z.number().int(),
  convertedLeads: z.number().int(),
  status: z.string(),
  createdAt: z.string(),
});
export type LeadCampaign = z.infer<typeof leadCampaignSchema>;
export const leadCampaignsResponseSchema = z.array(leadCampaignSchema);

/** POST /f/:slug: what a hosted form posts (form-encoded). `website` is the honeypot, hidden from people. */
export const formSubmissionSchema = z.object({
  email: contactEmailSchema,
  firstName: text('First name', 100).default(''),
  lastName: text('Last name', 100).default(''),
  company: optionalText('Company', 200),
});
export type FormSubmission = z.output<typeof formSubmissionSchema>;

/** `/f/:slug`: a form's public address. */
export const formSlugParamsSchema = z.object({
  slug: z.string().regex(/^[\w-]{1,64}$/, 'Not found'),
});

/** The snippet a site pastes to post to a hosted form (the honeypot stays hidden from people). */
export function formEmbedSnippet(formUrl: string, consentText: string): string {
  const escape = (value: string) =>
    value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
  return [
    `<form action="${escape(formUrl)}" method="post">`,
    '  <label>Email <input type="email" name="email" required></label>',
    '  <label>First name <input name="firstName"></label>',
    '  <label>Last name <input name="lastName"></label>',
    '  <label>Company <input name="company"></label>',
    '  <div style="position:absolute;left:-10000px" aria-hidden="true"><input name="website" tabindex="-1" autocomplete="off"></div>',
    `  <p>${escape(consentText)}</p>`,
    '  <button type="submit">Subscribe</button>',
    '</form>',
  ].join('\n');
}

/** GET /api/lead-sources/:id/credits: what an enrichment source's Hunter key has left, read before spending any. */
export const leadSourceCreditsSchema = z.object({
  used: z.number().int(),
  available: z.number().int(),
});
export type LeadSourceCredits = z.infer<typeof leadSourceCreditsSchema>;

// ---------------------------------------------------------------------------------------------
// Generating leads (spec part 2 §2 Lead Generation, §3 Platform catalogue and Profession list, §9)

/** Spec §3's 25 professions, in its order. */
export const professions = [
  'Real Estate Agent',
  'Marketing Consultant',
  'Software Developer',
  'Graphic Designer',
  'Personal Trainer',
  'Accountant',
  'Lawyer',
  'Doctor',
  'Dentist',
  'Photographer',
  'Wedding Planner',
  'Interior Designer',
  'Architect',
  'Life Coach',
  'Nutritionist',
  'Financial Advisor',
  'Insurance Agent',
  'Contractor',
  'Plumber',
  'Electrician',
  'Hair Stylist',
  'Massage Therapist',
  'Chiropractor',
  'Veterinarian',
  'Restaurant Owner',
] as const;
export type Profession = (typeof professions)[number];

/**
 * What a catalogue platform can do here, and the words its card shows. Only Google Places and Yelp
 * offer a public business search; LinkedIn, Facebook Lead Ads and Thumbtack let a business export
 * its own leads; the rest offer no API a small business may use for this.
 */
export const platformCapabilities = ['api_key', 'csv', 'none'] as const;
export type PlatformCapability = (typeof platformCapabilities)[number];
export const platformCapabilityText: Record<PlatformCapability, string> = {
  api_key: 'Connect with your API key',
  csv: 'Import a CSV export',
  none: 'No public API',
};

export const leadPlatformIds = [
  'linkedin',
  'facebook',
  'instagram',
  'twitter',
  'tiktok',
  'google',
  'yelp',
  'yellowpages',
  'zillow',
  'realtor',
  'reddit',
  'quora',
  'upwork',
  'medium',
  'thumbtack',
] as const;
export type LeadPlatformId = (typeof leadPlatformIds)[number];

export interface LeadPlatform {
  id: LeadPlatformId;
  name: string;
  /** Spec §3's estimate, used only for the expected-leads line (§9), never shown as a result. */
  estimatedLeads: number;
  capability: PlatformCapability;
  /** For api_key platforms: the places provider a connected source of this account must use. */
  provider: (typeof placesProviders)[number] | null;
}

/** Spec §3's catalogue, in its order (15 platforms). */
export const leadPlatforms: readonly LeadPlatform[] = [
  { id: 'linkedin', name: 'LinkedIn', estimatedLeads: 50, capability: 'csv', provider: null },
  { id: 'facebook', name: 'Facebook', estimatedLeads: 35, capability: 'csv', provider: null },
  { id: 'instagram', name: 'Instagram', estimatedLeads: 25, capability: 'none', provider: null },
  { id: 'twitter', name: 'Twitter/X', estimatedLeads: 30, capability: 'none', provider: null },
  { id: 'tiktok', name: 'TikTok', estimatedLeads: 20, capability: 'none', provider: null },
  { id: 'google', name: 'Google Business', estimatedLeads: 40, capability: 'api_key', provider: 'google' },
  { id: 'yelp', name: 'Yelp', estimatedLeads: 35, capability: 'api_key', provider: 'yelp' },
  { id: 'yellowpages', name: 'Yellow Pages', estimatedLeads: 25, capability: 'none', provider: null },
  { id: 'zillow', name: 'Zillow', estimatedLeads: 30, capability: 'none', provider: null },
  { id: 'realtor', name: 'Realtor.com', estimatedLeads: 28, capability: 'none', provider: null },
  { id: 'reddit', name: 'Reddit', estimatedLeads: 20, capability: 'none', provider: null },
  { id: 'quora', name: 'Quora', estimatedLeads: 15, capability: 'none', provider: null },
  { id: 'upwork', name: 'Upwork', estimatedLeads: 18, capability: 'none', provider: null },
  { id: 'medium', name: 'Medium', estimatedLeads: 12, capability: 'none', provider: null },
  { id: 'thumbtack', name: 'Thumbtack', estimatedLeads: 22, capability: 'csv', provider: null },
];

/** Spec §9: the expected-leads line shows the unrounded sum; the estimate is that sum × 0.8 rounded down. */
export function expectedLeads(platformIds: readonly LeadPlatformId[]): { sum: number; expected: number } {
  const sum = leadPlatforms.filter((p) => platformIds.includes(p.id)).reduce((total, p) => total + p.estimatedLeads, 0);
  return { sum, expected: Math.floor(sum * 0.8) };
}

export const GENERATE_LEADS_REQUIRED = 'Please select a profession and at least one source';
export const GENERATE_LEADS_FAILED = 'Failed to generate leads';
export function generatedLeadsMessage(count: number): string {
  return `Generated ${count} new leads successfully`;
}

/** POST /api/leads/generate: runs the selected platforms' connected sources as one job. */
export const generateLeadsBodySchema = z.object({
  profession: z.enum(professions, { error: GENERATE_LEADS_REQUIRED }),
  location: text('Location', 200)
    .nullish()
    .transform((value) => value || DEFAULT_LEAD_LOCATION),
  platforms: z
    .array(z.enum(leadPlatformIds, { error: 'Unknown platform' }), { error: GENERATE_LEADS_REQUIRED })
    .min(1, GENERATE_LEADS_REQUIRED)
    .max(leadPlatformIds.length, GENERATE_LEADS_REQUIRED)
    .transform((ids) => [...new Set(ids)]),
});
export type GenerateLeadsBody = z.infer<typeof generateLeadsBodySchema>;

export const leadGenerationStates = ['queued', 'running', 'done', 'failed'] as const;
export type LeadGenerationState = (typeof leadGenerationStates)[number];

/** One platform's part of a run: searched (with what it found) or skipped with the reason shown to the user. */
export const leadGenerationPlatformSchema = z.object({
  platform: z.enum(leadPlatformIds),
  state: z.enum(['pending', 'searched', 'skipped', 'failed']),
  found: z.number().int(),
  created: z.number().int(),
  /** Why it could not search ('No public API', 'Not connected', 'API key rejected', 'Rate limited, try later'…). */
  reason: z.string().nullable(),
});

/** 202 from POST /api/leads/generate and GET /api/leads/generate/:id (polled for progress). */
export const leadGenerationRunSchema = z.object({
  id: z.string(),
  state: z.enum(leadGenerationStates),
  profession: z.enum(professions),
  location: z.string(),
  /** Platforms finished out of those selected, for the progress bar. */
  progress: z.object({ done: z.number().int(), total: z.number().int() }),
  platforms: z.array(leadGenerationPlatformSchema),
  /** New leads stored (after de-duplication): the N of 'Generated N new leads successfully'. */
  created: z.number().int(),
  /** Found but already known (same email or same business). */
  duplicates: z.number().int(),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type LeadGenerationRun = z.infer<typeof leadGenerationRunSchema>;

/** GET /api/leads/generate/:id: a run's id (a UUID). */
export const leadGenerationRunParamsSchema = z.object({
  id: z.uuid({ error: 'Not a lead generation run id' }),
});

/**
 * What the account's enrichment (Hunter) source did during a run: 'off' without an active connected
 * source; 'done' when it looked up what it could; 'stopped' when the key was refused, rate limited
 * or out of credits (reason says which). Additive to the run above; the screen may show it.
 */
export const leadGenerationEnrichmentSchema = z.object({
  state: z.enum(['off', 'done', 'stopped']),
  /** Domain searches spent (each costs one Hunter credit). */
  lookups: z.number().int(),
  /** Published addresses found. */
  found: z.number().int(),
  /** Addresses refused by their domain's DNS (null MX: the domain says it takes no mail). */
  rejected: z.number().int(),
  reason: z.string().nullable(),
});
export const leadGenerationRunResponseSchema = leadGenerationRunSchema.extend({
  enrichment: leadGenerationEnrichmentSchema,
});
export type LeadGenerationRunResponse = z.infer<typeof leadGenerationRunResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Sample, webhook and CSV sources

export const SAMPLE_LEADS_COUNT = 10;
/** The label every sample lead carries (company suffix, tag, metadata.source): the screen badges it. */
export const SAMPLE_DATA_LABEL = 'Sample data';

/** POST /api/lead-sources/:id/sample-leads: loads the demo directory's businesses for a profession and location. */
export const sampleLeadsBodySchema = z.object({
  profession: z.enum(professions, { error: 'Choose a profession' }),
  location: text('Location', 200)
    .nullish()
    .transform((value) => value || DEFAULT_LEAD_LOCATION),
});
export type SampleLeadsBody = z.input<typeof sampleLeadsBodySchema>;

/** What loading leads (sample, webhook, CSV) did: stored, already known, refused rows. */
export const leadsLoadedSchema = z.object({
  created: z.number().int(),
  duplicates: z.number().int(),
  skipped: z.number().int(),
  errors: z.array(z.object({ row: z.number().int(), message: z.string() })),
});
export type LeadsLoaded = z.infer<typeof leadsLoadedSchema>;

/**
 * 201 from POST /api/lead-sources: the source, and for a webhook source its address and signing
 * secret, shown this once (the secret is stored sealed and never answered again).
 */
export const createdLeadSourceSchema = leadSourceSchema.extend({
  webhook: z.object({ url: z.string(), secret: z.string() }).optional(),
});
export type CreatedLeadSource = z.infer<typeof createdLeadSourceSchema>;

/**
 * Signed webhook deliveries (POST /api/webhook/leads/:sourceId): the headers carry the Unix time in
 * seconds and `sha256=` + hex HMAC-SHA256, keyed with the source's secret, of `<timestamp>.<raw body>`.
 * A timestamp more than 5 minutes off is refused, and so is a delivery seen before.
 */
export const LEAD_WEBHOOK_TIMESTAMP_HEADER = 'x-sendwell-timestamp';
export const LEAD_WEBHOOK_SIGNATURE_HEADER = 'x-sendwell-signature';
export const LEAD_WEBHOOK_TOLERANCE_SECONDS = 300;

/** One lead a webhook delivers (Thumbtack-style inbound leads: someone asked the business for something). */
export const webhookLeadSchema = z.object({
  email: contactEmailSchema,
  firstName: text('First name', 100).default(''),
  lastName: text('Last name', 100).default(''),
  company: optionalText('Company', 200),
  jobTitle: optionalText('Job title', 200),
  location: optionalText('Location', 200),
  phone: optionalText('Phone', 50),
  website: optionalText('Website', 500),
  notes: optionalText('Notes', 5000),
});
/** A delivery: one lead, or up to 100 under `leads`. */
export const webhookLeadsBodySchema = z.union([
  z.object({ leads: z.array(webhookLeadSchema).min(1, 'No leads in the delivery').max(100, 'At most 100 leads') }),
  webhookLeadSchema,
]);
export type WebhookLeadsBody = z.input<typeof webhookLeadsBodySchema>;

/** POST /api/lead-sources/:id/import-csv (JSON form): the file's text; columns detected from its headers. */
export const importLeadsCsvBodySchema = z.object({
  csvData: z.string({ error: 'csvData is required' }).min(1, 'The CSV file is empty'),
});

/**
 * Lines of POST /api/lead-sources/:id/import-csv's NDJSON answer (Accept: application/x-ndjson):
 * rows read so far, then the result or an error.
 */
export const leadImportProgressLineSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('progress'), rows: z.number().int() }),
  z.object({ type: z.literal('result'), result: leadsLoadedSchema }),
  z.object({ type: z.literal('error'), status: z.number().int(), message: z.string() }),
]);
export type LeadImportProgressLine = z.infer<typeof leadImportProgressLineSchema>;
