import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BOUNCE_REASONS } from '@sendwell/contract/bounces';
import { classify, classifySmtpResponse } from './classify.ts';

const CORPUS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/bounces');

interface Sample {
  file: string;
  system: string;
  note: string;
  /** Where the notice's words come from (the system's documentation or published notices). */
  source: string;
  /** sisimai's verdict on the notice by its published rules (Reason/*, Rhost/*, SMTP::Failure), where judged. */
  sisimai?: { reason: string; hard: boolean };
  /** Why our verdict deliberately differs from sisimai's (see DESIGN.md). */
  differs?: string;
  expect: {
    kind: string;
    reason: string | null;
    hard: boolean;
    recipient: string | null;
    originalMessageId: string | null;
    feedbackType?: string;
  };
}

const samples = JSON.parse(readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8')) as Sample[];

/**
 * sisimai's reasons in ours (DESIGN.md has the table and the reasons we differ). sisimai's
 * 'feedback' is our complaint, 'vacation' our auto-reply, 'delivered' a delivery report.
 */
const FROM_SISIMAI: Record<string, string> = {
  userunknown: 'user-unknown',
  hostunknown: 'host-unknown',
  hasmoved: 'has-moved',
  notaccept: 'not-accepting-mail',
  mailboxfull: 'mailbox-full',
  mesgtoobig: 'message-too-big',
  emailtoolarge: 'message-too-big',
  exceedlimit: 'message-too-big',
  blocked: 'blocked',
  badreputation: 'blocked',
  requireptr: 'blocked',
  policyviolation: 'policy-violation',
  norelaying: 'policy-violation',
  rejected: 'policy-violation',
  spamdetected: 'spam-detected',
  contenterror: 'content-error',
  virusdetected: 'content-error',
  notcompliantrfc: 'content-error',
  securityerror: 'security-error',
  authfailure: 'security-error',
  failedstarttls: 'security-error',
  toomanyconn: 'rate-limited',
  speeding: 'rate-limited',
  ratelimited: 'rate-limited',
  expired: 'expired',
  systemerror: 'system-error',
  systemfull: 'system-error',
  mailererror: 'system-error',
  syntaxerror: 'system-error',
  networkerror: 'network-error',
  suspend: 'suspended',
  filtered: 'filtered',
  suppressed: 'policy-violation',
  undefined: 'undetermined',
  onhold: 'undetermined',
  feedback: 'complaint',
  vacation: 'auto-reply',
  delivered: 'delivered',
};

const classifyFile = (file: string) =>
  classify(readFileSync(path.join(CORPUS, file)), { ownAddresses: ['news@acme.example'] });

describe('the bounce corpus', () => {
  it('holds at least 300 messages from at least 60 mail systems, each with its source', () => {
    expect(samples.length).toBeGreaterThanOrEqual(300);
    expect(new Set(samples.map((s) => s.system)).size).toBeGreaterThanOrEqual(60);
    expect(samples.filter((s) => !s.source)).toEqual([]);
  });

  it('reports detection and agreement with sisimai, above the floors', () => {
    const verdicts = new Map(samples.map((s) => [s.file, classifyFile(s.file)]));
    const outcome = (s: Sample) => verdicts.get(s.file)!;
    // Detection: a bounce or complaint read as one, with a reason and the recipient the sample names.
    const reports = samples.filter((s) => s.expect.kind === 'bounce' || s.expect.kind === 'complaint');
    const detected = reports.filter((s) => {
      const v = outcome(s);
      return v.kind === s.expect.kind && v.reason !== 'undetermined' && v.recipient === s.expect.recipient;
    });
    // Agreement with the expected verdicts (kind, reason, hard, recipient, Message-ID).
    const agreeing = samples.filter((s) => {
      const v = outcome(s);
      const { feedbackType: _ignored, ...expected } = s.expect;
      return (
        JSON.stringify(expected) ===
        JSON.stringify({
          kind: v.kind,
          reason: v.reason,
          hard: v.hard,
          recipient: v.recipient,
          originalMessageId: v.originalMessageId,
        })
      );
    });
    // Agreement with sisimai's verdicts, where the corpus records them.
    const judged = samples.filter((s) => s.sisimai);
    // A bounce's reason; a delay notice ('other') carries the reason it gives too.
    const ours = (s: Sample) => outcome(s).reason ?? outcome(s).kind;
    const reasonAgrees = judged.filter((s) => FROM_SISIMAI[s.sisimai!.reason] === ours(s));
    const judgedBounces = judged.filter((s) => outcome(s).kind === 'bounce');
    const hardAgrees = judgedBounces.filter((s) => outcome(s).hard === s.sisimai!.hard);
    const share = (part: unknown[], whole: unknown[]) => part.length / Math.max(1, whole.length);
    const percent = (part: unknown[], whole: unknown[]) =>
      `${(100 * share(part, whole)).toFixed(1)}% (${part.length}/${whole.length})`;
    console.log(
      [
        `bounce corpus: ${samples.length} messages from ${new Set(samples.map((s) => s.system)).size} mail systems`,
        `  detection (bounces and complaints read as such, with reason and recipient): ${percent(detected, reports)}`,
        `  agreement with the expected verdicts: ${percent(agreeing, samples)}`,
        `  agreement with sisimai, reason: ${percent(reasonAgrees, judged)}; hard/soft: ${percent(hardAgrees, judgedBounces)}`,
      ].join('\n'),
    );
    // Every disagreement with sisimai is a deliberate one, named in the corpus and in DESIGN.md.
    const undeclared = judged
      .filter((s) => !reasonAgrees.includes(s) || (outcome(s).kind === 'bounce' && outcome(s).hard !== s.sisimai!.hard))
      .filter((s) => !s.differs)
      .map((s) => `${s.file}: ours ${ours(s)}/${outcome(s).hard ? 'hard' : 'soft'}, sisimai ${s.sisimai!.reason}`);
    expect(undeclared).toEqual([]);
    // Floors: set just under today's figures, so a regression of a few messages fails.
    expect(share(detected, reports)).toBeGreaterThanOrEqual(0.97);
    expect(share(agreeing, samples)).toBeGreaterThanOrEqual(0.98);
    expect(share(reasonAgrees, judged)).toBeGreaterThanOrEqual(0.93);
    expect(share(hardAgrees, judgedBounces)).toBeGreaterThanOrEqual(0.98);
  });

  it.each(samples.map((s) => [s.file, s] as const))('%s', (_file, sample) => {
    const verdict = classifyFile(sample.file);
    const { feedbackType, ...expected } = sample.expect;
    expect({
      kind: verdict.kind,
      reason: verdict.reason,
      hard: verdict.hard,
      recipient: verdict.recipient,
      originalMessageId: verdict.originalMessageId,
    }).toEqual(expected);
    if (feedbackType) expect(verdict.feedbackType).toBe(feedbackType);
    if (verdict.kind === 'bounce') expect(BOUNCE_REASONS).toContain(verdict.reason);
  });
});

describe('SMTP-time rejections seen by our own transport', () => {
  it.each([
    ['550 5.1.1 <a@example.com>: Recipient address rejected: User unknown', 'user-unknown', true],
    ['552 5.2.2 Mailbox full', 'mailbox-full', false],
    [
      '421 4.7.0 [TSS04] Messages from 198.51.100.7 temporarily deferred due to unexpected volume',
      'rate-limited',
      false,
    ],
    ['554 5.7.1 Service unavailable; Client host [198.51.100.7] blocked using zen.spamhaus.org', 'blocked', false],
    ['450 4.1.1 <a@example.com>: Recipient address rejected: unverified address', 'user-unknown', false],
    ['550 5.7.26 Unauthenticated email from acme.example is not accepted due to DMARC policy', 'security-error', false],
    ['500 something odd happened', 'undetermined', false],
  ] as const)('%s', (response, reason, hard) => {
    const verdict = classifySmtpResponse(response, 'a@example.com');
    expect({ kind: verdict.kind, reason: verdict.reason, hard: verdict.hard }).toEqual({
      kind: 'bounce',
      reason,
      hard,
    });
  });
});
