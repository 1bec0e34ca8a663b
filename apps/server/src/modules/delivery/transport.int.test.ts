import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import type { DotHooks } from '../../lib/mail-transport.ts';
import { smtpTransport } from './transport.ts';
import { buildRawMessage } from './message.ts';
import { checkNodemailerSocket } from './adapters/nodemailer-socket.ts';

/** The SMTP transport against a real server, with and without its final dot held for a recorder. */
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
    returnPath: 'bounces+1@bounce.acme.example',
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

  /** Hooks that write the dot, or drop it, and note what they saw. */
  function dotHooks(action: 'write' | 'drop' = 'write') {
    const events: string[] = [];
    const hooks: DotHooks = {
      atFinalDot: (dot) => {
        events.push('dot held');
        if (action === 'write') events.push(dot.write() ? 'dot written' : 'connection gone');
        else dot.drop();
      },
    };
    return { events, hooks };
  }

  it('passes its self-check of the nodemailer socket adapter (fails when a nodemailer upgrade moves what it relies on)', async () => {
    expect(await checkNodemailerSocket()).toBeNull();
  });

  it('delivers small and large messages with the return path as envelope sender, without hooks and with held dots', async () => {
    for (const holdDots of [false, true]) {
      const transport = smtpTransport(sink.url, { maxConnections: 2, holdDots });
      try {
        for (const [to, size] of [
          [`small-${holdDots}@x.io`, 2_000],
          [`large-${holdDots}@x.io`, 60_000],
        ] as const) {
          const { events, hooks } = dotHooks();
          const html = `<p>${'a line of text. '.repeat(size / 16)}</p>`;
          await transport.send(message(to, html), holdDots ? hooks : undefined);
          expect(events).toEqual(holdDots ? ['dot held', 'dot written'] : []);
          const received = sink.received.find((m) => m.to.includes(to));
          expect(received?.parsed.html).toBe(html);
          expect(received?.from).toBe('bounces+1@bounce.acme.example');
        }
      } finally {
        await transport.close();
      }
    }
  });

  it('reports a refused recipient as a reject, never reaching the dot, and keeps the connection usable', async () => {
    const transport = smtpTransport(sink.url, { maxConnections: 1, holdDots: true });
    try {
      const refused = dotHooks();
      await expect(transport.send(message('nobody@x.io', '<p>x</p>'), refused.hooks)).rejects.toMatchObject({
        kind: 'reject',
        responseCode: 550,
        dotWritten: false,
      });
      expect(refused.events).toEqual([]);
      const next = dotHooks();
      await transport.send(message('after@x.io', '<p>y</p>'), next.hooks);
      expect(next.events).toEqual(['dot held', 'dot written']);
    } finally {
      await transport.close();
    }
  });

  it('sends nothing when the hook drops the dot, and the next message goes on a fresh connection', async () => {
    const transport = smtpTransport(sink.url, { maxConnections: 1, holdDots: true });
    try {
      const dropped = dotHooks('drop');
      await expect(transport.send(message('owned@x.io', '<p>z</p>'), dropped.hooks)).rejects.toMatchObject({
        kind: 'retry',
        dotWritten: false,
      });
      await transport.send(message('next@x.io', '<p>n</p>'), dotHooks().hooks);
      expect(sink.received.some((m) => m.to.includes('owned@x.io'))).toBe(false);
      expect(sink.received.some((m) => m.to.includes('next@x.io'))).toBe(true);
    } finally {
      await transport.close();
    }
  });

  // First-hour finding 11: after the relay closed its idle connections, the pool handed them out.
  it('replaces connections the relay closed while idle instead of failing the next messages', async () => {
    const transport = smtpTransport(sink.url, { maxConnections: 3 });
    try {
      await Promise.all(['i1@x.io', 'i2@x.io', 'i3@x.io'].map((to) => transport.send(message(to, '<p>i</p>'))));
      sink.dropConnections();
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (const to of ['j1@x.io', 'j2@x.io', 'j3@x.io', 'j4@x.io', 'j5@x.io']) {
        await transport.send(message(to, '<p>j</p>'));
      }
      expect(sink.received.filter((m) => m.to.some((t) => t.startsWith('j'))).length).toBe(5);
    } finally {
      await transport.close();
    }
  });
});
