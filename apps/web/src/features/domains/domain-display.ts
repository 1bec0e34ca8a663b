import type { DnsRecord, DnsRecordKind, DnsRecordStatus, Domain } from '@sendwell/contract/domains';

/** Spec §9: the verified view closes itself after 2 s. */
export const VERIFIED_CLOSE_MS = 2000;
/** Spec §9: the Domains tab shows 2 skeleton rows while loading. */
export const DOMAIN_SKELETON_ROWS = 2;
/** Spec §8: the toast of a failed domain add. */
export const ADD_DOMAIN_FAILED = 'Failed to add domain. Please try again.';
/** Thresholds the reputation cards compare against (the server's reputation module uses the same). */
export const BOUNCE_THRESHOLD = 2;
export const SPAM_THRESHOLD = 0.1;

export const RECORD_TITLES: Record<DnsRecordKind, string> = {
  spf: 'SPF Record',
  dkim: 'DKIM Record',
  dmarc: 'DMARC Record',
  'bounce-mx': 'Return Path MX',
  'bounce-spf': 'Return Path SPF',
};

export const RECORD_PURPOSES: Record<DnsRecordKind, string> = {
  spf: 'Authorizes Sendwell to send mail for your domain.',
  dkim: 'Signs every message with your domain’s own key.',
  dmarc: 'Tells receivers what to do with mail that fails SPF and DKIM.',
  'bounce-mx': 'Brings bounces of your campaigns back to Sendwell at bounces.<your domain>.',
  'bounce-spf': 'Lets your return path pass SPF, aligned with your domain for DMARC.',
};

export const STATUS_LABELS: Record<DnsRecordStatus, string> = {
  verified: 'Verified',
  missing: 'Missing',
  wrong: 'Wrong value',
};

/** The primary domain (spec §2: the highlighted card), else the first in the list. */
export function primaryDomainOf(domains: readonly Domain[] | undefined): Domain | undefined {
  return domains?.find((d) => d.isPrimary) ?? domains?.[0];
}

/** The host as most DNS providers want it typed: relative to the domain, '@' for the domain itself. */
export function relativeHost(record: Pick<DnsRecord, 'host'>, domain: string): string {
  if (record.host === domain) return '@';
  return record.host.endsWith(`.${domain}`) ? record.host.slice(0, -(domain.length + 1)) : record.host;
}

/** How many of the three records are verified. */
export function verifiedCount(domain: Pick<Domain, 'records'>): number {
  return domain.records.filter((r) => r.status === 'verified').length;
}

/** A rate as the screen shows it: '1.2%', or 'No sending yet' when there is none. */
export function formatRate(rate: number | null): string {
  return rate === null ? 'No sending yet' : `${Number(rate.toFixed(2))}%`;
}

/** '… threshold' line under a rate. */
export function thresholdText(rate: number | null, threshold: number): string {
  if (rate === null) return `Kept below ${threshold}% once you send`;
  return rate < threshold ? `Well below ${threshold}% threshold` : `Above the ${threshold}% threshold`;
}

/** 'Added today', '1 day', '12 days', '2+ years'. */
export function formatDomainAge(days: number): string {
  if (days <= 0) return 'Added today';
  if (days >= 730) return `${Math.floor(days / 365)}+ years`;
  if (days >= 365) return '1+ year';
  return `${days} day${days === 1 ? '' : 's'}`;
}

/** 'just now', '5 minutes ago', '3 hours ago', '2 days ago' (for "Last checked …"). */
export function formatTimeAgo(iso: string | null, now: Date = new Date()): string {
  if (!iso) return 'never';
  const seconds = Math.max(0, Math.round((now.getTime() - Date.parse(iso)) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} hour${hours === 1 ? '' : 's'} ago`;
  const days = Math.floor(hours / 24);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}

type WizardStep = 'input' | 'dns' | 'verified';
export type WizardState = { step: WizardStep; domain: Domain | null };
export type WizardEvent =
  { type: 'added'; domain: Domain } | { type: 'checked'; domain: Domain } | { type: 'back' } | { type: 'reset' };

export const WIZARD_START: WizardState = { step: 'input', domain: null };

/**
 * The Add Domain wizard (spec §4): input → (domain added) → verified if the answer says
 * isVerified, else dns; from dns, a check that verifies goes to verified and Back returns to input.
 */
export function wizardReducer(state: WizardState, event: WizardEvent): WizardState {
  switch (event.type) {
    case 'added':
    case 'checked':
      return { step: event.domain.isVerified ? 'verified' : 'dns', domain: event.domain };
    case 'back':
      return { step: 'input', domain: state.domain };
    case 'reset':
      return WIZARD_START;
  }
}

/**
 * Google's bulk-sender lines for the spam rate (support.google.com/a/answer/81126): keep it under
 * 0.1%, never let it reach 0.3%. Gmail judges the rate over days, as Postmaster Tools shows it.
 */
export const GOOGLE_SPAM_TARGET = 0.1;
export const GOOGLE_SPAM_LIMIT = 0.3;

export type ComplaintStanding = { tone: 'none' | 'good' | 'warn' | 'bad'; text: string };

/** Where a 7-day spam rate stands against Google's lines, in words. */
export function complaintStanding(rate: number | null): ComplaintStanding {
  if (rate === null) return { tone: 'none', text: 'No mail sent from this domain in the last 7 days' };
  if (rate < GOOGLE_SPAM_TARGET) return { tone: 'good', text: `Under Google’s ${GOOGLE_SPAM_TARGET}% line` };
  if (rate < GOOGLE_SPAM_LIMIT)
    return {
      tone: 'warn',
      text: `Above Google’s ${GOOGLE_SPAM_TARGET}% line: bring it down before it reaches ${GOOGLE_SPAM_LIMIT}%`,
    };
  return {
    tone: 'bad',
    text: `At or above Google’s ${GOOGLE_SPAM_LIMIT}% line: Gmail may reject or spam-folder this mail`,
  };
}
