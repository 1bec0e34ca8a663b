import { describe, expect, it } from 'vitest';
import { redactedUrl } from './request-log.ts';

describe('request URLs in logs (security finding 4: the inbound token was logged as ?token=)', () => {
  it('redacts the value of every token parameter, wherever it stands', () => {
    expect(redactedUrl('/api/webhook/email?token=abc')).toBe('/api/webhook/email?token=[REDACTED]');
    expect(redactedUrl('/api/webhook/email?a=1&TOKEN=abc&b=2')).toBe('/api/webhook/email?a=1&TOKEN=[REDACTED]&b=2');
    expect(redactedUrl('/x?token=a&token=b#frag')).toBe('/x?token=[REDACTED]&token=[REDACTED]#frag');
    expect(redactedUrl('/x?token=')).toBe('/x?token=[REDACTED]');
  });

  it('leaves other parameters and paths alone', () => {
    expect(redactedUrl('/api/contacts?search=token%3Dx&page=2')).toBe('/api/contacts?search=token%3Dx&page=2');
    expect(redactedUrl('/t/o/abc?mytoken=1')).toBe('/t/o/abc?mytoken=1');
  });
});

describe('redactedUrl on provider bounce webhooks', () => {
  it('hides the account token in the path', () => {
    expect(redactedUrl('/api/webhook/bounces/ses/abcDEF123_-xyz?x=1')).toBe('/api/webhook/bounces/ses/[REDACTED]?x=1');
  });
});
