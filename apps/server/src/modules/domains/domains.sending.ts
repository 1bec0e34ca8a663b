/**
 * What the delivery engine uses from sending domains: the DKIM key to sign with, and the warming
 * cap to send within. Both take the database (or a transaction) and are safe under concurrency.
 */
import type { Config } from '../../config.ts';
import type { DbOrTx } from '../../db/client.ts';
import { openSecret } from '../../lib/secret-box.ts';
import { closestDomain } from './domain-match.ts';
import * as repo from './domains.repo.ts';
import { DKIM_KEY_PURPOSE, returnPathVerified } from './domains.service.ts';
import { bounceHost } from './dns-records.ts';
import { dailyLimit, nextUtcDayStart, utcDay } from './warming.ts';

/** nodemailer's `dkim` option, ready to use: `createTransport({ ..., dkim: key })` or per message. */
export type DkimSigningKey = { domainName: string; keySelector: string; privateKey: string };

/**
 * The key to DKIM-sign mail from `fromDomain` (the From address's domain) for this user: the
 * user's domain of that name, or else its closest registered parent (mail from news.example.com
 * signs as example.com, which DMARC's relaxed alignment accepts). Only a domain whose DKIM record
 * is verified in DNS signs: a signature no receiver can check is worth nothing. Null otherwise.
 */
export async function dkimSigningKeyFor(
  db: DbOrTx,
  config: Config,
  userId: string,
  fromDomain: string,
): Promise<DkimSigningKey | null> {
  const best = closestDomain(await repo.dkimVerifiedDomains(db, userId), fromDomain);
  if (!best) return null;
  return {
    domainName: best.domain,
    keySelector: best.dkimSelector,
    privateKey: openSecret(config.sessionSecret, DKIM_KEY_PURPOSE, best.dkimPrivateKeyEncrypted),
  };
}

/**
 * The key that signs mail from `fromDomain` for this user: the user's verified domain's
 * (dkimSigningKeyFor), else the installation's own key (MAIL_DKIM_KEY_FILE), signing as its mail
 * domain, when one is configured: mail from an address the user only confirmed then still carries
 * a signature receivers can check, if not one aligned with the From. Null when neither.
 */
export async function signingKeyForMail(
  db: DbOrTx,
  config: Config,
  userId: string,
  fromDomain: string,
): Promise<DkimSigningKey | null> {
  const own = await dkimSigningKeyFor(db, config, userId, fromDomain);
  if (own || !config.installationDkim) return own;
  return {
    domainName: config.mailFromDomain,
    keySelector: config.installationDkim.selector,
    privateKey: config.installationDkim.privateKey,
  };
}

/**
 * How the user stands on `fromDomain` as a sender: 'verified' when it or a parent is one of the
 * user's domains with its DKIM record verified (the record carries the user's own key, so it proves
 * control of the domain's DNS; mail from there is signed, as dkimSigningKeyFor picks the same
 * domain); 'unverified' when the user registered it (or a parent) without that proof; null when it
 * is not the user's at all (another account's domain is that too). `domain` names the domain meant.
 */
export async function domainStandingFor(
  db: DbOrTx,
  userId: string,
  fromDomain: string,
): Promise<{ status: 'verified' | 'unverified'; domain: string } | null> {
  const verified = closestDomain(await repo.dkimVerifiedDomains(db, userId), fromDomain);
  if (verified) return { status: 'verified', domain: verified.domain };
  const registered = closestDomain(await repo.listDomains(db, userId), fromDomain);
  return registered ? { status: 'unverified', domain: registered.domain } : null;
}

/**
 * Whether mail to `bounces…@host` is ours to take (the inbound SMTP server's RCPT check): the
 * installation's own mail, bounce and MX hosts, and every domain an account verified (and its
 * bounces. host, where return paths of its mail point).
 */
export async function servesMailHost(
  db: DbOrTx,
  config: Pick<Config, 'mailFromDomain' | 'bounceDomain' | 'inboundSmtp'>,
  host: string,
): Promise<boolean> {
  const name = host.toLowerCase().replace(/\.$/, '');
  if ([config.mailFromDomain, config.bounceDomain, config.inboundSmtp.mxHost].includes(name)) return true;
  return repo.isVerifiedMailHost(db, name);
}

/** The user's domains mail may come from at any address (those whose DKIM record is verified), primary first. */
export async function verifiedSendingDomains(db: DbOrTx, userId: string): Promise<string[]> {
  return (await repo.listDomains(db, userId)).filter((row) => row.dkimStatus === 'verified').map((row) => row.domain);
}

/** The user's domain whose warming caps apply to mail from `fromDomain` (verified or not). */
export async function sendingDomainFor(db: DbOrTx, userId: string, fromDomain: string): Promise<{ id: number } | null> {
  const match = closestDomain(await repo.listDomains(db, userId), fromDomain);
  return match ? { id: match.id } : null;
}

export type SendReservation = {
  /** How many of the wanted messages may go out now (0..wanted). */
  granted: number;
  /** The UTC day ('YYYY-MM-DD') the reservation counts on; give it to releaseDailySends. */
  day: string;
  /** Today's warming cap; null when warming is complete (no cap). */
  dailyLimit: number | null;
  /** The domain's count for today, including what was just granted. */
  sentToday: number;
  /** When the rest may go: the start of the next UTC day; null when everything was granted. */
  resumesAt: Date | null;
};

/**
 * Reserves up to `wanted` sends on the domain for today's UTC day, never past the warming cap.
 * The day's count row is locked while it is read and raised, so concurrent workers never exceed
 * the cap together. The caller sends `granted` messages now and defers the rest to `resumesAt`
 * (the campaign shows 'paused until …'); messages that then fail to go out can be handed back
 * with releaseDailySends. Pass the transaction that records the sends to make both one step.
 */
export async function reserveDailySends(
  tx: DbOrTx,
  domainId: number,
  wanted: number,
  now: Date = new Date(),
): Promise<SendReservation> {
  const want = Math.max(0, Math.floor(wanted));
  const day = utcDay(now);
  return tx.transaction(async (inner) => {
    const domain = await repo.findDomainById(inner, domainId);
    if (!domain) return { granted: 0, day, dailyLimit: 0, sentToday: 0, resumesAt: null };
    const cap = dailyLimit(domain.warmingStartedAt, now);
    const sent = await repo.lockDailySends(inner, domainId, day);
    const granted = cap === null ? want : Math.min(want, Math.max(0, cap - sent));
    if (granted > 0) await repo.addDailySends(inner, domainId, day, granted);
    return {
      granted,
      day,
      dailyLimit: cap,
      sentToday: sent + granted,
      resumesAt: granted < want ? nextUtcDayStart(now) : null,
    };
  });
}

/** Hands back reserved sends that did not go out (on the reservation's day), so the counts stay real sends. */
export async function releaseDailySends(tx: DbOrTx, domainId: number, count: number, day: string): Promise<void> {
  if (count > 0) await repo.addDailySends(tx, domainId, day, -Math.floor(count));
}

/**
 * The host of VERP return paths for mail signed as `signingDomain`: bounces.<domain> when the
 * account's domain publishes the return path records we ask for (MX at our inbound server, SPF
 * naming us; both verified), else BOUNCE_DOMAIN (null: the signing or installation domain).
 */
export async function bounceHostFor(
  db: DbOrTx,
  config: Pick<Config, 'bounceDomain'>,
  userId: string,
  signingDomain: string | null,
): Promise<string | null> {
  if (signingDomain) {
    const row = await repo.findDomainByName(db, userId, signingDomain);
    if (row && returnPathVerified(row)) return bounceHost(row.domain);
  }
  return config.bounceDomain;
}
