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
 * - A message with a send row of its own (a campaign message) gets a per-message local part (VERP,
 *   `bounces+<signed token>`, made by modules/bounces/verp.ts), so its bounce names the row even
 *   when the notice does not. With BOUNCE_DOMAIN set it goes to that host, whose MX points at
 *   Sendwell; SPF is then checked against BOUNCE_DOMAIN (its SPF record must name our servers) and
 *   DMARC alignment rests on the DKIM signature of the From domain.
 *
 * Every feature that sends (campaign batches, single messages) asks here.
 */
export function returnPathFor(input: {
  /** The domain whose key signs the message (a verified domain of the account, or the installation's own), or null. */
  signingDomain: string | null;
  /** The installation's own mail domain (config.mailFromDomain). */
  installationDomain: string;
  /** The message's own VERP local part, when it has a send row. */
  verpLocalPart?: string | null;
  /** Where VERP return paths go (config.bounceDomain), or null for the signing or installation domain. */
  bounceDomain?: string | null;
}): string {
  const domain = input.signingDomain ?? input.installationDomain;
  if (!input.verpLocalPart) return `bounces@${domain}`;
  return `${input.verpLocalPart}@${input.bounceDomain ?? domain}`;
}
