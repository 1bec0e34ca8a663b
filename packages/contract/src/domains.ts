import { z } from 'zod';
import { idParamsSchema } from './common.ts';

/** Spec part 2 §5 Domain texts. */
export const DOMAIN_REQUIRED = 'Domain is required';
export const INVALID_DOMAIN = 'Invalid domain format';
export const BARE_DOMAIN_ONLY = 'Enter the bare domain without www. or http://';
export const DOMAIN_ALREADY_ADDED = 'You have already added this domain';
/** The server's refusal of a name whose ending is not on the public suffix list, or that is a public suffix. */
export const NOT_A_REGISTRABLE_DOMAIN = 'Enter a domain you registered, like example.com or example.co.uk';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * WHATWG URL, present in browsers and Node alike; the contract compiles without DOM or Node types,
 * so it is reached through globalThis with the one member used here.
 */
const WhatwgUrl = (globalThis as unknown as { URL: new (input: string) => { hostname: string } }).URL;

/** Non-ASCII names become their punycode form, the way DNS stores them ('bücher.de' → 'xn--bcher-kva.de'). */
function toAsciiHostname(value: string): string | null {
  if (/^[\x21-\x7e]*$/.test(value)) return value;
  try {
    return new WhatwgUrl(`http://${value}`).hostname;
  } catch {
    return null;
  }
}

/** True for a registrable-looking hostname: 2+ labels of letters, digits and inner hyphens, a non-numeric TLD, ≤ 253 characters. */
export function isHostname(value: string): boolean {
  if (value.length > 253) return false;
  const labels = value.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return false;
  return !/^\d+$/.test(labels.at(-1) ?? '');
}

/**
 * What a user pasted, cut down to the bare domain the form asks for: `https://www.example.com/path`
 * becomes `example.com`. The form applies it on paste, so a copied address is cleaned up rather
 * than refused; the API still refuses a name with a scheme or www. (BARE_DOMAIN_ONLY).
 */
export function bareDomain(pasted: string): string {
  return pasted
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/^\/\//, '')
    .replace(/^[^@/]*@/, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d+$/, '')
    .replace(/^www\./i, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * A sending domain as typed: trimmed, lower-cased, one trailing dot dropped, IDN to punycode.
 * 'www.' and 'http(s)://' prefixes are refused with their own message (the form asks for the bare domain).
 */
export const domainNameSchema = z.string({ error: DOMAIN_REQUIRED }).transform((raw, ctx) => {
  const value = raw.trim().toLowerCase().replace(/\.$/, '');
  if (value === '') {
    ctx.addIssue({ code: 'custom', message: DOMAIN_REQUIRED });
    return z.NEVER;
  }
  if (/^(https?:)?\/\//.test(value) || value.startsWith('www.')) {
    ctx.addIssue({ code: 'custom', message: BARE_DOMAIN_ONLY });
    return z.NEVER;
  }
  const ascii = toAsciiHostname(value);
  if (ascii === null || !isHostname(ascii)) {
    ctx.addIssue({ code: 'custom', message: INVALID_DOMAIN });
    return z.NEVER;
  }
  return ascii;
});

/** POST /api/domains */
export const createDomainBodySchema = z.object({ domain: domainNameSchema }, { error: DOMAIN_REQUIRED });
export type CreateDomainBody = z.input<typeof createDomainBodySchema>;

/** `/:id` of a domain: the common id rule (an id that cannot be a row's answers as not found). */
export const domainIdParamsSchema = idParamsSchema;

/**
 * spf, dkim, dmarc: the three a sending domain must publish to be verified. bounce-mx, bounce-spf:
 * the optional return path `bounces.<domain>` (an MX at our inbound server and an SPF record naming
 * us); with both verified, bounces of the domain's campaigns come back to that host.
 */
export const dnsRecordKinds = ['spf', 'dkim', 'dmarc', 'bounce-mx', 'bounce-spf'] as const;
export type DnsRecordKind = (typeof dnsRecordKinds)[number];
export const dnsRecordStatuses = ['verified', 'missing', 'wrong'] as const;
export type DnsRecordStatus = (typeof dnsRecordStatuses)[number];

/** One record the user must publish, and what the last look-up saw. */
export const dnsRecordSchema = z.object({
  kind: z.enum(dnsRecordKinds),
  type: z.enum(['TXT', 'MX']),
  /** The MX preference of an MX record (the value is then the mail server's host name). */
  priority: z.number().int().optional(),
  /** Fully qualified name, e.g. `sw202606._domainkey.example.com`. */
  host: z.string(),
  /** The exact value to publish. */
  value: z.string(),
  status: z.enum(dnsRecordStatuses),
  /** What was found when the status is 'wrong' (several records on separate lines); null otherwise. */
  found: z.string().nullable(),
  /** A short explanation of a missing or wrong record; null when verified. */
  note: z.string().nullable(),
});
export type DnsRecord = z.infer<typeof dnsRecordSchema>;

/** The 4-week warming schedule as it applies to a domain today (see the server's warming module). */
export const domainWarmingSchema = z.object({
  /** not_started until the domain is first verified; complete after 28 days. */
  status: z.enum(['not_started', 'warming', 'complete']),
  /** 1–4 while warming; 4 when complete; 1 before it starts. */
  week: z.number().int(),
  totalWeeks: z.number().int(),
  /** Today's cap on messages from this domain; null once warming is complete (no warming cap). */
  dailyLimit: z.number().int().nullable(),
  /** Days until the cap next rises (or warming completes); null when complete. */
  nextIncreaseInDays: z.number().int().nullable(),
  sentToday: z.number().int(),
  /** Messages still allowed today; null when there is no cap. */
  remainingToday: z.number().int().nullable(),
  startedAt: z.string().nullable(),
});
export type DomainWarming = z.infer<typeof domainWarmingSchema>;

/** Sender reputation over the last 30 days of the domain's own sending. */
export const domainReputationSchema = z.object({
  /** Label band of the sender score (Excellent ≥ 80, Good ≥ 60, Fair ≥ 40, Poor); null with no sending. */
  label: z.enum(['Excellent', 'Good', 'Fair', 'Poor']).nullable(),
  sentLast30Days: z.number().int(),
  /** Whole days since the domain was added. */
  domainAgeDays: z.number().int(),
});

/** A sending domain (spec part 2 §3 Domain, plus its records, primary flag and check times). */
export const domainSchema = z.object({
  id: z.number().int(),
  domain: z.string(),
  isVerified: z.boolean(),
  isPrimary: z.boolean(),
  createdAt: z.string(),
  verifiedAt: z.string().nullable(),
  lastCheckedAt: z.string().nullable(),
  /** 0–100; null while the domain has sent nothing in the last 30 days. */
  senderScore: z.number().int().nullable(),
  /** Percent of sent messages that bounced (last 30 days); null with no sending. */
  bounceRate: z.number().nullable(),
  /** Percent of sent messages reported as spam (last 30 days); null with no sending. */
  spamRate: z.number().nullable(),
  /**
   * Spam complaints over the last 7 days, the window Google Postmaster Tools judges a sender by:
   * messages sent, complaints, and their share in percent (three decimals; null with nothing sent).
   * Google asks bulk senders to stay under 0.1% and never to reach 0.3%.
   */
  complaintRate7Days: z.object({
    sent: z.number().int(),
    complaints: z.number().int(),
    rate: z.number().nullable(),
  }),
  /** 0–100 through the 4-week warming schedule. */
  warmingProgress: z.number().int(),
  spfRecord: z.string(),
  dkimRecord: z.string(),
  dmarcRecord: z.string(),
  dkimSelector: z.string(),
  records: z.array(dnsRecordSchema),
  /**
   * The optional return path for bounces, `bounces.<domain>`: its MX and SPF records. Not needed to
   * verify the domain; when both are verified (returnPathVerified), campaign return paths use it,
   * else BOUNCE_DOMAIN. SPF then passes for bounces.<domain>, which DMARC's relaxed alignment
   * counts as aligned with the From domain.
   */
  returnPathRecords: z.array(dnsRecordSchema),
  returnPathVerified: z.boolean(),
  warming: domainWarmingSchema,
  reputation: domainReputationSchema,
});
export type Domain = z.infer<typeof domainSchema>;

export const domainListSchema = z.array(domainSchema);

/** Where inbound mail for forwarding is posted (shown on the Email Forwarding tab). */
export const INBOUND_WEBHOOK_PATH = '/api/webhook/email';
