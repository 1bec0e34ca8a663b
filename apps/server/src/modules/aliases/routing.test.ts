import { describe, expect, it } from 'vitest';
import { autoReplyRefusal, decideRoute, pickByWeight, splitPoint, type RoutingMessage } from './routing.ts';

const message = (extra: Partial<RoutingMessage> = {}): RoutingMessage => ({
  messageId: '<m1@x.example>',
  mailFrom: 'alice@sender.example',
  fromAddress: 'alice@sender.example',
  subject: 'Hello',
  authenticatedSender: 'alice@sender.example',
  hasAttachment: false,
  receivedCount: 1,
  loopAliases: [],
  autoSubmitted: null,
  precedence: null,
  listId: null,
  ...extra,
});
const alias = {
  id: 1,
  address: 'sales@fwd.example',
  destination: 'boss@dest.example',
  forwardingType: 'simple',
  autoReply: false,
  autoReplyMessage: null,
};
const confirmed = new Set(['boss@dest.example', 'a@dest.example', 'b@dest.example']);
const base = { alias, rules: [], destinations: [], confirmed, message: message(), roundRobinTurn: 0 };

describe('routing', () => {
  it('forwards a simple alias to its confirmed destination only', () => {
    expect(decideRoute(base)).toMatchObject({ outcome: 'queued', forwardTo: ['boss@dest.example'] });
    expect(decideRoute({ ...base, confirmed: new Set() })).toMatchObject({
      outcome: 'unrouted',
      forwardTo: [],
      skippedUnconfirmed: ['boss@dest.example'],
    });
  });

  it('takes the first matching active rule by priority order; all given conditions must hold', () => {
    const rules = [
      {
        id: 1,
        name: 'Spam',
        conditions: { fromDomain: 'spam.example' },
        actions: { forwardTo: [], block: true, autoReply: false, autoReplyMessage: null },
      },
      {
        id: 2,
        name: 'Both',
        conditions: { subjectContains: 'INVOICE', hasAttachment: true },
        actions: { forwardTo: ['a@dest.example'], block: false, autoReply: false, autoReplyMessage: null },
      },
      {
        id: 3,
        name: 'Any',
        conditions: {},
        actions: { forwardTo: ['b@dest.example'], block: false, autoReply: false, autoReplyMessage: null },
      },
    ];
    expect(decideRoute({ ...base, rules, message: message({ fromAddress: 'x@mail.spam.example' }) })).toMatchObject({
      outcome: 'blocked',
      rule: { name: 'Spam' },
    });
    expect(
      decideRoute({ ...base, rules, message: message({ subject: 'Your invoice', hasAttachment: true }) }).forwardTo,
    ).toEqual(['a@dest.example']);
    expect(decideRoute({ ...base, rules, message: message({ subject: 'Your invoice' }) }).forwardTo).toEqual([
      'b@dest.example',
    ]);
  });

  it('splits by weight, the same way for the same Message-ID', () => {
    const destinations = [
      { email: 'a@dest.example', weight: 1 },
      { email: 'b@dest.example', weight: 3 },
    ];
    const split = { ...base, alias: { ...alias, forwardingType: 'split', destination: null }, destinations };
    const first = decideRoute(split).forwardTo;
    expect(decideRoute(split).forwardTo).toEqual(first);
    let b = 0;
    for (let i = 0; i < 4000; i += 1)
      if (pickByWeight(destinations, splitPoint(`<m${i}@x>`, 1))?.email === 'b@dest.example') b += 1;
    expect(b / 4000).toBeGreaterThan(0.7);
    expect(b / 4000).toBeLessThan(0.8);
  });

  it('round-robins through confirmed destinations; conditional without a matching rule is unrouted', () => {
    const destinations = [
      { email: 'a@dest.example', weight: 1 },
      { email: 'b@dest.example', weight: 1 },
    ];
    const rr = { ...base, alias: { ...alias, forwardingType: 'round_robin', destination: null }, destinations };
    expect([0, 1, 2].map((turn) => decideRoute({ ...rr, roundRobinTurn: turn }).forwardTo[0])).toEqual([
      'a@dest.example',
      'b@dest.example',
      'a@dest.example',
    ]);
    expect(decideRoute({ ...base, alias: { ...alias, forwardingType: 'conditional' } })).toMatchObject({
      outcome: 'unrouted',
      detail: 'Not forwarded: no rule matched',
    });
  });

  it('refuses loops and null senders', () => {
    expect(decideRoute({ ...base, message: message({ receivedCount: 26 }) }).outcome).toBe('refused');
    expect(decideRoute({ ...base, message: message({ receivedCount: 25 }) }).outcome).toBe('queued');
    expect(decideRoute({ ...base, message: message({ loopAliases: ['sales@fwd.example'] }) }).outcome).toBe('refused');
    expect(decideRoute({ ...base, message: message({ loopAliases: ['other@fwd.example'] }) }).outcome).toBe('queued');
    expect(decideRoute({ ...base, message: message({ mailFrom: '' }) }).outcome).toBe('refused');
  });

  it('never auto-replies to auto-replies, lists, bulk, no-reply or null senders (RFC 3834)', () => {
    expect(autoReplyRefusal(message())).toBeNull();
    expect(autoReplyRefusal(message({ autoSubmitted: 'no' }))).toBeNull();
    expect(autoReplyRefusal(message({ autoSubmitted: 'auto-replied' }))).not.toBeNull();
    expect(autoReplyRefusal(message({ precedence: 'bulk' }))).not.toBeNull();
    expect(autoReplyRefusal(message({ precedence: 'junk' }))).not.toBeNull();
    expect(autoReplyRefusal(message({ listId: '<l.example>' }))).not.toBeNull();
    expect(autoReplyRefusal(message({ mailFrom: 'no-reply@x.example' }))).not.toBeNull();
    expect(autoReplyRefusal(message({ mailFrom: 'MAILER-DAEMON@x.example' }))).not.toBeNull();
    expect(autoReplyRefusal(message({ mailFrom: '' }))).not.toBeNull();
  });

  it('auto-replies only to a sender the message authenticates, and to that address', () => {
    const replying = { ...alias, autoReply: true, autoReplyMessage: 'Away.' };
    expect(autoReplyRefusal(message({ authenticatedSender: null }))).toMatch(/not authenticated/);
    const forged = decideRoute({ ...base, alias: replying, message: message({ authenticatedSender: null }) });
    expect(forged.autoReply).toBeNull();
    const proven = decideRoute({
      ...base,
      alias: replying,
      message: message({ mailFrom: 'alice+ret@mail.sender.example', authenticatedSender: 'alice@sender.example' }),
    });
    expect(proven.autoReply).toEqual({ message: 'Away.', to: 'alice@sender.example' });
    const noDestination = decideRoute({
      ...base,
      alias: { ...replying, destination: null },
      message: message({ authenticatedSender: null }),
    });
    expect(noDestination).toMatchObject({ outcome: 'unrouted', detail: expect.stringMatching(/^No auto-reply: /) });
  });
});
