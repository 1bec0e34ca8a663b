import { describe, expect, it } from 'vitest';
import { receivedStamp, smtpClientOfStamp } from './sender-auth.ts';

const now = new Date('2026-11-29T10:00:00Z');
const body = Buffer.from('From: a@b.example\r\nSubject: hi\r\n\r\nbody\r\n');

describe('the Received stamp a forward reads its SMTP client from', () => {
  it('reads back the client it names, only for a message that came over SMTP, only in our own stamp', () => {
    const stamped = Buffer.concat([
      Buffer.from(receivedStamp('mx.sendwell.test', { ip: '198.51.100.7', helo: 'mail.sender.example' }, now)),
      body,
    ]);
    expect(smtpClientOfStamp(stamped, 'smtp', 'mx.sendwell.test')).toEqual({
      ip: '198.51.100.7',
      helo: 'mail.sender.example',
    });
    // A webhook post may carry any Received line it likes, ours included: never read.
    expect(smtpClientOfStamp(stamped, 'webhook', 'mx.sendwell.test')).toBeNull();
    // A stamp naming another host is not ours.
    expect(smtpClientOfStamp(stamped, 'smtp', 'other.host')).toBeNull();
    expect(smtpClientOfStamp(body, 'smtp', 'mx.sendwell.test')).toBeNull();
  });

  it('keeps a HELO name from writing header lines of its own', () => {
    const stamp = receivedStamp('mx.sendwell.test', { ip: '::ffff:127.0.0.1', helo: 'evil\r\nBcc: x@y.example' }, now);
    expect(stamp.split('\r\n')).toHaveLength(3);
    expect(stamp).toMatch(
      /^Received: from evilBcc:xy\.example \(\[::ffff:127\.0\.0\.1\]\)\r\n\tby mx\.sendwell\.test /,
    );
  });
});
