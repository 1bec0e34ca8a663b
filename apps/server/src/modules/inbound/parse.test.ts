import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { parseInbound, routingMessageOf } from './pipeline.ts';

const head = [
  'From: Alice <alice@sender.example>',
  'To: a0@fwd.example',
  'Subject: Hello\r\n  there',
  'Message-ID: <m1@sender.example>',
  'In-Reply-To: <r1@fwd.example>',
  'References: <r0@fwd.example> <r1@fwd.example>',
  'Auto-Submitted: no',
  'List-Id: <news.sender.example>',
  'MIME-Version: 1.0',
];
const messages: Record<string, string> = {
  'text/plain': [...head, 'Content-Type: text/plain; charset=utf-8', '', 'Hi,', 'body', ''].join('\r\n'),
  'no Content-Type': [...head, '', 'Hi', ''].join('\r\n'),
  'text/html, folded': [...head, 'Content-Type:\r\n text/html; charset=utf-8', '', '<p>Hi</p>', ''].join('\r\n'),
  'text/plain sent as an attachment': [
    ...head,
    'Content-Type: text/plain',
    'Content-Disposition: attachment; filename="a.txt"',
    '',
    'data',
    '',
  ].join('\r\n'),
  'a single PDF part': [
    ...head,
    'Content-Type: application/pdf',
    'Content-Transfer-Encoding: base64',
    '',
    'JVBERi0=',
    '',
  ].join('\r\n'),
  'multipart with an attachment': [
    ...head,
    'Content-Type: multipart/mixed; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain',
    '',
    'Hi',
    '--b1',
    'Content-Type: application/octet-stream',
    'Content-Disposition: attachment; filename="x.bin"',
    'Content-Transfer-Encoding: base64',
    '',
    'AAEC',
    '--b1--',
    '',
  ].join('\r\n'),
};

describe('parseInbound', () => {
  for (const [name, text] of Object.entries(messages)) {
    it(`reads what routing and replies read as a whole parse does: ${name}`, async () => {
      const raw = Buffer.from(text);
      const ours = await parseInbound(raw);
      const whole = await simpleParser(raw);
      expect(routingMessageOf(ours, 'alice@sender.example', ours.messageId ?? '')).toEqual(
        routingMessageOf(whole, 'alice@sender.example', whole.messageId ?? ''),
      );
      expect([ours.messageId, ours.inReplyTo, ours.references, ours.to]).toEqual([
        whole.messageId,
        whole.inReplyTo,
        whole.references,
        whole.to,
      ]);
    });
  }

  it('finds the attachments of the messages that have some', async () => {
    const has = async (name: string) =>
      routingMessageOf(await parseInbound(Buffer.from(messages[name] as string)), 'a@b.example', 'x').hasAttachment;
    expect(await has('text/plain')).toBe(false);
    expect(await has('text/plain sent as an attachment')).toBe(true);
    expect(await has('a single PDF part')).toBe(true);
    expect(await has('multipart with an attachment')).toBe(true);
  });
});
