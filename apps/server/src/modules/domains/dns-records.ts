import type { DnsRecordKind, DnsRecordStatus } from '@sendwell/contract/domains';
import type { DnsResolver, MxLookup } from '../../lib/dns.ts';

/**
 * The three records a sending domain publishes, and the rules that judge what DNS answers:
 * - SPF: exactly one `v=spf1` TXT record at the domain, well-formed, carrying our mechanism
 *   (SPF_INCLUDE) with a pass qualifier. Two SPF records make SPF fail (RFC 7208 §4.5), so they
 *   are 'wrong' with both shown.
 * - DKIM: a TXT record at `<selector>._domainkey.<domain>` whose `p=` is our public key.
 * - DMARC: exactly one `v=DMARC1` TXT record at `_dmarc.<domain>` with p=none, quarantine or reject.
 * A definitive "no such record" is 'missing'; anything else there that is not right is 'wrong',
 * with what was found (several records separated by new lines).
 */

export type RecordVerdict = { status: DnsRecordStatus; found: string | null };
/** A verdict, or null when DNS gave no definitive answer (the previous status stands). */
export type RecordCheck = RecordVerdict | null;
export type DomainChecks = Record<DnsRecordKind, RecordCheck>;

export type DomainRecordSpec = {
  domain: string;
  dkimSelector: string;
  /** Base64 DER SubjectPublicKeyInfo of the DKIM key. */
  dkimPublicKey: string;
};

/** Separates several found records in the stored `found` text. */
const FOUND_SEPARATOR = '\n';

export function spfHost(domain: string): string {
  return domain;
}
export function dkimHost(domain: string, selector: string): string {
  return `${selector}._domainkey.${domain}`;
}
export function dmarcHost(domain: string): string {
  return `_dmarc.${domain}`;
}
/** The domain's own return path for bounces (VERP addresses `bounces+<token>@` it). */
export function bounceHost(domain: string): string {
  return `bounces.${domain}`;
}
/** The MX preference we ask for on the return path host. */
export const BOUNCE_MX_PRIORITY = 10;

/** The SPF value to publish: our mechanism, then a soft fail for everyone else. */
export function spfRecordValue(mechanism: string): string {
  return `v=spf1 ${mechanism} ~all`;
}
export function dkimRecordValue(publicKeyBase64: string): string {
  return `v=DKIM1; k=rsa; p=${publicKeyBase64}`;
}
/** Monitoring-only DMARC (p=none) with aggregate reports to the domain's own dmarc@ mailbox. */
export function dmarcRecordValue(domain: string): string {
  return `v=DMARC1; p=none; rua=mailto:dmarc@${domain}`;
}

const SPF_VERSION = /^v=spf1(\s|$)/i;
const SPF_MECHANISM =
  /^[+\-~?]?(all|include:\S+|a(:\S+)?(\/\d+){0,2}|mx(:\S+)?(\/\d+){0,2}|ip4:[\d.]+(\/\d+)?|ip6:[\da-f:.]+(\/\d+)?|exists:\S+|ptr(:\S+)?)$/i;
const SPF_MODIFIER = /^[a-z][a-z0-9_.-]*=\S*$/i;

const joinFound = (records: readonly string[]) => records.join(FOUND_SEPARATOR);

/** Judges the TXT records at the domain against our SPF mechanism. */
export function evaluateSpf(txtRecords: readonly string[], mechanism: string): RecordVerdict {
  const spf = txtRecords.filter((record) => SPF_VERSION.test(record.trim()));
  if (spf.length === 0) return { status: 'missing', found: null };
  if (spf.length > 1) return { status: 'wrong', found: joinFound(spf) };
  const record = (spf[0] ?? '').trim();
  const terms = record.split(/\s+/).slice(1);
  const wellFormed = terms.every((term) => SPF_MECHANISM.test(term) || SPF_MODIFIER.test(term));
  const ours = mechanism.toLowerCase();
  const carriesOurs = terms.some((term) => term.replace(/^\+/, '').toLowerCase() === ours);
  return wellFormed && carriesOurs ? { status: 'verified', found: null } : { status: 'wrong', found: record };
}

/** The `tag=value` pairs of a DKIM or DMARC record (tags lower-cased). */
export function parseTags(record: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of record.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    tags.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  return tags;
}

/** Judges the TXT records at the selector against our public key. */
export function evaluateDkim(txtRecords: readonly string[], publicKeyBase64: string): RecordVerdict {
  if (txtRecords.length === 0) return { status: 'missing', found: null };
  const matches = txtRecords.some((record) => {
    const tags = parseTags(record);
    const version = tags.get('v');
    const keyType = tags.get('k');
    return (
      (version === undefined || version === 'DKIM1') &&
      (keyType === undefined || keyType.toLowerCase() === 'rsa') &&
      (tags.get('p') ?? '').replace(/\s+/g, '') === publicKeyBase64
    );
  });
  return matches ? { status: 'verified', found: null } : { status: 'wrong', found: joinFound(txtRecords) };
}

const DMARC_VERSION = /^v\s*=\s*DMARC1\s*(;|$)/i;
const DMARC_POLICIES = new Set(['none', 'quarantine', 'reject']);

/** Judges the TXT records at _dmarc: one DMARC record with a policy of none or stricter. */
export function evaluateDmarc(txtRecords: readonly string[]): RecordVerdict {
  if (txtRecords.length === 0) return { status: 'missing', found: null };
  const dmarc = txtRecords.filter((record) => DMARC_VERSION.test(record.trim()));
  if (dmarc.length !== 1) return { status: 'wrong', found: joinFound(txtRecords) };
  const record = (dmarc[0] ?? '').trim();
  const policy = parseTags(record).get('p')?.toLowerCase();
  return policy && DMARC_POLICIES.has(policy)
    ? { status: 'verified', found: null }
    : { status: 'wrong', found: record };
}

/** Judges the MX records at bounces.<domain>: one of them must be our inbound server. */
function evaluateBounceMx(lookup: MxLookup, mxHost: string): RecordCheck {
  if (lookup.kind === 'failed') return null;
  if (lookup.kind === 'none') return { status: 'missing', found: null };
  if (lookup.kind === 'null-mx') return { status: 'wrong', found: '0 .' };
  const ours = mxHost.toLowerCase().replace(/\.$/, '');
  const hosts = lookup.records.map((r) => ({
    host: r.exchange.toLowerCase().replace(/\.$/, ''),
    priority: r.priority,
  }));
  return hosts.some((r) => r.host === ours)
    ? { status: 'verified', found: null }
    : { status: 'wrong', found: joinFound(hosts.map((r) => `${r.priority} ${r.host}`)) };
}

/** A short explanation of a record's state for the screen; null when there is nothing to add. */
export function recordNote(
  kind: DnsRecordKind,
  status: DnsRecordStatus,
  found: string | null,
  mechanism: string,
): string | null {
  if (status === 'verified') return null;
  if (status === 'missing') return 'No record found yet. DNS changes can take 24-48 hours to propagate.';
  if (kind === 'bounce-mx') return 'The MX record here does not point at our mail server. Publish the value shown.';
  if (kind === 'bounce-spf') return `The SPF record of the return path must include ${mechanism}.`;
  const records = (found ?? '').split(FOUND_SEPARATOR).filter(Boolean);
  if (kind === 'spf') {
    if (records.length > 1)
      return `Found ${records.length} SPF records; a domain may publish only one. Merge them into the single record shown.`;
    return `The SPF record must include ${mechanism}.`;
  }
  if (kind === 'dkim')
    return 'The record here does not carry this domain’s DKIM public key. Replace it with the value shown.';
  if (records.filter((record) => DMARC_VERSION.test(record.trim())).length > 1)
    return 'Found more than one DMARC record; publish only one.';
  return 'The DMARC record must start with v=DMARC1 and set p=none, quarantine or reject.';
}

/** Looks the records up at once; a look-up without a definitive answer gives null. */
export async function checkDomainRecords(
  resolver: DnsResolver,
  spec: DomainRecordSpec,
  spfMechanism: string,
  mxHost: string,
): Promise<DomainChecks> {
  const [spf, dkim, dmarc, bounceMx, bounceSpf] = await Promise.all([
    resolver.resolveTxt(spfHost(spec.domain)),
    resolver.resolveTxt(dkimHost(spec.domain, spec.dkimSelector)),
    resolver.resolveTxt(dmarcHost(spec.domain)),
    resolver.resolveMx(bounceHost(spec.domain)),
    resolver.resolveTxt(bounceHost(spec.domain)),
  ]);
  const records = (lookup: typeof spf) => (lookup.kind === 'found' ? lookup.records : []);
  return {
    spf: spf.kind === 'failed' ? null : evaluateSpf(records(spf), spfMechanism),
    dkim: dkim.kind === 'failed' ? null : evaluateDkim(records(dkim), spec.dkimPublicKey),
    dmarc: dmarc.kind === 'failed' ? null : evaluateDmarc(records(dmarc)),
    'bounce-mx': evaluateBounceMx(bounceMx, mxHost),
    'bounce-spf': bounceSpf.kind === 'failed' ? null : evaluateSpf(records(bounceSpf), spfMechanism),
  };
}
