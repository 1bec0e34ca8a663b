import {
  leadPlatforms,
  platformCapabilityText,
  type GenerateLeadsBody,
  type LeadGenerationRunResponse,
  type LeadGenerationState,
  type LeadPlatformId,
  type Profession,
} from '@sendwell/contract/leads';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { openSecret } from '../../lib/secret-box.ts';
import { addressSummary, checkAddress, mxCacheFor, type AddressCheck, type MxCache } from './address-checks.ts';
import {
  hunterCredits,
  hunterDomainSearch,
  searchGooglePlaces,
  searchYelp,
  type FoundAddress,
  type FoundBusiness,
  type ProviderResult,
} from './lead-providers.ts';
import * as repo from './leads.repo.ts';
import type { LeadGenerationPlatformProgress } from './leads.repo.ts';
import { scoreLead } from './leads.scoring.ts';
import { LEAD_SOURCE_KEY_PURPOSE } from './leads.service.ts';

const RUN_NOT_FOUND = 'Lead generation run not found';
/** Businesses asked of each provider per run (Google Places answers at most 20 a page). */
const RESULTS_PER_PLATFORM = 20;
/** Published addresses kept per business domain. */
const ADDRESSES_PER_BUSINESS = 5;

/** The reasons a platform's card shows when it could not search (the contract's `reason`). */
const PLATFORM_REASONS = {
  none: platformCapabilityText.none,
  csv: 'Import a CSV export',
  notConnected: 'Not connected',
  badKey: 'API key rejected',
  rateLimited: 'Rate limited, try later',
} as const;

type Enrichment = LeadGenerationRunResponse['enrichment'];
const ENRICHMENT_OFF: Enrichment = { state: 'off', lookups: 0, found: 0, rejected: 0, reason: null };

function toRun(row: repo.LeadGenerationRunRow): LeadGenerationRunResponse {
  const platforms = row.platforms.map((p) => ({ ...p, platform: p.platform as LeadPlatformId }));
  return {
    id: row.id,
    state: row.state as LeadGenerationState,
    profession: row.profession as Profession,
    location: row.location,
    progress: { done: platforms.filter((p) => p.state !== 'pending').length, total: platforms.length },
    platforms,
    created: row.created,
    duplicates: row.duplicates,
    error: row.error,
    enrichment: (row.enrichment as Enrichment | null) ?? ENRICHMENT_OFF,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** POST /api/leads/generate: stores the run (queued) and hands it to one job through `enqueue`. */
export async function startGeneration(
  ctx: Pick<AppContext, 'db'>,
  userId: string,
  body: GenerateLeadsBody,
  enqueue: (runId: string) => Promise<void>,
): Promise<LeadGenerationRunResponse> {
  const row = await repo.insertRun(ctx.db, {
    userId,
    profession: body.profession,
    location: body.location,
    platforms: body.platforms.map((platform) => ({ platform, state: 'pending', found: 0, created: 0, reason: null })),
  });
  try {
    await enqueue(row.id);
  } catch (error) {
    // Nothing half-written: a run no job will work is not left queued.
    await repo.updateRun(ctx.db, row.id, {
      state: 'failed',
      error: 'Could not start: try again',
      finishedAt: new Date(),
    });
    throw error;
  }
  return toRun(row);
}

/** A run not finished this long after it started has lost its job (the job expires after 15 minutes). */
const RUN_ABANDONED_AFTER_MS = 20 * 60 * 1000;
export const RUN_ABANDONED = 'The run stopped before it finished. Start it again: leads it stored are not duplicated.';

/**
 * GET /api/leads/generate/:id: the account's run (another account's is 404). A run whose job died
 * with its process (it is not retried) answers as failed, so the screen stops polling.
 */
export async function generationRun(
  ctx: Pick<AppContext, 'db'>,
  userId: string,
  id: string,
  now = new Date(),
): Promise<LeadGenerationRunResponse> {
  const row = await repo.findRun(ctx.db, userId, id);
  if (!row) throw new AppError('not_found', RUN_NOT_FOUND);
  const run = toRun(row);
  const unfinished = run.state === 'queued' || run.state === 'running';
  if (unfinished && now.getTime() - row.createdAt.getTime() > RUN_ABANDONED_AFTER_MS) {
    return { ...run, state: 'failed', error: RUN_ABANDONED };
  }
  return run;
}

// ---- business identity ----

const normaliseText = (value: string) =>
  value
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

/** A website's host without `www.`, lower-cased; null when it is not a web address. */
export function websiteDomain(website: string | null): string | null {
  if (!website) return null;
  try {
    const url = new URL(/^https?:\/\//i.test(website) ? website : `https://${website}`);
    const host = url.hostname
      .toLowerCase()
      .replace(/^www\./, '')
      .replace(/\.$/, '');
    return host.includes('.') ? host : null;
  } catch {
    return null;
  }
}

/**
 * The keys a business is known by: its provider's place id, its website's domain, and its name
 * with the first line of its address (the street part, which Google and Yelp both put first), so
 * the same business found on both platforms, or found again later, is one business.
 */
export function businessKeys(
  business: Pick<FoundBusiness, 'provider' | 'providerId' | 'name' | 'website' | 'address'>,
): string[] {
  const keys = [`place:${business.provider}:${business.providerId}`];
  const domain = websiteDomain(business.website);
  if (domain) keys.push(`web:${domain}`);
  const street = business.address?.split(',')[0] ?? '';
  const name = normaliseText(business.name);
  if (name && normaliseText(street)) keys.push(`name:${name}|${normaliseText(street)}`);
  return keys;
}

// ---- the job ----

type Counters = { created: number; duplicates: number };

type EnrichmentState = Enrichment & { key: string | null; remaining: number };

/**
 * Works one run: each selected platform in turn (skipped with its reason, or searched through the
 * account's connected source), then the businesses it found: de-duplicated against the run and the
 * account's leads, enriched with published addresses while credits last, each address checked,
 * scored and stored as a lead with status 'new'. Progress is saved after each platform.
 */
export async function runGeneration(ctx: AppContext, runId: string): Promise<void> {
  const run = await repo.claimRun(ctx.db, runId);
  if (!run) return;
  const { db, config } = ctx;
  const userId = run.userId;
  const platforms = run.platforms.map((p) => ({ ...p }));
  const counters: Counters = { created: 0, duplicates: 0 };
  const seenKeys = new Set<string>();
  const seenEmails = new Set<string>();
  const mxCache = mxCacheFor(config.dnsServers);
  try {
    const enrichment = await startEnrichment(ctx, userId);
    for (const progress of platforms) {
      await workPlatform(ctx, run, progress, { counters, seenKeys, seenEmails, mxCache, enrichment });
      await repo.updateRun(db, runId, { platforms, ...counters, enrichment: publicEnrichment(enrichment) });
    }
    await repo.updateRun(db, runId, {
      state: 'done',
      platforms,
      ...counters,
      enrichment: publicEnrichment(enrichment),
      finishedAt: new Date(),
    });
  } catch (error) {
    await repo.updateRun(db, runId, {
      state: 'failed',
      platforms,
      ...counters,
      error: 'Failed to generate leads',
      finishedAt: new Date(),
    });
    throw error;
  }
}

function publicEnrichment(state: EnrichmentState): Enrichment {
  return {
    state: state.state,
    lookups: state.lookups,
    found: state.found,
    rejected: state.rejected,
    reason: state.reason,
  };
}

/** The account's enrichment source and its credits, read (free of charge) before any is spent. */
async function startEnrichment(ctx: AppContext, userId: string): Promise<EnrichmentState> {
  const off: EnrichmentState = { ...ENRICHMENT_OFF, key: null, remaining: 0 };
  const [source] = await repo.activeSources(ctx.db, userId, 'enrichment');
  if (!source?.apiKeySealed) return off;
  const key = openSecret(ctx.config.sessionSecret, LEAD_SOURCE_KEY_PURPOSE, source.apiKeySealed);
  const credits = await hunterCredits(ctx.config.leadProviderBases.hunter, key);
  if (credits.kind !== 'ok') return { ...off, state: 'stopped', reason: enrichmentStop(credits) };
  const remaining = Math.max(0, credits.items.available - credits.items.used);
  if (remaining === 0) return { ...off, state: 'stopped', reason: 'No Hunter credits left this period' };
  return { ...off, state: 'done', key, remaining };
}

function enrichmentStop(result: Exclude<ProviderResult<unknown>, { kind: 'ok' }>): string {
  switch (result.kind) {
    case 'bad-key':
      return PLATFORM_REASONS.badKey;
    case 'rate-limited':
      return PLATFORM_REASONS.rateLimited;
    case 'failed':
      return result.message;
  }
}

type WorkState = {
  counters: Counters;
  seenKeys: Set<string>;
  seenEmails: Set<string>;
  mxCache: MxCache;
  enrichment: EnrichmentState;
};

async function workPlatform(
  ctx: AppContext,
  run: repo.LeadGenerationRunRow,
  progress: LeadGenerationPlatformProgress,
  work: WorkState,
): Promise<void> {
  const platform = leadPlatforms.find((p) => p.id === progress.platform);
  if (!platform || platform.capability === 'none') {
    Object.assign(progress, { state: 'skipped', reason: PLATFORM_REASONS.none });
    return;
  }
  if (platform.capability === 'csv' || !platform.provider) {
    Object.assign(progress, { state: 'skipped', reason: PLATFORM_REASONS.csv });
    return;
  }
  const [source] = await repo.activeSources(ctx.db, run.userId, 'places', platform.provider);
  if (!source?.apiKeySealed) {
    Object.assign(progress, { state: 'skipped', reason: PLATFORM_REASONS.notConnected });
    return;
  }
  const key = openSecret(ctx.config.sessionSecret, LEAD_SOURCE_KEY_PURPOSE, source.apiKeySealed);
  const bases = ctx.config.leadProviderBases;
  const result =
    platform.provider === 'google'
      ? await searchGooglePlaces(bases.google, key, `${run.profession} in ${run.location}`, RESULTS_PER_PLATFORM)
      : await searchYelp(bases.yelp, key, run.profession, run.location, RESULTS_PER_PLATFORM);
  if (result.kind !== 'ok') {
    Object.assign(progress, { state: 'failed', reason: enrichmentStop(result) });
    return;
  }
  progress.state = 'searched';
  progress.found = result.items.length;
  for (const business of result.items) {
    progress.created += await storeBusiness(ctx, run, source, platform.id, business, work);
  }
}

/** Stores one business's leads; answers how many were new. */
async function storeBusiness(
  ctx: AppContext,
  run: repo.LeadGenerationRunRow,
  source: repo.LeadSourceRow,
  platform: LeadPlatformId,
  business: FoundBusiness,
  work: WorkState,
): Promise<number> {
  const keys = businessKeys(business);
  const known = await repo.knownBusinessKeys(ctx.db, run.userId, keys);
  if (keys.some((key) => work.seenKeys.has(key)) || known.size > 0) {
    work.counters.duplicates += 1;
    for (const key of keys) work.seenKeys.add(key);
    return 0;
  }
  for (const key of keys) work.seenKeys.add(key);

  const addresses = await publishedAddresses(ctx, business, work);
  const fresh = addresses.filter((entry) => !work.seenEmails.has(entry.found.email));
  const knownEmails = await repo.knownLeadEmails(
    ctx.db,
    run.userId,
    fresh.map((entry) => entry.found.email),
  );
  const newAddresses = fresh.filter((entry) => !knownEmails.has(entry.found.email));
  for (const entry of addresses) work.seenEmails.add(entry.found.email);
  if (addresses.length > 0 && newAddresses.length === 0) {
    work.counters.duplicates += 1;
    return 0;
  }

  const foundAt = new Date().toISOString();
  const base = {
    userId: run.userId,
    sourceId: source.id,
    company: business.name,
    location: business.address,
    phone: business.phone,
    website: business.website,
    status: 'new',
    businessKeys: keys,
  };
  const metadata = {
    source: source.name,
    foundAt,
    platform,
    provider: business.provider,
    providerId: business.providerId,
    providerUrl: business.providerUrl,
    categories: business.categories,
    profession: run.profession,
  };
  // A business without a published address is one lead with no email: found, not yet reachable.
  const people = newAddresses.length > 0 ? newAddresses : [null];
  let created = 0;
  for (const entry of people) {
    const fields = {
      email: entry?.found.email ?? null,
      firstName: entry?.found.firstName ?? '',
      lastName: entry?.found.lastName ?? '',
      company: base.company,
      jobTitle: entry?.found.position ?? null,
      location: base.location,
      phone: base.phone,
      website: base.website,
    };
    const row = await repo.insertLead(ctx.db, {
      ...base,
      ...fields,
      score: scoreLead({
        ...fields,
        categories: business.categories,
        profession: run.profession,
        source: entry ? 'enrichment' : 'places',
        address: entry?.check,
      }),
      metadata: {
        ...metadata,
        ...(entry ? { address: addressSummary(entry.check), addressType: entry.found.type } : {}),
      },
    });
    if (row) created += 1;
    else work.counters.duplicates += 1;
  }
  work.counters.created += created;
  return created;
}

/**
 * The addresses Hunter has published for the business's website domain, each checked; addresses
 * whose domain publishes a null MX (it takes no mail) are refused. Spends one credit per domain,
 * and none once the credits read at the start are used up.
 */
async function publishedAddresses(
  ctx: AppContext,
  business: FoundBusiness,
  work: WorkState,
): Promise<{ found: FoundAddress; check: AddressCheck }[]> {
  const enrichment = work.enrichment;
  const domain = websiteDomain(business.website);
  if (!domain || enrichment.state !== 'done' || !enrichment.key) return [];
  if (enrichment.remaining <= 0) {
    Object.assign(enrichment, { state: 'stopped', reason: 'No Hunter credits left this period' });
    return [];
  }
  enrichment.remaining -= 1;
  enrichment.lookups += 1;
  const result = await hunterDomainSearch(
    ctx.config.leadProviderBases.hunter,
    enrichment.key,
    domain,
    ADDRESSES_PER_BUSINESS,
  );
  if (result.kind !== 'ok') {
    Object.assign(enrichment, { state: 'stopped', reason: enrichmentStop(result) });
    return [];
  }
  const checked: { found: FoundAddress; check: AddressCheck }[] = [];
  for (const found of result.items.slice(0, ADDRESSES_PER_BUSINESS)) {
    const check = await checkAddress(found.email, work.mxCache);
    if (!check.syntaxValid || check.mx === 'null-mx') {
      enrichment.rejected += 1;
      continue;
    }
    enrichment.found += 1;
    checked.push({ found, check });
  }
  return checked;
}
