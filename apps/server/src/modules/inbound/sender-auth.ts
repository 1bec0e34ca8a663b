import { getDomain } from 'tldts';
import type { AppContext } from '../../context.ts';
import { dnsResolver } from '../../lib/dns.ts';

/**
 * Who sent an inbound message, as far as the message proves it. An auto-reply goes only to a
 * sender proven here (anything else would let anyone aim our mail at a stranger by forging a From
 * or an envelope sender: backscatter, or a spam cannon through a webhook whose envelope the poster
 * chooses):
 * - a DKIM signature that verifies (through the app's DNS servers), by a domain aligned with the
 *   From's (the same organizational domain, DMARC's relaxed alignment): the From address is proven;
 * - over SMTP only, SPF passing for the envelope sender from the connecting address, the envelope
 *   sender's domain aligned with the From's: the envelope sender is proven.
 * A webhook post carries no connecting address we saw, so only its DKIM signature can prove it.
 */

/** A resolver for mailauth: TXT, A, AAAA and MX through the app's DNS servers (DNS_SERVERS), anything else "not found". */
export function mailauthResolver(ctx: Pick<AppContext, 'config'>) {
  const dns = dnsResolver(ctx.config.dnsServers);
  return async (name: string, type: string) => {
    if (type === 'TXT') return dns.resolveTxtRaw(name);
    if (type === 'A' || type === 'AAAA' || type === 'MX') return dns.resolveRaw(name, type);
    const error = new Error(`no ${type} look-ups here`) as Error & { code: string };
    error.code = 'ENOTFOUND';
    throw error;
  };
}

/** The SMTP client's side of a session: the address it connected from and the name it gave. */
export type SmtpClientInfo = { ip: string; helo: string };

export type SenderProof = { proven: true; address: string; by: 'dkim' | 'spf' } | { proven: false; reason: string };

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/** Whether two domains are aligned (relaxed, as DMARC): the same organizational domain. */
export function alignedDomains(a: string, b: string): boolean {
  const left = a.toLowerCase().replace(/\.$/, '');
  const right = b.toLowerCase().replace(/\.$/, '');
  if (left === right) return true;
  const orgLeft = getDomain(left, { allowPrivateDomains: true }) ?? left;
  const orgRight = getDomain(right, { allowPrivateDomains: true }) ?? right;
  return orgLeft === orgRight;
}

/**
 * What proves the sender of `raw` (see the top of this file). `fromAddress` is the From header's
 * address (lower-case, '' when none), `mailFrom` the envelope sender ('' for a null sender).
 */
export async function proveSender(
  ctx: Pick<AppContext, 'config'>,
  input: { raw: Buffer; fromAddress: string; mailFrom: string; smtp?: SmtpClientInfo | null },
): Promise<SenderProof> {
  const { fromAddress, mailFrom } = input;
  if (!fromAddress.includes('@')) return { proven: false, reason: 'the message has no From address' };
  const fromDomain = domainOf(fromAddress);
  const resolver = mailauthResolver(ctx);
  // Loaded at the first inbound message, not at start.
  const [{ dkimVerify }, { spf }] = await Promise.all([
    import('mailauth/lib/dkim/verify.js'),
    import('mailauth/lib/spf/index.js'),
  ]);
  try {
    const verified = (await dkimVerify(input.raw, { resolver } as never)) as {
      results?: { signingDomain?: string; status?: { result?: string } }[];
    };
    const aligned = (verified.results ?? []).some(
      (result) =>
        result.status?.result === 'pass' &&
        typeof result.signingDomain === 'string' &&
        alignedDomains(result.signingDomain, fromDomain),
    );
    if (aligned) return { proven: true, address: fromAddress, by: 'dkim' };
  } catch {
    // A message mailauth cannot read proves nothing; SPF may still.
  }
  if (input.smtp && mailFrom.includes('@') && alignedDomains(domainOf(mailFrom), fromDomain)) {
    try {
      const result = (await spf({
        sender: mailFrom,
        ip: input.smtp.ip,
        helo: input.smtp.helo,
        resolver,
      } as never)) as { status?: { result?: string } };
      if (result.status?.result === 'pass') return { proven: true, address: mailFrom, by: 'spf' };
    } catch {
      // no SPF verdict: not proven
    }
  }
  return {
    proven: false,
    reason: input.smtp
      ? 'the sender is not authenticated (no aligned DKIM signature that verifies, and SPF does not pass for it)'
      : 'the sender is not authenticated (no aligned DKIM signature that verifies)',
  };
}

const STAMP_BY = '(Sendwell inbound)';

/**
 * The Received line we put on a message that came over SMTP before it is stored, naming its client
 * as a receiving MTA does. It is how a forward, sent later by a job, knows the client again for the
 * SPF verdict of its ARC seal (RFC 8617).
 */
export function receivedStamp(host: string, smtp: SmtpClientInfo, now: Date): string {
  const helo = smtp.helo.replace(/[^A-Za-z0-9.\-_[\]:]/g, '') || 'unknown';
  const ip = smtp.ip.replace(/[^0-9A-Fa-f.:]/g, '');
  return `Received: from ${helo} ([${ip}])\r\n\tby ${host} ${STAMP_BY} with ESMTP; ${now.toUTCString().replace(/GMT$/, '+0000')}\r\n`;
}

/**
 * The SMTP client named by our own stamp, the first line of a stored message that came over SMTP;
 * null for any other message (a webhook post's Received lines are the poster's word, never read).
 */
export function smtpClientOfStamp(raw: Buffer, via: string, host: string): SmtpClientInfo | null {
  if (via !== 'smtp') return null;
  const head = raw.subarray(0, 600).toString('latin1');
  const match = /^Received: from (\S+) \(\[([0-9A-Fa-f.:]+)\]\)\r\n\tby (\S+) \(Sendwell inbound\) with ESMTP;/.exec(
    head,
  );
  if (!match || match[3] !== host) return null;
  return { helo: match[1] ?? '', ip: match[2] ?? '' };
}
