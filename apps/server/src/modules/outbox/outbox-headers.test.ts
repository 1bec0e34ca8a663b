import { describe, expect, it } from 'vitest';
import { buildRawMessage } from '../delivery/index.ts';
import { readableHeaders } from './outbox.service.ts';

// First-hour finding 10: the Outbox's Headers tab showed subjects as RFC 2047 encoded words.
describe('the Outbox Headers tab', () => {
  it('shows encoded and folded headers as the text they stand for', () => {
    const subject = 'Frühling ist da – 20 % auf alles, nur diese Woche, für alle Kundinnen und Kunden 🌷';
    const raw = buildRawMessage({
      from: { name: 'Gärtnerei Müller', address: 'news@acme.example' },
      to: 'ann@x.io',
      replyTo: null,
      subject,
      html: '<p>x</p>',
      text: 'x',
      messageId: '<1@acme.example>',
      unsubscribeUrl: null,
      isTest: false,
    }).toString('utf8');
    expect(raw).toContain('=?UTF-8?B?');
    const headers = readableHeaders(raw.slice(0, raw.search(/\r?\n\r?\n/)));
    expect(headers).toContain(`Subject: ${subject}`);
    expect(headers).toContain('From: Gärtnerei Müller <news@acme.example>');
    expect(readableHeaders('Subject: =?ISO-8859-1?Q?Gr=FC=DFe_aus_K=F6ln?=')).toBe('Subject: Grüße aus Köln');
    expect(readableHeaders('Subject: =?x-unknown?B?!!?=')).toBe('Subject: =?x-unknown?B?!!?=');
  });
});
