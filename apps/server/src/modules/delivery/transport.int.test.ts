import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { smtpTransport, type SendRecord } from './transport.ts';
import { buildRawMessage } from './message.ts';

/** The SMTP transport against a real server: the record's commit is written with the final dot. */
describe('SMTP transport', () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    sink = await startSmtpSink({ reject: (address) => address.startsWith('nobody@') });
  });
  afterAll(() => sink.close());

  const message = (to: string, html: string) => ({
    userId: 'u',
    campaignId: 1,
    messageId: `<${to}>`,
    from: 'news@acme.example',
    to,
    subject: 'Hi',
    raw: buildRawMessage({
      from: { name: 'Acme', address: 'news@acme.example' },
      to,
      replyTo: null,
      subject: 'Hi',
      html,
      text: 'Hi',
      messageId: `<${to}>`,
      unsubscribeUrl: null,
      isTest: false,
    }),
    isTest: false,
  });

  function trackedRecord() {
    const events: string[] = [];
    const hook = async (): Promise<SendRecord> => {
      events.push('taken');
      return {
        dotDue: () => void events.push('dot due'),
        finish: async (dot) => {
          events.push('committed');
          dot.write();
        },
        rollback: async () => void events.push('rolled back'),
      };
    };
    return { events, hook };
  }

  it('delivers small and large messages (the large one in two writes) and commits each record once', async () => {
    const transport = smtpTransport(sink.url, { maxConnections: 2 });
    try {
      for (const [to, size] of [
        ['small@x.io', 2_000],
        ['large@x.io', 60_000],
      ] as const) {
        const { events, hook } = trackedRecord();
        const html = `<p>${'a line of text. '.repeat(size / 16)}</p>`;
        await transport.send(message(to, html), hook);
        expect(events).toEqual(['taken', 'dot due', 'committed']);
        const received = sink.received.find((m) => m.to.includes(to));
        expect(received?.parsed.html).toBe(html);
      }
    } finally {
      await transport.close();
    }
  });

  it('rolls the record back when the server refuses the recipient, and keeps the connection usable', async () => {
    const transport = smtpTransport(sink.url, { maxConnections: 1 });
    try {
      const refused = trackedRecord();
      await expect(transport.send(message('nobody@x.io', '<p>x</p>'), refused.hook)).rejects.toMatchObject({
        kind: 'reject',
        responseCode: 550,
      });
      // The envelope is pipelined (MAIL, RCPT and DATA in one write), so DATA went before the refusal came.
      expect(refused.events).toEqual(['taken', 'dot due', 'rolled back']);
      const next = trackedRecord();
      await transport.send(message('after@x.io', '<p>y</p>'), next.hook);
      expect(next.events).toEqual(['taken', 'dot due', 'committed']);
    } finally {
      await transport.close();
    }
  });

  it('sends nothing when the record says another worker owns the message', async () => {
    const transport = smtpTransport(sink.url, { maxConnections: 1 });
    try {
      await expect(transport.send(message('owned@x.io', '<p>z</p>'), async () => null)).rejects.toMatchObject({
        kind: 'superseded',
      });
      const after = trackedRecord();
      await transport.send(message('next@x.io', '<p>n</p>'), after.hook);
      expect(sink.received.some((m) => m.to.includes('owned@x.io'))).toBe(false);
      expect(sink.received.some((m) => m.to.includes('next@x.io'))).toBe(true);
    } finally {
      await transport.close();
    }
  });
});
