import type { DNSResolver } from 'mailauth';
import type { DkimKey } from './transactional.ts';

/**
 * ARC (RFC 8617) on forwarded mail. A forward keeps the sender's DKIM signature, but SPF fails at
 * the next hop (we are not the sender's server) and a rewritten From breaks DMARC: the ARC set is
 * our signed statement of how the message authenticated when it reached us, which receivers that
 * trust us (Gmail asks forwarders for it) use instead of the broken checks.
 *
 * The authentication is of the message as it came in (SPF only when its SMTP client is known: the
 * webhook has none); the seal covers the message as it goes out, after our header changes, so our
 * changes do not break it. A message whose existing chain is broken is not sealed (RFC 8617 §5.1.2
 * lets a sealer add a failing set, but it only tells the receiver what it finds out anyway).
 */

export type ArcSealInput = {
  /** The alias domain's key: the seal's d= and s=. */
  key: DkimKey;
  /** Our host name: the authserv-id of the ARC-Authentication-Results. */
  authServId: string;
  /** The envelope sender the message came with ('' for the null sender). */
  mailFrom: string;
  /** The SMTP client the message came from, when it came over SMTP. */
  smtp: { ip: string; helo: string } | null;
  /** DNS as node's `dns.resolve` answers (mailauth's own type claims strings only; MX answers are objects). */
  resolver: (name: string, type: string) => Promise<unknown>;
  signTime?: Date;
};

/** What the receiver is told: the chain's state (cv=) and the Authentication-Results of the original. */
type ArcVerdict = { cv: 'none' | 'pass' | 'fail'; authResults: string };

/** How `original` authenticated when it reached us, in the terms the ARC set records. */
async function arcVerdictOf(original: Buffer, input: ArcSealInput): Promise<ArcVerdict> {
  // Loaded with the first forward: mailauth's whole verifier is not needed at start.
  const { authenticate } = await import('mailauth');
  const result = await authenticate(original, {
    ...(input.smtp ? { ip: input.smtp.ip, helo: input.smtp.helo } : {}),
    sender: input.mailFrom,
    mta: input.authServId,
    resolver: input.resolver as DNSResolver,
    disableBimi: true,
  });
  const arc = result.arc;
  const state = arc ? arc.status.result : 'none';
  const cv = state === 'pass' ? 'pass' : state === 'none' ? 'none' : 'fail';
  return { cv, authResults: arc && arc.authResults ? arc.authResults : `${input.authServId}; none` };
}

/**
 * One verdict per received message: its forwards to several destinations share the stored bytes
 * (one Buffer per message in a batch), and authenticating it again would repeat every DNS look-up.
 */
const verdicts = new WeakMap<Buffer, Promise<ArcVerdict>>();

function verdictOnce(original: Buffer, input: ArcSealInput): Promise<ArcVerdict> {
  let verdict = verdicts.get(original);
  if (!verdict) {
    verdict = arcVerdictOf(original, input);
    verdicts.set(original, verdict);
    // A failed look-up is not remembered: the forward's retry authenticates again.
    verdict.catch(() => verdicts.delete(original));
  }
  return verdict;
}

/**
 * `outgoing` with an ARC set (ARC-Seal, ARC-Message-Signature, ARC-Authentication-Results) in front,
 * stating how `original` authenticated; `outgoing` unchanged when the original's chain was broken.
 */
export async function withArcSeal(original: Buffer, outgoing: Buffer, input: ArcSealInput): Promise<Buffer> {
  const verdict = await verdictOnce(original, input);
  if (verdict.cv === 'fail') return outgoing;
  const { sealMessage } = await import('mailauth');
  // authResults and cv are read by mailauth's sealer but missing from its published option type.
  const seal = {
    signingDomain: input.key.domainName,
    selector: input.key.keySelector,
    privateKey: input.key.privateKey,
    signTime: input.signTime ?? new Date(),
    authResults: verdict.authResults,
    cv: verdict.cv,
  };
  const headers = await sealMessage(outgoing, seal);
  return headers.length > 0 ? Buffer.concat([headers, outgoing]) : outgoing;
}
