import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  LEAD_WEBHOOK_TOLERANCE_SECONDS,
  SAMPLE_DATA_LABEL,
  SAMPLE_LEADS_COUNT,
  webhookLeadsBodySchema,
  type LawfulBasis,
  type LeadsLoaded,
  type Profession,
} from '@sendwell/contract/leads';
import type { Config } from '../../config.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { openSecret } from '../../lib/secret-box.ts';
import { csvCandidateRows, type CsvSource } from '../contacts/index.ts';
import { addressSummary, checkAddress, type MxCache } from './address-checks.ts';
import * as repo from './leads.repo.ts';
import { scoreLead, type ScoreSource } from './leads.scoring.ts';
import { LEAD_WEBHOOK_SECRET_PURPOSE, SOURCE_NOT_FOUND } from './leads.service.ts';
import { recordWebhookEvent } from '../webhooks/index.ts';

const WEBHOOK_NOT_FOUND = 'Webhook not found';
const NO_MAIL_DOMAIN = "The address's domain says it accepts no mail (null MX)";

type IncomingLead = {
  email: string;
  firstName: string;
  lastName: string;
  company: string | null;
  jobTitle: string | null;
  location: string | null;
  phone: string | null;
  website: string | null;
  notes: string | null;
};

const emptyLoaded = (): LeadsLoaded => ({ created: 0, duplicates: 0, skipped: 0, errors: [] });

/**
 * Checks and scores incoming leads (each address's syntax, MX and flags), refusing addresses whose
 * domain takes no mail; answers the rows to insert and the refused ones by their row number.
 */
async function prepareLeads(
  mxCache: MxCache,
  source: repo.LeadSourceRow,
  incoming: { row: number; lead: IncomingLead }[],
  scoreSource: ScoreSource,
  extra: { lawfulBasis: LawfulBasis | null; via: string },
  loaded: LeadsLoaded,
): Promise<repo.NewLeadRow[]> {
  const foundAt = new Date().toISOString();
  const rows: repo.NewLeadRow[] = [];
  for (const { row, lead } of incoming) {
    const check = await checkAddress(lead.email, mxCache);
    if (check.mail === 'no-mail' && check.mx === 'null-mx') {
      loaded.skipped += 1;
      loaded.errors.push({ row, message: NO_MAIL_DOMAIN });
      continue;
    }
    const { notes, ...fields } = lead;
    rows.push({
      ...fields,
      email: check.email,
      notes,
      userId: source.userId,
      sourceId: source.id,
      status: 'new',
      score: scoreLead({ ...fields, source: scoreSource, address: check }),
      lawfulBasis: extra.lawfulBasis,
      metadata: { source: source.name, foundAt, via: extra.via, address: addressSummary(check) },
    });
  }
  return rows;
}

/** Inserts prepared leads; a lead whose email the account has already is a duplicate. */
async function insertLeads(db: DbOrTx, rows: repo.NewLeadRow[], loaded: LeadsLoaded): Promise<void> {
  for (const row of rows) {
    const inserted = await repo.insertLead(db, row);
    if (inserted)
      await recordWebhookEvent(db, inserted.userId, 'lead.created', {
        id: inserted.id,
        email: inserted.email,
        sourceId: inserted.sourceId,
      });
    if (inserted) loaded.created += 1;
    else loaded.duplicates += 1;
  }
}

// ---- sample source ----

/** A small seeded PRNG (mulberry32): the same seed gives the same demo directory, always. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of a string: the seed of a profession and location's demo directory. */
function fnv1a(value: string): number {
  let hash = 0x811c9dc5;
  for (const char of value) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const SAMPLE_PREFIXES = [
  'Northside',
  'Harbor',
  'Summit',
  'Maple',
  'Riverside',
  'Lakeview',
  'Granite',
  'Cedar',
  'Bluebird',
  'Evergreen',
  'Copper',
  'Willow',
  'Beacon',
  'Juniper',
  'Meadow',
  'Foxglove',
];
const SAMPLE_SUFFIXES = ['Studio', 'Group', 'Partners', 'Collective', 'Services', 'Practice', 'Office', 'Company'];
const SAMPLE_STREETS = ['Main St', 'Oak Ave', 'Elm St', 'Market St', 'Park Rd', 'Pine St', 'Lake Dr', 'Hill Rd'];

/**
 * The demo directory's businesses for a profession and location: fixed word lists picked by a PRNG
 * seeded from both, so the same request always gives the same businesses. Businesses only (no
 * invented people), on reserved .example domains and 555-01xx numbers that reach nobody.
 */
export function sampleBusinesses(profession: Profession, location: string): IncomingLead[] {
  const random = seededRandom(fnv1a(`${profession}|${location.trim().toLowerCase()}`));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const used = new Set<string>();
  const businesses: IncomingLead[] = [];
  while (businesses.length < SAMPLE_LEADS_COUNT) {
    const company = `${pick(SAMPLE_PREFIXES)} ${profession} ${pick(SAMPLE_SUFFIXES)}`;
    if (used.has(company)) continue;
    used.add(company);
    const slug = company.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    const number = 100 + Math.floor(random() * 900);
    businesses.push({
      email: `hello@${slug}.example`,
      firstName: '',
      lastName: '',
      company,
      jobTitle: null,
      location: `${number} ${pick(SAMPLE_STREETS)}, ${location}`,
      phone: `+1 555-01${String(Math.floor(random() * 100)).padStart(2, '0')}`,
      website: `https://${slug}.example`,
      notes: null,
    });
  }
  return businesses;
}

/**
 * POST /api/lead-sources/:id/sample-leads: stores the demo directory's businesses for a profession
 * and location as leads of a sample source, marked isSample (badged 'Sample data' everywhere and
 * never converted or sent to). Sample leads come only from this action, never from generating.
 * Their addresses are not checked: they are on reserved domains that take no mail.
 */
export async function loadSampleLeads(
  db: DbOrTx,
  userId: string,
  sourceId: number,
  profession: Profession,
  location: string,
): Promise<LeadsLoaded> {
  const source = await repo.findSource(db, userId, sourceId);
  if (!source) throw new AppError('not_found', SOURCE_NOT_FOUND);
  if (source.type !== 'sample') throw new AppError('bad_request', 'Only a sample source loads sample leads');
  const loaded = emptyLoaded();
  const foundAt = new Date().toISOString();
  for (const business of sampleBusinesses(profession, location)) {
    const row = await repo.insertLead(db, {
      ...business,
      userId,
      sourceId: source.id,
      status: 'new',
      isSample: true,
      tags: [SAMPLE_DATA_LABEL],
      score: scoreLead({ ...business, profession, categories: [profession], source: 'sample' }),
      metadata: { source: SAMPLE_DATA_LABEL, foundAt, sample: true, profession },
    });
    if (row) loaded.created += 1;
    else loaded.duplicates += 1;
  }
  return loaded;
}

// ---- webhook source ----

/** The signature a delivery must carry: `sha256=` + hex HMAC-SHA256 of `<timestamp>.<raw body>`. */
export function leadWebhookSignature(secret: string, timestamp: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex')}`;
}

/**
 * POST /api/webhook/leads/:sourceId: checks the delivery's signature (401 when missing or wrong),
 * its timestamp (401 when more than 5 minutes off) and that it was not seen before (409), then
 * stores its leads (400 for a body that is not valid leads; nothing is stored then).
 */
export async function receiveWebhookLeads(
  db: Db,
  config: Pick<Config, 'sessionSecret'>,
  mxCache: MxCache,
  sourceId: number,
  headers: { timestamp: string | undefined; signature: string | undefined },
  rawBody: Buffer,
  now = new Date(),
): Promise<LeadsLoaded> {
  const source = await repo.findSourceById(db, sourceId);
  if (!source || source.type !== 'webhook' || !source.apiKeySealed) throw new AppError('not_found', WEBHOOK_NOT_FOUND);
  if (!source.isActive) throw new AppError('forbidden', 'This webhook source is paused');
  const { timestamp, signature } = headers;
  if (!timestamp || !signature) {
    throw new AppError('unauthorized', 'Missing X-Sendwell-Timestamp or X-Sendwell-Signature header');
  }
  if (!/^\d{1,12}$/.test(timestamp)) throw new AppError('unauthorized', 'X-Sendwell-Timestamp must be Unix seconds');
  const secret = openSecret(config.sessionSecret, LEAD_WEBHOOK_SECRET_PURPOSE, source.apiKeySealed);
  const expected = Buffer.from(leadWebhookSignature(secret, timestamp, rawBody));
  const given = Buffer.from(signature.trim());
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new AppError('unauthorized', 'Invalid signature');
  }
  const skew = Math.abs(now.getTime() / 1000 - Number(timestamp));
  if (skew > LEAD_WEBHOOK_TOLERANCE_SECONDS) {
    throw new AppError('unauthorized', 'Timestamp outside the 5-minute tolerance: send it again with the current time');
  }
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new AppError('bad_request', 'The body must be JSON');
  }
  const parsed = webhookLeadsBodySchema.safeParse(json);
  if (!parsed.success) throw new AppError('bad_request', parsed.error.issues[0]?.message ?? 'Invalid leads');
  const incoming = 'leads' in parsed.data ? parsed.data.leads : [parsed.data];
  const loaded = emptyLoaded();
  const rows = await prepareLeads(
    mxCache,
    source,
    incoming.map((lead, index) => ({ row: index + 1, lead })),
    'webhook',
    { lawfulBasis: null, via: 'webhook' },
    loaded,
  );
  const forgetBefore = new Date(now.getTime() - 2 * LEAD_WEBHOOK_TOLERANCE_SECONDS * 1000);
  await db.transaction(async (tx) => {
    if (!(await repo.recordDelivery(tx, source.id, signature.trim(), forgetBefore))) {
      throw new AppError('conflict', 'This delivery was received before (replay refused)');
    }
    await insertLeads(tx, rows, loaded);
  });
  return loaded;
}

// ---- csv source ----

/** Rows checked and stored together. */
const CSV_BATCH = 500;

/**
 * POST /api/lead-sources/:id/import-csv: a lead list through the contacts importer's streaming CSV
 * reader (csvCandidateRows). The csv source holds where the list came from and its lawful basis,
 * which every lead of it keeps. Each batch's addresses are checked and its leads stored in one
 * transaction; duplicates (by email) are counted, not stored.
 */
export async function importLeadsCsv(
  db: Db,
  mxCache: MxCache,
  userId: string,
  sourceId: number,
  csv: CsvSource,
  onProgress?: (rows: number) => void,
): Promise<LeadsLoaded> {
  const source = await repo.findSource(db, userId, sourceId);
  if (!source) throw new AppError('not_found', SOURCE_NOT_FOUND);
  if (source.type !== 'csv') throw new AppError('bad_request', 'Upload a lead list to a CSV source');
  const lawfulBasis = source.settings.lawfulBasis as LawfulBasis | undefined;
  if (!lawfulBasis) throw new AppError('bad_request', 'Record the lawful basis of this list on its source first');
  const loaded = emptyLoaded();
  const seen = new Set<string>();
  let pending: { row: number; lead: IncomingLead }[] = [];
  let rowsRead = 0;
  const flush = async () => {
    const batch = pending;
    pending = [];
    const rows = await prepareLeads(mxCache, source, batch, 'csv', { lawfulBasis, via: 'csv' }, loaded);
    await db.transaction((tx) => insertLeads(tx, rows, loaded));
    onProgress?.(rowsRead);
  };
  for await (const rows of csvCandidateRows(csv)) {
    for (const { rowNumber, candidate } of rows) {
      rowsRead += 1;
      if (typeof candidate === 'string') {
        loaded.skipped += 1;
        if (loaded.errors.length < 100) loaded.errors.push({ row: rowNumber, message: candidate });
        continue;
      }
      if (seen.has(candidate.email)) {
        loaded.duplicates += 1;
        continue;
      }
      seen.add(candidate.email);
      pending.push({
        row: rowNumber,
        lead: {
          email: candidate.email,
          firstName: candidate.firstName,
          lastName: candidate.lastName,
          company: candidate.company,
          jobTitle: candidate.jobTitle,
          location: candidate.location,
          phone: candidate.phone,
          website: null,
          notes: candidate.notes,
        },
      });
      if (pending.length >= CSV_BATCH) await flush();
    }
  }
  await flush();
  loaded.errors = loaded.errors.slice(0, 100);
  return loaded;
}
