/**
 * The envelope sender (SMTP MAIL FROM, the Return-Path) of a message: where bounces go and the
 * domain SPF is checked against. Never the From address itself: that would hand bounces (and the
 * SPF check) to a mailbox Sendwell does not run, and for an address the account only confirmed,
 * to a domain whose SPF record does not name us.
 *
 * - Mail DKIM-signed by one of the account's verified domains returns to `bounces@` that domain,
 *   so SPF and DKIM both align with the From domain (its SPF record carries SPF_INCLUDE).
 * - Anything else (an address the account confirmed by link, on a domain it has not verified; the
 *   installation's own mail) returns to `bounces@` the installation's mail domain (MAIL_FROM_DOMAIN).
 *
 * Every feature that sends (campaign batches, single messages) asks here, so that per-message
 * (VERP) return paths can later be added in this one place.
 */
export function returnPathFor(input: {
  /** The domain whose key signs the message (a verified domain of the account, or the installation's own), or null. */
  signingDomain: string | null;
  /** The installation's own mail domain (config.mailFromDomain). */
  installationDomain: string;
}): string {
  return `bounces@${input.signingDomain ?? input.installationDomain}`;
}
