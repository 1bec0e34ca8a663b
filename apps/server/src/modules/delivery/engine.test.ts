import { describe, expect, it, vi } from 'vitest';
import {
  TransportError,
  type DotHooks,
  type OutgoingMessage,
  type SentMessage,
  type Transport,
} from '../../lib/mail-transport.ts';
import { ClaimFeeder, PauseWatcher, ProgressReporter, sendBatch, type Allowance, type BatchStore } from './engine.ts';
import { AfterAcceptRecorder } from './recorder.ts';

type Row = { id: number; email: string };
type LedgerState = 'queued' | 'sending' | 'sent' | 'failed' | 'bounced';

/** A send ledger in memory, with an optional daily allowance, as the engine sees a feature's store. */
class MemoryStore implements BatchStore<Row> {
  readonly claimToken = 'claim-1';
  readonly rows = new Map<number, { email: string; state: LedgerState; error: string | null }>();
  readonly reported: number[] = [];
  readonly bounced: string[] = [];
  active = true;
  deferredTo: Date | null = null;
  givenBack = 0;

  constructor(
    emails: string[],
    private allowanceLeft = Infinity,
  ) {
    emails.forEach((email, i) => this.rows.set(i + 1, { email, state: 'queued', error: null }));
  }

  async claim(limit: number): Promise<Row[]> {
    const claimed: Row[] = [];
    for (const [id, row] of this.rows) {
      if (claimed.length >= limit) break;
      if (row.state !== 'queued') continue;
      row.state = 'sending';
      claimed.push({ id, email: row.email });
    }
    return claimed;
  }
  async compose(row: Row): Promise<OutgoingMessage> {
    return {
      userId: 'u1',
      campaignId: 1,
      messageId: `<${row.id}@acme.example>`,
      returnPath: 'news@acme.example',
      from: 'news@acme.example',
      to: row.email,
      subject: 'Hi',
      raw: Buffer.from(`To: ${row.email}\r\n\r\nHi\r\n`),
      isTest: false,
    };
  }
  async allowance(wanted: number): Promise<Allowance> {
    const granted = Math.min(wanted, this.allowanceLeft);
    this.allowanceLeft -= granted;
    return {
      granted,
      resumesAt: granted < wanted ? new Date('2030-01-02T00:00:00Z') : null,
      giveBack: async (count) => {
        this.allowanceLeft += count;
        this.givenBack += count;
      },
    };
  }
  async isActive() {
    return this.active;
  }
  async requeue(row: Row, error: string | null) {
    const stored = this.rows.get(row.id);
    if (stored?.state === 'sending') Object.assign(stored, { state: 'queued', error });
  }
  async fail(row: Row, error: string, hardBounce: boolean) {
    Object.assign(this.rows.get(row.id) ?? {}, { state: hardBounce ? 'bounced' : 'failed', error });
    if (hardBounce) this.bounced.push(row.email);
  }
  async progress(newlySent: number) {
    this.reported.push(newlySent);
  }
  async deferRest(resumesAt: Date) {
    this.deferredTo = resumesAt;
  }
  async resumed() {}
  async releaseClaims() {
    for (const row of this.rows.values()) if (row.state === 'sending') row.state = 'queued';
  }
  renewals = 0;
  async renewClaims() {
    this.renewals += 1;
  }
  /** The recorder's mark, as the ledger's: rows still claimed, or back in the queue unclaimed, become sent. */
  markSent = async (messages: readonly SentMessage[]) => {
    const owned = new Set<number>();
    for (const message of messages) {
      const row = this.rows.get(message.id);
      if ((row?.state === 'sending' || row?.state === 'queued') && message.claimToken === this.claimToken) {
        row.state = 'sent';
        owned.add(message.id);
      }
    }
    return owned;
  };
  count(state: LedgerState) {
    return [...this.rows.values()].filter((r) => r.state === state).length;
  }
}

/** A transport that answers by address: 550 for `unknown-*`, 554 for `policy-*`, 451 for `later-*`. */
class FakeTransport implements Transport {
  readonly name = 'smtp';
  readonly holdsDots = false;
  readonly sent: string[] = [];
  maxInFlight = 0;
  private inFlight = 0;
  async send(message: OutgoingMessage, _hooks?: DotHooks) {
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await new Promise((resolve) => setImmediate(resolve));
    this.inFlight -= 1;
    if (message.to.startsWith('unknown-')) throw new TransportError('reject', '550 5.1.1 no such user', 550);
    if (message.to.startsWith('policy-')) throw new TransportError('reject', '554 5.7.1 blocked by policy', 554);
    if (message.to.startsWith('later-')) throw new TransportError('retry', '451 try again later', 451);
    this.sent.push(message.to);
  }
  async close() {}
}

const emails = (count: number, prefix = 'r') => Array.from({ length: count }, (_, i) => `${prefix}${i}@x.io`);

describe('the send engine over an in-memory store and a fake transport', () => {
  it('sends every queued row once, recording each after the server accepts it, over at most `concurrency` sends at once', async () => {
    const store = new MemoryStore(emails(137));
    const transport = new FakeTransport();
    const recorder = new AfterAcceptRecorder(store.markSent);
    const result = await sendBatch({ store, recorder, transport }, { concurrency: 4, claimsStaleAfterMs: 60_000 });
    expect(result).toEqual({ sent: 137, failed: 0, retryLater: 0, superseded: 0 });
    expect(new Set(transport.sent).size).toBe(137);
    expect(transport.sent).toHaveLength(137);
    expect(store.count('sent')).toBe(137);
    expect(transport.maxInFlight).toBeLessThanOrEqual(4);
    expect(store.reported.reduce((a, b) => a + b, 0)).toBe(137);
  });

  it('fails refused rows, suppresses only mailbox errors as hard bounces, and puts deferred rows back', async () => {
    const store = new MemoryStore(['a@x.io', 'unknown-b@x.io', 'policy-c@x.io', 'later-d@x.io']);
    const transport = new FakeTransport();
    const result = await sendBatch(
      { store, recorder: new AfterAcceptRecorder(store.markSent), transport },
      { concurrency: 2, claimsStaleAfterMs: 60_000 },
    );
    expect(result).toEqual({ sent: 1, failed: 2, retryLater: 1, superseded: 0 });
    expect(store.bounced).toEqual(['unknown-b@x.io']);
    expect([...store.rows.values()].map((r) => r.state)).toEqual(['sent', 'bounced', 'failed', 'queued']);
  });

  it('stops within the pause check and puts what it claimed back', async () => {
    const store = new MemoryStore(emails(200));
    const transport = new FakeTransport();
    const send = transport.send.bind(transport);
    transport.send = async (message, hooks) => {
      if (transport.sent.length === 20) store.active = false;
      return send(message, hooks);
    };
    const watcherEveryMs = 0;
    const recorder = new AfterAcceptRecorder(store.markSent);
    // A watcher that asks every time stands in for the second-long check.
    const original = PauseWatcher.prototype.stillActive;
    PauseWatcher.prototype.stillActive = async function () {
      return store.active || watcherEveryMs > 0;
    };
    try {
      const result = await sendBatch({ store, recorder, transport }, { concurrency: 3, claimsStaleAfterMs: 60_000 });
      expect(result.sent).toBeLessThan(200);
      expect(store.count('sending')).toBe(0);
      expect(store.count('sent') + store.count('queued')).toBe(200);
    } finally {
      PauseWatcher.prototype.stillActive = original;
    }
  });

  it('keeps within the warming allowance, hands back what did not go, and defers the rest', async () => {
    const store = new MemoryStore(['unknown-0@x.io', ...emails(69)], 60);
    const result = await sendBatch(
      { store, recorder: new AfterAcceptRecorder(store.markSent), transport: new FakeTransport() },
      { concurrency: 5, claimsStaleAfterMs: 60_000 },
    );
    // 60 granted: one bounced and was handed back, so one more went.
    expect(result.sent).toBe(60);
    expect(store.givenBack).toBeGreaterThanOrEqual(1);
    expect(store.count('queued')).toBe(9);
    expect(store.deferredTo).toEqual(new Date('2030-01-02T00:00:00Z'));
  });

  it('counts a row another claim took over as superseded, not sent', async () => {
    const store = new MemoryStore(emails(3));
    const transport = new FakeTransport();
    const send = transport.send.bind(transport);
    transport.send = async (message, hooks) => {
      await send(message, hooks);
      // Taken over and sent by another worker after this one claimed it (its claim went stale).
      if (message.to === 'r1@x.io') Object.assign(store.rows.get(2) ?? {}, { state: 'sent' });
    };
    const result = await sendBatch(
      { store, recorder: new AfterAcceptRecorder(store.markSent), transport },
      { concurrency: 1, claimsStaleAfterMs: 60_000 },
    );
    expect(result).toMatchObject({ sent: 2, superseded: 1 });
  });

  // A chaos run on a loaded machine sent recipients twice: their rows waited for a connection longer
  // than the stale limit, went back to the queue, and the batch's next claim took them again.
  it('sends a row once when it is put back and claimed again while its message is on its way', async () => {
    const store = new MemoryStore(emails(120));
    const transport = new FakeTransport();
    const send = transport.send.bind(transport);
    transport.send = async (message, hooks) => {
      // A sweep takes every claim still held for stale: rows waiting to be sent go back to the queue.
      if (message.to === 'r10@x.io')
        for (const row of store.rows.values()) if (row.state === 'sending') row.state = 'queued';
      return send(message, hooks);
    };
    const result = await sendBatch(
      { store, recorder: new AfterAcceptRecorder(store.markSent), transport },
      { concurrency: 2, claimsStaleAfterMs: 60_000 },
    );
    expect(transport.sent).toHaveLength(120);
    expect(new Set(transport.sent).size).toBe(120);
    expect(result.sent).toBe(120);
    expect(store.count('sent')).toBe(120);
  });

  it('renews its claims four times within the stale limit while it sends', async () => {
    const store = new MemoryStore(emails(2));
    const transport = new FakeTransport();
    const send = transport.send.bind(transport);
    transport.send = async (message, hooks) => {
      await new Promise((resolve) => setTimeout(resolve, 60));
      return send(message, hooks);
    };
    await sendBatch(
      { store, recorder: new AfterAcceptRecorder(store.markSent), transport },
      { concurrency: 1, claimsStaleAfterMs: 40 },
    );
    // Two messages of 60 ms each against a renewal every 10 ms.
    expect(store.renewals).toBeGreaterThanOrEqual(2);
  });
});

describe('the after-accept recorder', () => {
  it('records messages accepted together in one mark, and retries a mark the database failed', async () => {
    const marks: number[][] = [];
    let failures = 1;
    const recorder = new AfterAcceptRecorder(async (messages) => {
      if (failures-- > 0) throw new Error('connection terminated');
      marks.push(messages.map((m) => m.id));
      return new Set(messages.map((m) => m.id));
    });
    const outcomes = await Promise.all(
      [3, 1, 2].map((id) => recorder.track({ id, claimToken: 'c', messageId: `<${id}@x>` }).accepted()),
    );
    expect(outcomes).toEqual(['recorded', 'recorded', 'recorded']);
    expect(marks).toEqual([[1, 2, 3]]);
  });

  it('delivered but not recorded: keeps the record of an accepted message until the database answers, however long it is down', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      let down = true;
      const errors: string[] = [];
      const recorder = new AfterAcceptRecorder(
        async (messages) => {
          if (down) throw new Error('Connection terminated unexpectedly');
          return new Set(messages.map((m) => m.id));
        },
        (error) => errors.push(error.message),
      );
      let outcome: string | undefined;
      void recorder
        .track({ id: 1, claimToken: 'c', messageId: '<1@x>' })
        .accepted()
        .then((answered) => (outcome = answered));
      // Down for a minute: far past the 4 s after which the record used to be given up ('unrecorded'),
      // leaving the row claimed, to be sent again once the claim went stale.
      await vi.advanceTimersByTimeAsync(60_000);
      expect(outcome).toBeUndefined();
      expect(errors.length).toBeGreaterThanOrEqual(1);
      down = false;
      await vi.advanceTimersByTimeAsync(2_000);
      expect(outcome).toBe('recorded');
      await recorder.close();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a dropped database connection mid-send', () => {
  it('a dropped connection doubles mail: a sender that fails lets the others finish their messages before claims are released', async () => {
    const store = new MemoryStore(['later-0@x.io', ...emails(12)]);
    // Putting the deferred row back fails: the database connection just dropped.
    store.requeue = async () => {
      throw new Error('Connection terminated unexpectedly');
    };
    const transport = new FakeTransport();
    const send = transport.send.bind(transport);
    transport.send = async (message, hooks) => {
      // Accepted messages take longer than the 451, so they are on their way when it fails its sender.
      if (!message.to.startsWith('later-')) await new Promise((resolve) => setTimeout(resolve, 20));
      return send(message, hooks);
    };
    await expect(
      sendBatch(
        { store, recorder: new AfterAcceptRecorder(store.markSent), transport },
        { concurrency: 3, claimsStaleAfterMs: 60_000 },
      ),
    ).rejects.toThrow('Connection terminated unexpectedly');
    // Every message the server accepted is recorded as sent: none went back to the queue to go again.
    expect(transport.sent.length).toBeGreaterThan(0);
    const sentRows = [...store.rows.values()].filter((row) => transport.sent.includes(row.email));
    expect(sentRows.map((row) => row.state)).toEqual(sentRows.map(() => 'sent'));
    expect(store.count('sending')).toBe(0);
  });
});

describe('the engine’s parts', () => {
  it('the pause watcher asks at most once per interval', async () => {
    let asked = 0;
    const watcher = new PauseWatcher(async () => (asked += 1) < 0, 50);
    expect(await watcher.stillActive()).toBe(true);
    expect(asked).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await watcher.stillActive()).toBe(false);
    expect(asked).toBe(1);
  });

  it('the progress reporter adds up what was sent and reports the rest at the end', async () => {
    const reports: number[] = [];
    const progress = new ProgressReporter(async (n) => void reports.push(n), 60_000);
    for (let i = 0; i < 5; i += 1) await progress.sent();
    await progress.flush();
    expect(reports).toEqual([5]);
  });

  it('the claim feeder renders the next chunk and is empty once nothing is queued', async () => {
    const store = new MemoryStore(emails(3));
    const feeder = new ClaimFeeder(store, new PauseWatcher(async () => true), 1);
    const seen: string[] = [];
    for (let next = await feeder.next(); next; next = await feeder.next()) seen.push(next.message.to);
    expect(seen).toEqual(['r0@x.io', 'r1@x.io', 'r2@x.io']);
  });
});
