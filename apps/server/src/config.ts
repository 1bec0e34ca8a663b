import { z } from 'zod';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createPrivateKey, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const urlWithProtocols = (protocols: string[]) =>
  optionalString.refine(
    (value) => value === undefined || (URL.canParse(value) && protocols.includes(new URL(value).protocol)),
    { message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}` },
  );

/** proxy-addr's names for address ranges, allowed in TRUST_PROXY beside addresses and CIDRs. */
const NAMED_PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/** One TRUST_PROXY entry: an IP address, a CIDR (`10.0.0.0/8`, `fd00::/8`) or a named range. */
function isProxyAddress(entry: string): boolean {
  if (NAMED_PROXY_RANGES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: urlWithProtocols(['postgres:', 'postgresql:']),
  DATA_DIR: z.string().default('./data'),
  SMTP_URL: urlWithProtocols(['smtp:', 'smtps:']),
  PUBLIC_URL: urlWithProtocols(['http:', 'https:']),
  SESSION_SECRET: optionalString.refine((value) => value === undefined || value.length >= 32, {
    message: 'must be at least 32 characters long',
  }),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_PRICE_STARTER: optionalString,
  STRIPE_PRICE_PRO: optionalString,
  STRIPE_PRICE_ENTERPRISE: optionalString,
  STRIPE_API_BASE: urlWithProtocols(['http:', 'https:']),
  SNS_CERT_ORIGIN: urlWithProtocols(['http:', 'https:']),
  BOUNCE_IMAP_URL: urlWithProtocols(['imaps:', 'imap:']).refine(
    (value) => value === undefined || (new URL(value).username !== '' && new URL(value).hostname !== ''),
    { message: 'must name a user and host, e.g. imaps://bounces%40example.com:password@imap.example.com/INBOX' },
  ),
  BILLING: z.enum(['on', 'off', ''], { error: 'must be on or off' }).optional(),
  DNS_SERVERS: optionalString.refine(
    (value) => value === undefined || value.split(',').every((server) => /^[\d.:a-fA-F[\]]+$/.test(server.trim())),
    { message: 'must be a comma-separated list of IP addresses (optionally with :port)' },
  ),
  SPF_INCLUDE: optionalString.refine(
    (value) => value === undefined || /^((include|ip4|ip6|a|mx):)?[^\s:][^\s]*$/i.test(value),
    {
      message: 'must be one SPF mechanism, e.g. include:_spf.example.com or ip4:203.0.113.5',
    },
  ),
  BOUNCE_DOMAIN: optionalString.refine(
    (value) =>
      value === undefined ||
      /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/i.test(value),
    { message: 'must be a domain name, e.g. bounces.sendwell.example' },
  ),
  MAIL_FROM_DOMAIN: optionalString.refine(
    (value) =>
      value === undefined ||
      /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(value),
    { message: 'must be a domain name, e.g. mail.sendwell.example' },
  ),
  MAIL_DKIM_KEY_FILE: optionalString,
  MAIL_DKIM_SELECTOR: optionalString.refine(
    (value) => value === undefined || /^[a-z0-9][a-z0-9._-]{0,62}$/i.test(value),
    {
      message: 'must be a DNS label, e.g. sendwell',
    },
  ),
  UNLIMITED_EMAILS: optionalString,
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(60),
  LEAD_FORM_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(10),
  LEAD_FORM_CONFIRMATIONS_PER_FORM_HOUR: z.coerce.number().int().positive().default(100),
  LEAD_FORM_CONFIRMATIONS_PER_ACCOUNT_DAY: z.coerce.number().int().positive().default(500),
  GOOGLE_PLACES_API_BASE: z.url().default('https://places.googleapis.com'),
  YELP_API_BASE: z.url().default('https://api.yelp.com'),
  HUNTER_API_BASE: z.url().default('https://api.hunter.io'),
  TRUST_PROXY: optionalString.refine(
    (value) =>
      value === undefined || /^\d{1,2}$/.test(value) || value.split(',').every((entry) => isProxyAddress(entry.trim())),
    {
      message:
        'must be a number of proxy hops (e.g. 1) or a comma-separated list of proxy addresses or CIDRs (e.g. 10.0.0.0/8,127.0.0.1)',
    },
  ),
  REDIS_URL: urlWithProtocols(['redis:', 'rediss:']),
  ALLOW_TEST_DOMAINS: z
    .enum(['true', 'false', ''], { error: 'must be true or false' })
    .optional()
    .transform((value) => value === 'true'),
  WEBHOOK_ALLOW_LOOPBACK: z
    .enum(['true', 'false', ''], { error: 'must be true or false' })
    .optional()
    .transform((value) => value === 'true'),
  SMTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(100).default(10),
  SEND_BATCH_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(3600).default(120),
  SEND_GUARANTEE: z.enum(['after-accept', 'exactly-once']).default('after-accept'),
  UPLOAD_QUOTA_MB: z.coerce.number().int().min(1).max(1_000_000).default(50),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  INBOUND_SMTP_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  INBOUND_SMTP_HOST: z.string().default('0.0.0.0'),
  INBOUND_MX_HOST: optionalString.refine(
    (value) =>
      value === undefined ||
      /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(value),
    { message: 'must be a host name, e.g. mx.sendwell.example' },
  ),
  INBOUND_SMTP_CONNECTIONS_PER_IP: z.coerce.number().int().min(1).max(10_000).default(20),
  INBOUND_SMTP_MESSAGES_PER_IP_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  smtpUrl: string | undefined;
  publicUrl: string;
  secureCookies: boolean;
  sessionSecret: string;
  stripe: {
    secretKey: string | undefined;
    webhookSecret: string | undefined;
    prices: { starter: string | undefined; pro: string | undefined; enterprise: string | undefined };
    /** Where the Stripe SDK sends its calls instead of api.stripe.com (STRIPE_API_BASE; tests use a local fake). */
    apiBase: { host: string; port: number; protocol: 'http' | 'https' } | undefined;
  };
  /** BILLING=off (self-hosting): no plan limits, no upgrade prompts, nobody is asked to pay. */
  billingEnabled: boolean;
  dnsServers: string[];
  /** The SPF mechanism a sending domain's SPF record must carry, e.g. `include:_spf.sendwell.example`. */
  spfInclude: string;
  /**
   * The installation's own mail domain: the From of its own mail (confirmation links) and the envelope
   * sender of mail from addresses on domains no account has verified. MAIL_FROM_DOMAIN, else the PUBLIC_URL host.
   */
  mailFromDomain: string;
  /**
   * The host of per-message (VERP) return paths, `bounces+<token>@` it, whose MX points at Sendwell's
   * inbound server (BOUNCE_DOMAIN); null: return paths stay on the signing or installation domain.
   */
  bounceDomain: string | null;
  /**
   * An origin trusted beside https://sns.<region>.amazonaws.com for SNS signing certificates and
   * subscription links (SNS_CERT_ORIGIN): tests point it at a local server. Refused in production.
   */
  snsCertOrigin: string | null;
  /**
   * The bounce mailbox (BOUNCE_IMAP_URL, imaps://user:pass@host[:port]/INBOX[?processed=Processed]),
   * polled for bounces by installations that cannot receive mail; null when not set. `imap://`
   * (no TLS) is for local servers and tests.
   */
  bounceImap: {
    host: string;
    port: number;
    secure: boolean;
    user: string;
    password: string;
    mailbox: string;
    processedMailbox: string;
  } | null;
  /**
   * The installation's own DKIM key (MAIL_DKIM_KEY_FILE, MAIL_DKIM_SELECTOR), signing as mailFromDomain
   * the mail no verified domain of its account can sign; null when not configured.
   */
  installationDkim: { selector: string; privateKey: string } | null;
  unlimitedEmails: string[];
  authRateLimitPerMinute: number;
  /** Submissions of hosted lead forms (/f/:slug) per client address per minute. */
  leadFormRateLimitPerMinute: number;
  /** Double opt-in mails one hosted form may send in an hour, and one account's forms in a day. */
  leadFormConfirmationCaps: { perFormHour: number; perAccountDay: number };
  /** Where the lead providers' APIs are (tests point them at local servers). */
  leadProviderBases: { google: string; yelp: string; hunter: string };
  /**
   * Which peers' X-Forwarded-For is believed for the client address (rate limits, sign-in delays):
   * false trusts none, a number that many proxy hops, a list those addresses and CIDRs.
   */
  trustProxy: false | number | string[];
  /** Where rate-limit state is shared between API processes; unset keeps it in Postgres. */
  redisUrl: string | undefined;
  /**
   * Accept sending domains under the reserved test names (.test, .example, .invalid, .localhost)
   * beside the public suffix list; for tests and local trials only.
   */
  allowTestDomains: boolean;
  smtpMaxConnections: number;
  /**
   * Outgoing webhooks may go to loopback addresses (and over http there): in development, or with
   * WEBHOOK_ALLOW_LOOPBACK=true for tests. Refused in production; every other private range stays refused.
   */
  webhookAllowLoopback: boolean;
  /** How sent messages are recorded: after the relay's 250 (default), or committed with the final dot. */
  sendGuarantee: 'after-accept' | 'exactly-once';
  /** How long a send batch may run before another worker may take it over (its claims go stale at half). */
  sendBatchTimeoutSeconds: number;
  /** Bytes of uploaded images (logos and editor images) one account may keep. */
  uploadQuotaBytes: number;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /**
   * The inbound SMTP server (mail for users' aliases, when their MX points here): its port, or
   * null when none runs (INBOUND_SMTP_PORT unset; mail then arrives through the webhook only).
   */
  inboundSmtp: {
    port: number | null;
    host: string;
    /** The host name users publish as their domain's MX (INBOUND_MX_HOST, else the PUBLIC_URL host). */
    mxHost: string;
    connectionsPerIp: number;
    messagesPerIpPerMinute: number;
  };
};

/** Thrown when the environment is unusable; main prints it and exits without a stack trace. */
export class ConfigError extends Error {}

/**
 * Reads and validates the environment once. In development a missing SESSION_SECRET is generated
 * and kept in DATA_DIR so sessions and signed links survive restarts; production refuses to start.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  if (e.NODE_ENV === 'production' && !e.SESSION_SECRET) {
    throw new ConfigError(
      'Invalid configuration:\n  SESSION_SECRET: is required in production (at least 32 characters)',
    );
  }
  if (e.NODE_ENV === 'production' && e.SNS_CERT_ORIGIN) {
    throw new ConfigError(
      'Invalid configuration:\n  SNS_CERT_ORIGIN: is for tests only; in production SNS certificates come from sns.<region>.amazonaws.com',
    );
  }
  if (e.NODE_ENV === 'production' && e.WEBHOOK_ALLOW_LOOPBACK) {
    throw new ConfigError(
      'Invalid configuration:\n  WEBHOOK_ALLOW_LOOPBACK: is for tests only; in production webhooks never go to loopback addresses',
    );
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    smtpUrl: e.SMTP_URL,
    publicUrl,
    secureCookies: publicUrl.startsWith('https://'),
    sessionSecret: e.SESSION_SECRET ?? localSecret(dataDir),
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      prices: { starter: e.STRIPE_PRICE_STARTER, pro: e.STRIPE_PRICE_PRO, enterprise: e.STRIPE_PRICE_ENTERPRISE },
      apiBase: stripeApiBase(e.STRIPE_API_BASE),
    },
    billingEnabled: e.BILLING !== 'off',
    dnsServers: (e.DNS_SERVERS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    spfInclude: spfMechanism(e.SPF_INCLUDE, publicUrl),
    mailFromDomain: (e.MAIL_FROM_DOMAIN ?? new URL(publicUrl).hostname).toLowerCase(),
    bounceDomain: e.BOUNCE_DOMAIN?.toLowerCase() ?? null,
    snsCertOrigin: e.SNS_CERT_ORIGIN ? new URL(e.SNS_CERT_ORIGIN).origin : null,
    bounceImap: bounceImapOf(e.BOUNCE_IMAP_URL),
    installationDkim: e.MAIL_DKIM_KEY_FILE
      ? { selector: e.MAIL_DKIM_SELECTOR ?? 'sendwell', privateKey: readDkimKey(e.MAIL_DKIM_KEY_FILE) }
      : null,
    unlimitedEmails: (e.UNLIMITED_EMAILS ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    leadFormRateLimitPerMinute: e.LEAD_FORM_RATE_LIMIT_PER_MINUTE,
    leadFormConfirmationCaps: {
      perFormHour: e.LEAD_FORM_CONFIRMATIONS_PER_FORM_HOUR,
      perAccountDay: e.LEAD_FORM_CONFIRMATIONS_PER_ACCOUNT_DAY,
    },
    leadProviderBases: {
      google: e.GOOGLE_PLACES_API_BASE.replace(/\/$/, ''),
      yelp: e.YELP_API_BASE.replace(/\/$/, ''),
      hunter: e.HUNTER_API_BASE.replace(/\/$/, ''),
    },
    trustProxy: trustedProxies(e.TRUST_PROXY),
    redisUrl: e.REDIS_URL,
    allowTestDomains: e.ALLOW_TEST_DOMAINS,
    smtpMaxConnections: e.SMTP_MAX_CONNECTIONS,
    webhookAllowLoopback: e.NODE_ENV === 'development' || e.WEBHOOK_ALLOW_LOOPBACK,
    sendGuarantee: e.SEND_GUARANTEE,
    sendBatchTimeoutSeconds: e.SEND_BATCH_TIMEOUT_SECONDS,
    uploadQuotaBytes: e.UPLOAD_QUOTA_MB * 1024 * 1024,
    logLevel: e.LOG_LEVEL,
    inboundSmtp: {
      port: e.INBOUND_SMTP_PORT ?? null,
      host: e.INBOUND_SMTP_HOST,
      mxHost: (e.INBOUND_MX_HOST ?? new URL(publicUrl).hostname).toLowerCase(),
      connectionsPerIp: e.INBOUND_SMTP_CONNECTIONS_PER_IP,
      messagesPerIpPerMinute: e.INBOUND_SMTP_MESSAGES_PER_IP_PER_MINUTE,
    },
  };
}

/** BOUNCE_IMAP_URL taken apart (user and password percent-decoded). */
function bounceImapOf(value: string | undefined): Config['bounceImap'] {
  if (!value) return null;
  const url = new URL(value);
  const secure = url.protocol === 'imaps:';
  const mailbox = decodeURIComponent(url.pathname.replace(/^\/+/, '')) || 'INBOX';
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 993 : 143,
    secure,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    mailbox,
    processedMailbox: url.searchParams.get('processed') ?? 'Processed',
  };
}

/** STRIPE_API_BASE as the SDK's host, port and protocol. */
function stripeApiBase(value: string | undefined): Config['stripe']['apiBase'] {
  if (!value) return undefined;
  const url = new URL(value);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

/** TRUST_PROXY as Fastify's trustProxy takes it: nothing trusted when unset. */
function trustedProxies(value: string | undefined): false | number | string[] {
  if (value === undefined) return false;
  if (/^\d+$/.test(value)) return Number(value) === 0 ? false : Number(value);
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** SPF_INCLUDE as a full mechanism (a bare host means `include:`); by default `include:_spf.` + the PUBLIC_URL host. */
function spfMechanism(value: string | undefined, publicUrl: string): string {
  if (!value) return `include:_spf.${new URL(publicUrl).hostname}`;
  return /^(include|ip4|ip6|a|mx):/i.test(value)
    ? value.replace(/^[a-z0-9]+:/i, (prefix) => prefix.toLowerCase())
    : `include:${value}`;
}

/** The PEM private key in `file`, checked to be one (a bad file stops start-up with its name). */
function readDkimKey(file: string): string {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
    createPrivateKey(pem);
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration:\n  MAIL_DKIM_KEY_FILE: must name a readable PEM private key file (${(error as Error).message})`,
    );
  }
  return pem;
}

function localSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
