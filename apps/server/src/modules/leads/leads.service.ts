import type { z } from 'zod';
import {
  leadStatusMoves,
  type ConvertLeadResult,
  type CreatedLeadSource,
  type createLeadBodySchema,
  type createLeadCampaignBodySchema,
  type createLeadSourceBodySchema,
  type Lead,
  type LeadCampaign,
  type LeadProvider,
  type LeadSource,
  type LeadSourceCredits,
  type LeadSourceType,
  type LawfulBasis,
  type LeadStatus,
  type updateLeadBodySchema,
  type updateLeadSourceBodySchema,
} from '@sendwell/contract/leads';
import type { Db, DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { openSecret, sealSecret } from '../../lib/secret-box.ts';
import type { Config } from '../../config.ts';
import { hunterCredits } from './lead-providers.ts';
import { newToken } from '../../lib/tokens.ts';
import { saveContactToList } from '../contacts/index.ts';
import { addressSummary, checkAddress, type MxCache } from './address-checks.ts';
import * as repo from './leads.repo.ts';
import { scoreLead, type ScoreSource } from './leads.scoring.ts';
import { recordWebhookEvent } from '../webhooks/index.ts';

const LEAD_NOT_FOUND = 'Lead not found';
export const SOURCE_NOT_FOUND = 'Lead source not found';
const CAMPAIGN_NOT_FOUND = 'Lead campaign not found';
const LEAD_EXISTS = 'A lead with this email already exists';
/** The sealed-secret purpose of lead source API keys (each purpose has its own key). */
export const LEAD_SOURCE_KEY_PURPOSE = 'lead-source-key';
/** The sealed-secret purpose of webhook sources' signing secrets. */
export const LEAD_WEBHOOK_SECRET_PURPOSE = 'lead-webhook-secret';

/** The address other tools post a webhook source's leads to. */
function leadWebhookUrl(config: Pick<Config, 'publicUrl'>, sourceId: number): string {
  return `${config.publicUrl}/api/webhook/leads/${sourceId}`;
}
/** How many leads GET /api/leads answers at most (the screen shows the first RECENT_LEADS_SHOWN). */
const LEADS_LISTED = 500;

/** Types whose source needs the account's own API key before it can search. */
const KEY_TYPES: ReadonlySet<LeadSourceType> = new Set(['places', 'enrichment']);

function toLeadSource(row: repo.LeadSourceRow, totalLeads: number): LeadSource {
  return {
    id: row.id,
    name: row.name,
    type: row.type as LeadSourceType,
    provider: row.provider as LeadProvider | null,
    totalLeads,
    isActive: row.isActive,
    connected: !KEY_TYPES.has(row.type as LeadSourceType) || row.apiKeySealed !== null,
    apiKeyHint: row.apiKeyHint,
    settings: row.slug ? { ...row.settings, slug: row.slug } : row.settings,
    createdAt: row.createdAt.toISOString(),
  };
}

function toLead(row: repo.LeadRow): Lead {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    company: row.company,
    jobTitle: row.jobTitle,
    location: row.location,
    phone: row.phone,
    website: row.website,
    score: row.score,
    status: row.status as LeadStatus,
    tags: row.tags,
    metadata: row.metadata,
    notes: row.notes,
    sourceId: row.sourceId,
    campaignId: row.campaignId,
    lawfulBasis: row.lawfulBasis as LawfulBasis | null,
    consent: row.consent,
    isSample: row.isSample,
    contactId: row.contactId,
    createdAt: row.createdAt.toISOString(),
  };
}

function toLeadCampaign(row: repo.LeadCampaignWithCounts): LeadCampaign {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    totalLeads: row.totalLeads,
    qualifiedLeads: row.qualifiedLeads,
    convertedLeads: row.convertedLeads,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The sealed key and its hint for storage; both null when `apiKey` is null (disconnect). */
function sealedKey(secret: string, apiKey: string | null): { apiKeySealed: string | null; apiKeyHint: string | null } {
  if (apiKey === null) return { apiKeySealed: null, apiKeyHint: null };
  return { apiKeySealed: sealSecret(secret, LEAD_SOURCE_KEY_PURPOSE, apiKey), apiKeyHint: apiKey.slice(-4) };
}

// ---- lead sources ----

/** GET /api/lead-sources */
export async function leadSources(db: DbOrTx, userId: string): Promise<LeadSource[]> {
  return (await repo.listSources(db, userId)).map((row) => toLeadSource(row, row.totalLeads));
}

/**
 * POST /api/lead-sources: stores the source; a key is sealed, a form gets an unguessable slug for
 * its page, and a webhook a signing secret (sealed too) answered this once with its address.
 */
export async function createLeadSource(
  db: DbOrTx,
  config: Pick<Config, 'sessionSecret' | 'publicUrl'>,
  userId: string,
  body: z.output<typeof createLeadSourceBodySchema>,
): Promise<CreatedLeadSource> {
  const secret = config.sessionSecret;
  const base = { userId, name: body.name, type: body.type };
  let values: repo.NewLeadSourceRow;
  let webhookSecret: string | null = null;
  switch (body.type) {
    case 'form':
      values = {
        ...base,
        slug: newToken(12),
        settings: { version: 1, consentText: body.consentText, doubleOptIn: body.doubleOptIn },
      };
      break;
    case 'places':
      values = { ...base, provider: body.provider, ...sealedKey(secret, body.apiKey ?? null) };
      break;
    case 'enrichment':
      values = { ...base, provider: 'hunter', ...sealedKey(secret, body.apiKey ?? null) };
      break;
    case 'csv':
      values = { ...base, settings: { origin: body.origin, lawfulBasis: body.lawfulBasis } };
      break;
    case 'webhook':
      webhookSecret = `whsec_${newToken(24)}`;
      values = {
        ...base,
        apiKeySealed: sealSecret(secret, LEAD_WEBHOOK_SECRET_PURPOSE, webhookSecret),
        apiKeyHint: webhookSecret.slice(-4),
      };
      break;
    case 'sample':
      values = base;
      break;
  }
  const row = await repo.insertSource(db, values);
  const created = toLeadSource(row, 0);
  return webhookSecret
    ? { ...created, webhook: { url: leadWebhookUrl(config, row.id), secret: webhookSecret } }
    : created;
}

/**
 * PATCH /api/lead-sources/:id. A form's consent text or opt-in change starts a new form version, so
 * each consent record names the exact words the person saw.
 */
export async function updateLeadSource(
  db: DbOrTx,
  secret: string,
  userId: string,
  id: number,
  body: z.output<typeof updateLeadSourceBodySchema>,
): Promise<LeadSource> {
  const row = await repo.findSource(db, userId, id);
  if (!row) throw new AppError('not_found', SOURCE_NOT_FOUND);
  const type = row.type as LeadSourceType;
  const values: Partial<repo.NewLeadSourceRow> = {};
  if (body.name !== undefined) values.name = body.name;
  if (body.isActive !== undefined) values.isActive = body.isActive;
  if (body.apiKey !== undefined) {
    if (!KEY_TYPES.has(type)) {
      throw new AppError('bad_request', `A ${type} source has no API key`, {
        apiKey: `A ${type} source has no API key`,
      });
    }
    Object.assign(values, sealedKey(secret, body.apiKey));
  }
  if (body.consentText !== undefined || body.doubleOptIn !== undefined) {
    if (type !== 'form') {
      throw new AppError('bad_request', 'Only a form source has consent text and double opt-in');
    }
    const settings = row.settings as { consentText: string; doubleOptIn: boolean; version: number };
    const next = {
      consentText: body.consentText ?? settings.consentText,
      doubleOptIn: body.doubleOptIn ?? settings.doubleOptIn,
    };
    const changed = next.consentText !== settings.consentText || next.doubleOptIn !== settings.doubleOptIn;
    values.settings = { ...row.settings, ...next, version: settings.version + (changed ? 1 : 0) };
  }
  const updated = await repo.updateSource(db, userId, id, values);
  if (!updated) throw new AppError('not_found', SOURCE_NOT_FOUND);
  return toLeadSource(updated, await repo.sourceLeadCount(db, userId, id));
}

/** DELETE /api/lead-sources/:id: its leads stay, without a source. */
export async function deleteLeadSource(db: DbOrTx, userId: string, id: number): Promise<void> {
  if (!(await repo.deleteSource(db, userId, id))) throw new AppError('not_found', SOURCE_NOT_FOUND);
}

/**
 * GET /api/lead-sources/:id/credits: asks Hunter's account endpoint (which costs no credit) how many
 * searches the enrichment source's key has left. 409 'Not connected' without a key; a refused key
 * is 422 and a rate limit 429, each with Hunter's words.
 */
export async function leadSourceCredits(
  config: Config,
  db: DbOrTx,
  userId: string,
  id: number,
): Promise<LeadSourceCredits> {
  const row = await repo.findSource(db, userId, id);
  if (!row) throw new AppError('not_found', SOURCE_NOT_FOUND);
  if (row.type !== 'enrichment') throw new AppError('bad_request', 'Only an enrichment source has credits');
  if (!row.apiKeySealed) throw new AppError('conflict', 'Not connected: add your Hunter API key to this source first.');
  const key = openSecret(config.sessionSecret, LEAD_SOURCE_KEY_PURPOSE, row.apiKeySealed);
  const result = await hunterCredits(config.leadProviderBases.hunter, key);
  switch (result.kind) {
    case 'ok':
      return result.items;
    case 'bad-key':
      throw new AppError('unprocessable', result.message);
    case 'rate-limited':
      throw new AppError('rate_limited', result.message);
    case 'failed':
      throw new AppError('unavailable', result.message);
  }
}

// ---- leads ----

/** GET /api/leads: newest first. */
export async function listLeads(db: DbOrTx, userId: string): Promise<Lead[]> {
  return (await repo.listLeads(db, userId, LEADS_LISTED)).map(toLead);
}

/** GET /api/leads/:id */
export async function getLead(db: DbOrTx, userId: string, id: number): Promise<Lead> {
  const row = await repo.findLead(db, userId, id);
  if (!row) throw new AppError('not_found', LEAD_NOT_FOUND);
  return toLead(row);
}

/** The score source of a lead added through a source of `type` (by hand when there is none). */
function scoreSourceOf(type: LeadSourceType | null): ScoreSource {
  switch (type) {
    case null:
      return 'manual';
    case 'form':
      return 'form';
    default:
      return type;
  }
}

/**
 * POST /api/leads: one lead by hand. Its source and campaign, when named, must be the account's
 * (404 otherwise); the score is computed from its data; a second lead with the same email is 409.
 */
export async function createLead(
  db: DbOrTx,
  mxCache: MxCache,
  userId: string,
  body: z.output<typeof createLeadBodySchema>,
  now = new Date(),
): Promise<Lead> {
  const source = body.sourceId ? await repo.findSource(db, userId, body.sourceId) : null;
  if (body.sourceId && !source) throw new AppError('not_found', SOURCE_NOT_FOUND);
  if (body.campaignId && !(await repo.findCampaign(db, userId, body.campaignId))) {
    throw new AppError('not_found', CAMPAIGN_NOT_FOUND);
  }
  const sourceType = (source?.type ?? null) as LeadSourceType | null;
  const fields = {
    email: body.email,
    firstName: body.firstName,
    lastName: body.lastName,
    company: body.company,
    jobTitle: body.jobTitle,
    location: body.location,
    phone: body.phone,
    website: body.website,
  };
  const address = await checkAddress(body.email, mxCache);
  const row = await repo.insertLead(db, {
    ...fields,
    userId,
    sourceId: source?.id ?? null,
    campaignId: body.campaignId ?? null,
    score: scoreLead({ ...fields, source: scoreSourceOf(sourceType), address }),
    status: 'new',
    tags: body.tags ?? [],
    metadata: {
      source: body.metadata?.source ?? source?.name ?? 'manual',
      foundAt: body.metadata?.foundAt ?? now.toISOString(),
      address: addressSummary(address),
    },
    notes: body.notes,
    lawfulBasis: body.lawfulBasis ?? null,
    isSample: sourceType === 'sample',
  });
  if (!row) throw new AppError('conflict', LEAD_EXISTS, { email: LEAD_EXISTS });
  await recordWebhookEvent(db, userId, 'lead.created', toLead(row));
  return toLead(row);
}

/** PATCH /api/leads/:id: status along leadStatusMoves (409 otherwise), notes, lawful basis, campaign. */
export async function updateLead(
  db: DbOrTx,
  userId: string,
  id: number,
  body: z.output<typeof updateLeadBodySchema>,
): Promise<Lead> {
  const row = await repo.findLead(db, userId, id);
  if (!row) throw new AppError('not_found', LEAD_NOT_FOUND);
  if (body.campaignId && !(await repo.findCampaign(db, userId, body.campaignId))) {
    throw new AppError('not_found', CAMPAIGN_NOT_FOUND);
  }
  const values: Partial<repo.NewLeadRow> = {};
  const from = row.status as LeadStatus;
  if (body.status !== undefined && body.status !== from) {
    if (body.status === 'converted') {
      throw new AppError('conflict', 'A lead is converted by adding it to a contact list', {
        status: 'A lead is converted by adding it to a contact list',
      });
    }
    if (!leadStatusMoves[from].includes(body.status)) {
      const message = `A ${from} lead cannot become ${body.status}`;
      throw new AppError('conflict', message, { status: message });
    }
    values.status = body.status;
  }
  if (body.notes !== undefined) values.notes = body.notes;
  if (body.lawfulBasis !== undefined) values.lawfulBasis = body.lawfulBasis;
  if (body.campaignId !== undefined) values.campaignId = body.campaignId;
  // Conditional on the status read: two tabs moving the same lead cannot skip a step.
  const updated = await repo.updateLead(db, userId, id, values, from);
  if (!updated) throw new AppError('conflict', 'The lead changed meanwhile; reload it and try again');
  return toLead(updated);
}

/** The note a converted contact carries: where the lead came from and why it may be mailed. */
function provenanceNote(lead: repo.LeadRow, sourceName: string, now: Date): string {
  const why = lead.consent
    ? `consent given ${lead.consent.submittedAt}${lead.consent.ip ? ` from ${lead.consent.ip}` : ''} on form version ${lead.consent.formVersion}${lead.consent.confirmedAt ? `, confirmed ${lead.consent.confirmedAt}` : ''}: "${lead.consent.text}"`
    : `lawful basis: ${lead.lawfulBasis}`;
  return `From lead #${lead.id} (source: ${sourceName}), converted ${now.toISOString()}; ${why}.`;
}

/**
 * POST /api/leads/:id/convert: adds the lead to a contact list, creating its contact or updating
 * the one with its email, which keeps the lead's source (a tag and a note) and its consent (the
 * note, and the lead stays linked). Refused for sample leads (they are never sent to), for leads
 * without an email, and for leads with neither a consent record nor a lawful basis (400).
 */
export async function convertLead(
  db: Db,
  userId: string,
  id: number,
  listId: number,
  onContactsChanged: (userId: string) => Promise<void>,
  now = new Date(),
): Promise<ConvertLeadResult> {
  const result = await db.transaction(async (tx) => {
    const lead = await repo.lockLead(tx, userId, id);
    if (!lead) throw new AppError('not_found', LEAD_NOT_FOUND);
    if (lead.isSample) {
      throw new AppError(
        'bad_request',
        'Sample data is for trying the screens: sample leads are never added to a list or sent to.',
      );
    }
    if (!lead.email) throw new AppError('unprocessable', 'This lead has no email address to add to a list.');
    if (lead.status === 'lost') throw new AppError('conflict', 'A lost lead cannot be converted.');
    // A form lead exists only once its consent is given (and confirmed, with double opt-in), so a
    // consent record is enough; any other lead needs the lawful basis the account recorded for it.
    if (!lead.consent && !lead.lawfulBasis) {
      throw new AppError(
        'bad_request',
        'Record a lawful basis for this lead (consent, legitimate interest or contract) before adding it to a list.',
      );
    }
    const source = lead.sourceId ? await repo.findSource(tx, userId, lead.sourceId) : undefined;
    const sourceName = source?.name ?? String(lead.metadata.source ?? 'manual');
    const saved = await saveContactToList(tx, userId, listId, {
      email: lead.email,
      firstName: lead.firstName,
      lastName: lead.lastName,
      company: lead.company,
      jobTitle: lead.jobTitle,
      phone: lead.phone,
      location: lead.location,
      addTags: [`lead-source:${source?.type ?? 'manual'}`.slice(0, 50)],
      // A lead added to a second list has its note on the contact already.
      addNote: lead.status === 'converted' ? '' : provenanceNote(lead, sourceName, now),
    });
    const updated = await repo.updateLead(tx, userId, id, { status: 'converted', contactId: saved.contact.id });
    if (!updated) throw new AppError('not_found', LEAD_NOT_FOUND);
    return { lead: toLead(updated), contactId: saved.contact.id, createdContact: saved.created };
  });
  await onContactsChanged(userId).catch(() => undefined);
  return result;
}

// ---- lead campaigns ----

/** GET /api/lead-campaigns */
export async function leadCampaigns(db: DbOrTx, userId: string): Promise<LeadCampaign[]> {
  return (await repo.listCampaigns(db, userId)).map(toLeadCampaign);
}

/** POST /api/lead-campaigns */
export async function createLeadCampaign(
  db: DbOrTx,
  userId: string,
  body: z.output<typeof createLeadCampaignBodySchema>,
): Promise<LeadCampaign> {
  const row = await repo.insertCampaign(db, userId, body.name, body.description);
  return toLeadCampaign({ ...row, totalLeads: 0, qualifiedLeads: 0, convertedLeads: 0 });
}
