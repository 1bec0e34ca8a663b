/**
 * The lead score, 0–100, computed from the lead's own data (never random). Four parts:
 *
 *   match          0–30  the job title or business categories against the profession searched for:
 *                        30 when they contain the whole profession name, 15 when they share a word
 *                        of it (3+ letters), 0 otherwise or when no profession was searched for
 *   completeness   0–25  5 each: a full name, company, job title, location, phone or website
 *   deliverability 0–30  no address 0; address not checked yet 10; domain with mail servers (MX) 30;
 *                        null MX or no mail servers 0; then disposable → 0, role address −10,
 *                        free-mail address −5 (never below 0)
 *   source quality 0–15  double opt-in form 15, single opt-in form 12, inbound webhook 10,
 *                        CSV with a lawful basis / by hand 8, enrichment (published address) 8,
 *                        business search 6, sample data 0
 */
export type ScoreSource = 'form-confirmed' | 'form' | 'webhook' | 'csv' | 'manual' | 'enrichment' | 'places' | 'sample';

export type AddressVerdict = {
  /** 'unchecked' until the address checks ran; 'mx' mail servers found; 'no-mail' null MX or none. */
  mail: 'unchecked' | 'mx' | 'no-mail';
  disposable: boolean;
  role: boolean;
  freeMail: boolean;
};

export type ScoreInput = {
  email: string | null;
  firstName: string;
  lastName: string;
  company: string | null;
  jobTitle: string | null;
  location: string | null;
  phone: string | null;
  website: string | null;
  /** Business categories a provider gave (Yelp's, Google's types). */
  categories?: string[];
  profession?: string | null;
  source: ScoreSource;
  address?: AddressVerdict;
};

const SOURCE_POINTS: Record<ScoreSource, number> = {
  'form-confirmed': 15,
  form: 12,
  webhook: 10,
  csv: 8,
  manual: 8,
  enrichment: 8,
  places: 6,
  sample: 0,
};

const words = (value: string) =>
  value
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 3);

/** 0–30: how well the title and categories match the profession. */
export function matchPoints(
  profession: string | null | undefined,
  jobTitle: string | null,
  categories: string[],
): number {
  if (!profession?.trim()) return 0;
  const haystack = [jobTitle ?? '', ...categories].join(' | ').toLowerCase();
  if (haystack.includes(profession.trim().toLowerCase())) return 30;
  const have = new Set(words(haystack));
  // "Plumber" matches "Plumbers" and "Plumbing" by their shared stem of five letters or more.
  const stems = [...have].map((word) => word.slice(0, 5));
  return words(profession).some((word) => have.has(word) || stems.includes(word.slice(0, 5))) ? 15 : 0;
}

/** 0–25: 5 per known part of the lead. */
export function completenessPoints(input: ScoreInput): number {
  const parts = [
    input.firstName.trim() !== '' && input.lastName.trim() !== '',
    Boolean(input.company),
    Boolean(input.jobTitle),
    Boolean(input.location),
    Boolean(input.phone || input.website),
  ];
  return parts.filter(Boolean).length * 5;
}

/** 0–30: whether mail to the address can arrive and reach a person who chose to be there. */
export function deliverabilityPoints(email: string | null, address: AddressVerdict | undefined): number {
  if (!email) return 0;
  const verdict = address ?? { mail: 'unchecked', disposable: false, role: false, freeMail: false };
  if (verdict.disposable || verdict.mail === 'no-mail') return 0;
  let points = verdict.mail === 'mx' ? 30 : 10;
  if (verdict.role) points -= 10;
  if (verdict.freeMail) points -= 5;
  return Math.max(0, points);
}

/** The lead's score, 0–100, by the formula above. */
export function scoreLead(input: ScoreInput): number {
  const total =
    matchPoints(input.profession, input.jobTitle, input.categories ?? []) +
    completenessPoints(input) +
    deliverabilityPoints(input.email, input.address) +
    SOURCE_POINTS[input.source];
  return Math.min(100, Math.max(0, total));
}
