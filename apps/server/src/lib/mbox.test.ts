import { describe, expect, it } from 'vitest';
import { withoutMboxSeparator } from './mbox.ts';

const strip = (text: string) => withoutMboxSeparator(Buffer.from(text, 'latin1')).toString('latin1');

describe('withoutMboxSeparator', () => {
  it('drops a leading mbox separator line, LF or CRLF', () => {
    expect(strip('From MAILER-DAEMON Tue Jun 11 09:12:44 2024\nFrom: a@x.io\n\nbody\n')).toBe('From: a@x.io\n\nbody\n');
    expect(strip('From MAILER-DAEMON  Tue Jun 11 09:12:44 2024\r\nSubject: s\r\n\r\nb\r\n')).toBe(
      'Subject: s\r\n\r\nb\r\n',
    );
  });

  it("takes one '>' off each quoted From line of such a message (mboxrd), and keeps every other byte", () => {
    const raw = 'From x@y Tue Jun 11 2024\nSubject: é\n\n>From the start\n>>From here\n > From not quoted\nlast\n';
    expect(strip(raw)).toBe('Subject: é\n\nFrom the start\n>From here\n > From not quoted\nlast\n');
  });

  it('leaves any other message as it is: a From: header, quoted lines without a separator', () => {
    for (const raw of ['From: a@x.io\n\n>From quoted\n', 'Subject: s\n\nbody\n', 'From nowhere', '']) {
      expect(strip(raw)).toBe(raw);
    }
  });
});
