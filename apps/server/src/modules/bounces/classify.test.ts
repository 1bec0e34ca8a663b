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

describe('the bounce corpus', () => {
  it('holds at least 100 messages from at least 25 mail systems', () => {
    expect(samples.length).toBeGreaterThanOrEqual(100);
    expect(new Set(samples.map((s) => s.system)).size).toBeGreaterThanOrEqual(25);
  });

  it.each(samples.map((s) => [s.file, s] as const))('%s', (_file, sample) => {
    const verdict = classify(readFileSync(path.join(CORPUS, sample.file)), { ownAddresses: ['news@acme.example'] });
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
