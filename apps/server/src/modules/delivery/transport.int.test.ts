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

  // Finding 11 against a relay that itself closes idle connections (smtp-server's socketTimeout: it
  // answers "421 Timeout - closing connection" and hangs up), as the user's relay did after a few minutes.
  it('after the relay closed its idle connections on its own, the next sends (five in a row, and three at once) all go', async () => {
    const idleRelay = await startSmtpSink({ closeIdleAfterMs: 300 });
    const transport = smtpTransport(idleRelay.url, { maxConnections: 3 });
    try {
      await Promise.all(['k1@x.io', 'k2@x.io', 'k3@x.io'].map((to) => transport.send(message(to, '<p>k</p>'))));
      await expect.poll(() => idleRelay.connectionCount(), { timeout: 5_000 }).toBe(0);
      for (const to of ['l1@x.io', 'l2@x.io', 'l3@x.io', 'l4@x.io', 'l5@x.io']) {
        await transport.send(message(to, '<p>l</p>'));
      }
      await expect.poll(() => idleRelay.connectionCount(), { timeout: 5_000 }).toBe(0);
      await Promise.all(['m1@x.io', 'm2@x.io', 'm3@x.io'].map((to) => transport.send(message(to, '<p>m</p>'))));
      const got = idleRelay.received.flatMap((m) => m.to).sort();
      expect(got).toEqual(['k1', 'k2', 'k3', 'l1', 'l2', 'l3', 'l4', 'l5', 'm1', 'm2', 'm3'].map((n) => `${n}@x.io`));
    } finally {
      await transport.close();
      await idleRelay.close();
    }
  });

  // The relay hangs up just as the pool hands out its idle connections (the close not yet seen): each
  // message fails on its dead connection and is retried once on a freshly opened one, sent once.
  it('retries a message whose pooled connection turns out dead on a fresh connection, once', async () => {
    const transport = smtpTransport(sink.url, { maxConnections: 3 });
    try {
      await Promise.all(['n1@x.io', 'n2@x.io', 'n3@x.io'].map((to) => transport.send(message(to, '<p>n</p>'))));
      sink.dropConnections();
      // No wait: the pool has not yet seen the connections close.
      await Promise.all(['o1@x.io', 'o2@x.io', 'o3@x.io'].map((to) => transport.send(message(to, '<p>o</p>'))));
      for (const to of ['o1@x.io', 'o2@x.io', 'o3@x.io']) {
        expect(sink.received.filter((m) => m.to.includes(to)).length).toBe(1);
      }
    } finally {
      await transport.close();
    }
  });
});
