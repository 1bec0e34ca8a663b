import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import {
  DOMAIN_ALREADY_ADDED,
  NOT_A_REGISTRABLE_DOMAIN,
  type DnsRecord,
  type DnsRecordKind,
  type DnsRecordStatus,
  type Domain,
} from '@sendwell/contract/domains';
import { planIdSchema } from '@sendwell/contract/billing';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { dnsResolver } from '../../lib/dns.ts';
import { sealSecret } from '../../lib/secret-box.ts';
import { notifyUser } from '../notifications/index.ts';
import { planCatalogue, planLimitsOf, domainCountOf } from '../billing/index.ts';
import {
  BOUNCE_MX_PRIORITY,
  bounceHost,
  checkDomainRecords,
  dkimHost,
  dkimRecordValue,
  dmarcHost,
  dmarcRecordValue,
  recordNote,
  spfHost,
  spfRecordValue,
  type DomainChecks,
  type RecordCheck,
} from './dns-records.ts';
import * as repo from './domains.repo.ts';
import { closestDomain } from './domain-match.ts';
import { isRegistrableDomain } from './registrable-domain.ts';
import { computeReputation, REPUTATION_WINDOW_DAYS } from './reputation.ts';
import { utcDay, warmingState } from './warming.ts';

const DOMAIN_NOT_FOUND = 'Domain not found';
/** The secret-box purpose of DKIM private keys (each purpose has its own derived key). */
export const DKIM_KEY_PURPOSE = 'dkim-private-key';
const DKIM_KEY_BITS = 2048;
/** Where notifications about domains point. */
const DOMAIN_SETTINGS_LINK = '/domain-settings';

const DAY_MS = 24 * 60 * 60 * 1000;
const generateKeyPairAsync = promisify(generateKeyPair);

export type SignedInUser = { id: string; plan: string };

/** The DKIM selector for keys made in `now`'s month: 'sw' + yyyymm, so a rotated key gets a new name. */
function dkimSelectorFor(now: Date): string {
  return `sw${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** A fresh 2048-bit RSA key pair: the public key as base64 DER SPKI (the DKIM `p=`), the private key as PKCS#8 PEM. */
async function generateDkimKeyPair(): Promise<{ publicKey: string; privateKeyPem: string }> {
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: DKIM_KEY_BITS,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey: publicKey.toString('base64'), privateKeyPem: privateKey };
}

const statusOf = (value: string): DnsRecordStatus => (value === 'verified' || value === 'wrong' ? value : 'missing');

/** The return path records of a domain: MX at our inbound server and SPF, at bounces.<domain>. */
function returnPathRecordsOf(row: repo.DomainRow, config: Config): DnsRecord[] {
  const record = (kind: 'bounce-mx' | 'bounce-spf', status: string, found: string | null): DnsRecord => {
    const s = statusOf(status);
    return {
      kind,
      type: kind === 'bounce-mx' ? 'MX' : 'TXT',
      ...(kind === 'bounce-mx' ? { priority: BOUNCE_MX_PRIORITY } : {}),
      host: bounceHost(row.domain),
      value: kind === 'bounce-mx' ? config.inboundSmtp.mxHost : spfRecordValue(config.spfInclude),
      status: s,
      found: s === 'wrong' ? found : null,
      note: recordNote(kind, s, found, config.spfInclude),
    };
  };
  return [
    record('bounce-mx', row.bounceMxStatus, row.bounceMxFound),
    record('bounce-spf', row.bounceSpfStatus, row.bounceSpfFound),
  ];
}

/** Whether the domain's own return path (bounces.<domain>) is published: both its records verified. */
export function returnPathVerified(row: Pick<repo.DomainRow, 'bounceMxStatus' | 'bounceSpfStatus'>): boolean {
  return row.bounceMxStatus === 'verified' && row.bounceSpfStatus === 'verified';
}

function recordsOf(row: repo.DomainRow, spfMechanism: string): DnsRecord[] {
  const record = (
    kind: DnsRecordKind,
    host: string,
    value: string,
    status: string,
    found: string | null,
  ): DnsRecord => {
    const s = statusOf(status);
    return {
      kind,
      type: 'TXT',
      host,
      value,
      status: s,
      found: s === 'wrong' ? found : null,
      note: recordNote(kind, s, found, spfMechanism),
    };
  };
  return [
    record('spf', spfHost(row.domain), row.spfRecord, row.spfStatus, row.spfFound),
    record('dkim', dkimHost(row.domain, row.dkimSelector), row.dkimRecord, row.dkimStatus, row.dkimFound),
    record('dmarc', dmarcHost(row.domain), row.dmarcRecord, row.dmarcStatus, row.dmarcFound),
  ];
}

/** The days the complaint rate is shown over, as Google Postmaster Tools shows it. */
const COMPLAINT_WINDOW_DAYS = 7;

/** The API shape of a domain, with its warming state and reputation as of `now`. */
function toDomain(
  row: repo.DomainRow,
  counts: repo.SendCounts | undefined,
  feedback: { bounces: number; complaints: number } | undefined,
  lastWeek: { sent: number; complaints: number },
  config: Config,
  now: Date,
): Domain {
  const warming = warmingState(row.warmingStartedAt, now);
  const sentToday = counts?.sentToday ?? 0;
  const sentLast30Days = counts?.sentInWindow ?? 0;
  const domainAgeDays = Math.max(0, Math.floor((now.getTime() - row.createdAt.getTime()) / DAY_MS));
  const reputation = computeReputation({
    sent: sentLast30Days,
    bounces: feedback?.bounces ?? 0,
    complaints: feedback?.complaints ?? 0,
    domainAgeDays,
  });
  return {
    id: row.id,
    domain: row.domain,
    isVerified: row.isVerified,
    isPrimary: row.isPrimary,
    createdAt: row.createdAt.toISOString(),
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    senderScore: reputation.senderScore,
    bounceRate: reputation.bounceRate,
    spamRate: reputation.spamRate,
    complaintRate7Days: {
      ...lastWeek,
      rate:
        lastWeek.sent === 0
          ? null
          : Math.round((100_000 * Math.min(lastWeek.complaints, lastWeek.sent)) / lastWeek.sent) / 1000,
    },
    warmingProgress: warming.progress,
    spfRecord: row.spfRecord,
    dkimRecord: row.dkimRecord,
    dmarcRecord: row.dmarcRecord,
    dkimSelector: row.dkimSelector,
    records: recordsOf(row, config.spfInclude),
    returnPathRecords: returnPathRecordsOf(row, config),
    returnPathVerified: returnPathVerified(row),
    warming: {
      status: warming.status,
      week: warming.week,
      totalWeeks: 4,
      dailyLimit: warming.dailyLimit,
      nextIncreaseInDays: warming.nextIncreaseInDays,
      sentToday,
      remainingToday: warming.dailyLimit === null ? null : Math.max(0, warming.dailyLimit - sentToday),
      startedAt: row.warmingStartedAt?.toISOString() ?? null,
    },
    reputation: { label: reputation.label, sentLast30Days, domainAgeDays },
  };
}

/** `allOfUser` is the user's whole domain list when the caller already has it (rows may be just one). */
async function toDomains(
  db: Db,
  config: Config,
  rows: repo.DomainRow[],
  now: Date,
  allOfUser?: repo.DomainRow[],
): Promise<Domain[]> {
  const windowStart = new Date(now.getTime() - (REPUTATION_WINDOW_DAYS - 1) * DAY_MS);
  const counts = await repo.sendCounts(
    db,
    rows.map((row) => row.id),
    utcDay(now),
    utcDay(windowStart),
  );
  // The last 7 days (today included), the window Google Postmaster Tools shows a spam rate for.
  const weekStart = new Date(now.getTime() - (COMPLAINT_WINDOW_DAYS - 1) * DAY_MS);
  const weekCounts = await repo.sendCounts(
    db,
    rows.map((row) => row.id),
    utcDay(now),
    utcDay(weekStart),
  );
  // Each From domain's bounces and complaints count for the domain its mail is sent as (itself or
  // its closest registered parent), the same match that applies warming caps and DKIM.
  const feedback = new Map<number, { bounces: number; complaints: number }>();
  const weekComplaints = new Map<number, number>();
  const userId = rows[0]?.userId;
  if (userId) {
    const owned = allOfUser ?? (await repo.listDomains(db, userId));
    for (const entry of await repo.feedbackByFromDomain(db, userId, new Date(utcDay(windowStart)))) {
      const owner = closestDomain(owned, entry.fromDomain);
      if (!owner) continue;
      const total = feedback.get(owner.id) ?? { bounces: 0, complaints: 0 };
      feedback.set(owner.id, {
        bounces: total.bounces + entry.bounces,
        complaints: total.complaints + entry.complaints,
      });
    }
    for (const entry of await repo.feedbackByFromDomain(db, userId, new Date(utcDay(weekStart)))) {
      const owner = closestDomain(owned, entry.fromDomain);
      if (owner) weekComplaints.set(owner.id, (weekComplaints.get(owner.id) ?? 0) + entry.complaints);
    }
  }
  return rows.map((row) =>
    toDomain(
      row,
      counts.get(row.id),
      feedback.get(row.id),
      { sent: weekCounts.get(row.id)?.sentInWindow ?? 0, complaints: weekComplaints.get(row.id) ?? 0 },
      config,
      now,
    ),
  );
}

/**
 * Refuses (400) a name that cannot be a registered domain (public suffix list; see
 * isRegistrableDomain), so no look-up goes to names nobody owns or to a whole suffix.
 */
function requireRegistrable(config: Config, name: string): void {
  if (!isRegistrableDomain(name, config.allowTestDomains)) {
    throw new AppError('bad_request', NOT_A_REGISTRABLE_DOMAIN, { domain: NOT_A_REGISTRABLE_DOMAIN });
  }
}

async function requireDomain(db: Db, userId: string, id: number): Promise<repo.DomainRow> {
  const row = await repo.findDomain(db, userId, id);
  if (!row) throw new AppError('not_found', DOMAIN_NOT_FOUND);
  return row;
}

/** The user's domains, primary first. */
export async function domainsOf(db: Db, config: Config, userId: string, now: Date = new Date()): Promise<Domain[]> {
  const all = await repo.listDomains(db, userId);
  return toDomains(db, config, all, now, all);
}

export async function domainOf(
  db: Db,
  config: Config,
  userId: string,
  id: number,
  now: Date = new Date(),
): Promise<Domain> {
  const [domain] = await toDomains(db, config, [await requireDomain(db, userId, id)], now);
  if (!domain) throw new AppError('not_found', DOMAIN_NOT_FOUND);
  return domain;
}

function domainLimitOf(planId: string): { name: string; limit: number | null } {
  const parsed = planIdSchema.safeParse(planId);
  const plan = planCatalogue[parsed.success ? parsed.data : 'pro'];
  return { name: plan.name, limit: plan.limits.domains };
}

function planLimitError(planId: string): AppError {
  const { name, limit } = domainLimitOf(planId);
  return new AppError(
    'forbidden',
    `Your ${name} plan allows ${limit} sending domain${limit === 1 ? '' : 's'}. Remove a domain or upgrade your plan to add another.`,
  );
}

function atLimit(config: Pick<Config, 'billingEnabled'>, planId: string, current: number): boolean {
  const limit = planLimitsOf(config, { plan: planId }).domains;
  return limit !== null && current >= limit;
}

/**
 * Adds a sending domain: a fresh DKIM key pair (private key sealed at rest), the three records to
 * publish, primary if it is the user's first domain; then a first look-up, so a domain whose
 * records are already published answers isVerified at once.
 */
export async function addDomain(
  db: Db,
  config: Config,
  user: SignedInUser,
  name: string,
  now: Date = new Date(),
): Promise<Domain> {
  // Cheap refusals first, so a bad name, a duplicate or an over-limit request costs no key generation.
  requireRegistrable(config, name);
  if (await repo.findDomainByName(db, user.id, name)) throw new AppError('conflict', DOMAIN_ALREADY_ADDED);
  if (atLimit(config, user.plan, await domainCountOf(db, user.id))) throw planLimitError(user.plan);

  const { publicKey, privateKeyPem } = await generateDkimKeyPair();
  let row: repo.DomainRow;
  try {
    row = await db.transaction(async (tx) => {
      const plan = (await repo.lockUserPlan(tx, user.id)) ?? user.plan;
      if (atLimit(config, plan, await domainCountOf(tx, user.id))) throw planLimitError(plan);
      const isFirst = !(await repo.hasPrimaryDomain(tx, user.id));
      return repo.insertDomain(tx, {
        userId: user.id,
        domain: name,
        dkimSelector: dkimSelectorFor(now),
        dkimPrivateKeyEncrypted: sealSecret(config.sessionSecret, DKIM_KEY_PURPOSE, privateKeyPem),
        dkimPublicKey: publicKey,
        spfRecord: spfRecordValue(config.spfInclude),
        dkimRecord: dkimRecordValue(publicKey),
        dmarcRecord: dmarcRecordValue(name),
        isPrimary: isFirst,
        createdAt: now,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict', DOMAIN_ALREADY_ADDED);
    throw error;
  }
  await checkDomain(db, config, row.id, { now, source: 'user' });
  return domainOf(db, config, user.id, row.id, now);
}

/** Looks the domain's records up now and answers the updated domain (a name added before the public-suffix check is refused). */
export async function verifyDomain(
  db: Db,
  config: Config,
  userId: string,
  id: number,
  now: Date = new Date(),
): Promise<Domain> {
  const row = await requireDomain(db, userId, id);
  requireRegistrable(config, row.domain);
  await checkDomain(db, config, row.id, { now, source: 'user' });
  return domainOf(db, config, userId, id, now);
}

/** Deletes the domain (its daily counts go with it); if it was primary, the oldest remaining domain becomes primary. */
export async function deleteDomain(db: Db, userId: string, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await repo.deleteDomain(tx, userId, id);
    if (!row) throw new AppError('not_found', DOMAIN_NOT_FOUND);
    if (row.isPrimary) await repo.promoteOldestDomain(tx, userId);
  });
}

/** Makes the domain the user's primary sending domain. */
export async function makePrimaryDomain(db: Db, config: Config, userId: string, id: number): Promise<Domain> {
  const found = await db.transaction((tx) => repo.setPrimaryDomain(tx, userId, id));
  if (!found) throw new AppError('not_found', DOMAIN_NOT_FOUND);
  return domainOf(db, config, userId, id);
}

export type CheckOutcome = 'verified' | 'pending' | 'lost' | 'gone';

/**
 * One verification of a domain: the look-ups happen first (no lock held over the network), then,
 * with the row locked, each record with a definitive answer takes its new status and a record
 * whose look-up failed keeps its previous one; lastCheckedAt is recorded either way. The domain is
 * verified when all three records are. A verified domain that stops being verified goes back to
 * pending and its owner gets a notification; a domain verified by the background check tells its
 * owner too. Running it twice changes nothing more and notifies once.
 */
export async function checkDomain(
  db: Db,
  config: Config,
  id: number,
  options: { now?: Date; source: 'user' | 'job' },
): Promise<CheckOutcome> {
  const now = options.now ?? new Date();
  const snapshot = await repo.findDomainById(db, id);
  if (!snapshot) return 'gone';
  const checks = await checkDomainRecords(
    dnsResolver(config.dnsServers),
    snapshot,
    config.spfInclude,
    config.inboundSmtp.mxHost,
  );
  return db.transaction(async (tx) => {
    const current = await repo.lockDomain(tx, id);
    if (!current) return 'gone';
    const next = mergeChecks(current, checks);
    const isVerified =
      next.spfStatus === 'verified' && next.dkimStatus === 'verified' && next.dmarcStatus === 'verified';
    await repo.updateDomainCheck(tx, id, {
      ...next,
      isVerified,
      verifiedAt: isVerified ? (current.isVerified ? current.verifiedAt : now) : null,
      warmingStartedAt: current.warmingStartedAt ?? (isVerified ? now : null),
      lastCheckedAt: now,
    });
    if (current.isVerified && !isVerified) {
      const lost = (['spf', 'dkim', 'dmarc'] as const)
        .filter((kind) => next[`${kind}Status`] !== 'verified')
        .map((kind) => kind.toUpperCase());
      await notifyUser(tx, current.userId, {
        title: `${current.domain} is no longer verified`,
        body: `The ${joinKinds(lost)} record${lost.length === 1 ? ' is' : 's are'} missing or changed, so ${current.domain} is pending again. Check your DNS settings.`,
        link: DOMAIN_SETTINGS_LINK,
      });
      return 'lost';
    }
    if (!current.isVerified && isVerified && options.source === 'job') {
      await notifyUser(tx, current.userId, {
        title: `${current.domain} is verified`,
        body: `SPF, DKIM and DMARC are in place. ${current.domain} is ready to send.`,
        link: DOMAIN_SETTINGS_LINK,
      });
    }
    return isVerified ? 'verified' : 'pending';
  });
}

function mergeChecks(current: repo.DomainRow, checks: DomainChecks) {
  const pick = (check: RecordCheck, status: string, found: string | null) =>
    check ? { status: check.status, found: check.found } : { status, found };
  const spf = pick(checks.spf, current.spfStatus, current.spfFound);
  const dkim = pick(checks.dkim, current.dkimStatus, current.dkimFound);
  const dmarc = pick(checks.dmarc, current.dmarcStatus, current.dmarcFound);
  const bounceMx = pick(checks['bounce-mx'], current.bounceMxStatus, current.bounceMxFound);
  const bounceSpf = pick(checks['bounce-spf'], current.bounceSpfStatus, current.bounceSpfFound);
  return {
    bounceMxStatus: bounceMx.status,
    bounceMxFound: bounceMx.found,
    bounceSpfStatus: bounceSpf.status,
    bounceSpfFound: bounceSpf.found,
    spfStatus: spf.status,
    spfFound: spf.found,
    dkimStatus: dkim.status,
    dkimFound: dkim.found,
    dmarcStatus: dmarc.status,
    dmarcFound: dmarc.found,
  };
}

function joinKinds(kinds: string[]): string {
  return kinds.length <= 1 ? (kinds[0] ?? '') : `${kinds.slice(0, -1).join(', ')} and ${kinds.at(-1)}`;
}
