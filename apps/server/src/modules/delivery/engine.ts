import { TransportError, type OutgoingMessage, type Transport } from '../../lib/mail-transport.ts';
import type { SendRecorder } from './recorder.ts';

/** A claimed ledger row: its id and the claim (this batch) that owns it. */
export type ClaimedRow = { id: number };

/** Warming: how many of the messages asked for may go today, and how to hand back the unused. */
export type Allowance = { granted: number; resumesAt: Date | null; giveBack(count: number): Promise<void> };

/**
 * What a feature that sends in bulk gives the engine: its ledger of recipients and how to turn one
 * into a message. modules/sending builds it from a feature's feed (campaigns, sequences) under the
 * one sending policy.
 */
export interface BatchStore<Row extends ClaimedRow> {
  /** The claim this batch's rows are marked with. */
  readonly claimToken: string;
  /** Claims up to `limit` queued rows (never one another claim holds). */
  claim(limit: number): Promise<Row[]>;
  /** Renders and signs one row's message. */
  compose(row: Row): Promise<OutgoingMessage>;
  /** The warming allowance for `wanted` more messages (unlimited stores grant all). */
  allowance(wanted: number): Promise<Allowance>;
  /** Whether the sending is still wanted (not paused or canceled). */
  isActive(): Promise<boolean>;
  /** Puts a claimed row back in the queue (the server said try later, or the batch stops). */
  requeue(row: Row, error: string | null): Promise<void>;
  /** The server refused the row's message for good; `hardBounce` when the address itself is bad. */
  fail(row: Row, error: string, hardBounce: boolean): Promise<void>;
  /** `newlySent` more rows were recorded as sent since the last report. */
  progress(newlySent: number): Promise<void>;
  /** Nothing more could be claimed now because of warming: resume the rest at `resumesAt`. */
  deferRest(resumesAt: Date): Promise<void>;
  /** The warming pause is over: sending resumed. */
  resumed(): Promise<void>;
  /** Puts back whatever this claim still holds unsent (a pause, a cancel, the end). */
  releaseClaims(): Promise<void>;
  /**
   * Stamps the rows this claim still holds as held now. A claim goes stale (its rows back to the
   * queue, for another batch to send) only when its batch stopped renewing it: a live batch whose
   * rows wait long for a connection must not have them sent a second time by someone else.
   */
  renewClaims(): Promise<void>;
}

export type BatchResult = { sent: number; failed: number; retryLater: number; superseded: number };

/**
 * How long a claim may go without renewal before it counts as stale (its batch died) and its rows go
 * back to the queue: half the batch timeout. A live batch renews its claims four times within it.
 */
export function claimsStaleAfterMs(config: { sendBatchTimeoutSeconds: number }): number {
  return (config.sendBatchTimeoutSeconds * 1000) / 2;
}

/** Rows claimed at a time: small, so a worker that dies holds little and others take over soon. */
const CLAIM_SIZE = 50;
const PAUSE_CHECK_MS = 1000;
const PROGRESS_EVERY_MS = 1000;

/** Mailbox-level permanent failures (the address is bad), as opposed to policy or content rejections. */
function isHardBounce(error: TransportError): boolean {
  return (
    error.kind === 'reject' &&
    (error.responseCode === 550 || error.responseCode === 551 || error.responseCode === 553) &&
    /mailbox|user|recipient|address|unknown|no such/i.test(error.message)
  );
}

/** Asks the store whether sending is still wanted at most once a second: a pause takes effect within it. */
export class PauseWatcher {
  private active = true;
  private checkedAt = Date.now();

  constructor(
    private readonly check: () => Promise<boolean>,
    private readonly everyMs = PAUSE_CHECK_MS,
  ) {}

  async stillActive(): Promise<boolean> {
    if (this.active && Date.now() - this.checkedAt > this.everyMs) {
      this.checkedAt = Date.now();
      this.active = await this.check();
    }
    return this.active;
  }
}

/** Reports the sent count to the store about once a second, and what is left at the end. */
export class ProgressReporter {
  private unreported = 0;
  private reportedAt = Date.now();

  constructor(
    private readonly report: (newlySent: number) => Promise<void>,
    private readonly everyMs = PROGRESS_EVERY_MS,
  ) {}

  async sent(): Promise<void> {
    this.unreported += 1;
    if (Date.now() - this.reportedAt > this.everyMs) await this.flush();
  }

  async flush(): Promise<void> {
    this.reportedAt = Date.now();
    const count = this.unreported;
    this.unreported = 0;
    await this.report(count);
  }
}

/** A chunk of claimed rows: the warming allowance they used, and how many of them went. */
type Chunk = { size: number; done: number; delivered: number; allowance: Allowance | null };
type Prepared<Row> = { row: Row; message: OutgoingMessage; chunk: Chunk };

/**
 * Keeps rendered messages ready for the senders: claims the next chunk (within the warming allowance)
 * and renders it while the current one still has work for every sender. Empty once nothing is left now.
 */
export class ClaimFeeder<Row extends ClaimedRow> {
  private readonly ready: Prepared<Row>[] = [];
  // Rows handed to the senders and not put back: a batch sends a row once, whatever its claim went through.
  private readonly held = new Set<number>();
  private loading: Promise<void> | null = null;
  private exhausted = false;
  // Senders waiting for the chunk being loaded: each is woken by the first message composed.
  private waiting: (() => void)[] = [];

  constructor(
    private readonly store: BatchStore<Row>,
    private readonly watcher: PauseWatcher,
    private readonly lowWater: number,
  ) {}

  /** The next message to send, or null when the batch has nothing more to send now. */
  async next(): Promise<Prepared<Row> | null> {
    if (this.ready.length <= this.lowWater && !this.exhausted) this.load().catch(() => undefined);
    let next = this.ready.shift();
    while (!next && !this.exhausted) {
      // The first message of a chunk goes as soon as it is composed, not once the whole chunk is (a
      // forward's compose seals and checks the message: 50 of them took a while). A failed load
      // fails the sender, as before.
      const arrived = new Promise<void>((resolve) => this.waiting.push(resolve));
      await Promise.race([this.load(), arrived]);
      next = this.ready.shift();
    }
    return next ?? null;
  }

  private wake(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  /** The row went back to the queue or ended unsent: a later claim of it may send it. */
  letGo(rowId: number): void {
    this.held.delete(rowId);
  }

  /** Waits for a claim still on its way (its rows must be sent or put back). */
  async settle(): Promise<void> {
    if (this.loading) await this.loading.catch(() => undefined);
  }

  private load(): Promise<void> {
    this.loading ??= this.loadChunk().finally(() => {
      this.loading = null;
      this.wake();
    });
    return this.loading;
  }

  private async loadChunk(): Promise<void> {
    if (!(await this.watcher.stillActive())) {
      this.exhausted = true;
      return;
    }
    const allowance = await this.store.allowance(CLAIM_SIZE);
    const claimed = allowance.granted > 0 ? await this.store.claim(allowance.granted) : [];
    // A row this batch holds already is on its way: its claim was taken for stale while the database
    // was away (renewals failed), it went back to the queue and this claim took it again.
    const rows = claimed.filter((row) => !this.held.has(row.id));
    if (rows.length < allowance.granted) await allowance.giveBack(allowance.granted - rows.length);
    if (rows.length === 0 && claimed.length > 0) return;
    if (rows.length === 0) {
      this.exhausted = true;
      if (allowance.resumesAt) await this.store.deferRest(allowance.resumesAt);
      return;
    }
    await this.store.resumed();
    for (const row of rows) this.held.add(row.id);
    const chunk: Chunk = { size: rows.length, done: 0, delivered: 0, allowance };
    // Composed side by side, each ready for a sender as soon as it is: a forward's compose waits on
    // look-ups (its sender's DMARC, the ARC verdict), and one after another they held the chunk's
    // last message back by the sum of them all.
    const composed = await Promise.allSettled(
      rows.map(async (row) => {
        this.ready.push({ row, message: await this.store.compose(row), chunk });
        this.wake();
      }),
    );
    const failed = composed.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

/**
 * Sends one message: answers once the server has answered, with `recorded`, which answers once its
 * record is written whether it counts as sent. A 5xx fails the row (a mailbox error as a hard
 * bounce); a 4xx or network error puts it back for a later retry.
 */
async function sendOne<Row extends ClaimedRow>(
  deps: { store: BatchStore<Row>; recorder: SendRecorder; transport: Transport },
  row: Row,
  message: OutgoingMessage,
  tally: BatchResult,
): Promise<{ left: boolean; recorded: Promise<boolean> }> {
  const { store, recorder, transport } = deps;
  const record = recorder.track({ id: row.id, claimToken: store.claimToken, messageId: message.messageId });
  try {
    await transport.send(message, transport.holdsDots ? record.hooks : undefined);
  } catch (error) {
    const outcome = await record.failed();
    if (outcome === 'superseded') {
      tally.superseded += 1;
      return { left: false, recorded: Promise.resolve(false) };
    }
    // Recorded and its dot sent, but the answer was lost: the server most likely has it, and a
    // second copy is worse than an unconfirmed one, so the row stays sent.
    if (outcome === 'sent') return { left: true, recorded: Promise.resolve(true) };
    const reason = (error as Error).message.slice(0, 500);
    if (!(error instanceof TransportError) || error.kind === 'retry') {
      tally.retryLater += 1;
      await store.requeue(row, reason);
      return { left: false, recorded: Promise.resolve(false) };
    }
    tally.failed += 1;
    await store.fail(row, reason, isHardBounce(error));
    return { left: false, recorded: Promise.resolve(false) };
  }
  return {
    left: true,
    recorded: record.accepted().then((outcome) => {
      if (outcome !== 'superseded') return true;
      tally.superseded += 1;
      return false;
    }),
  };
}

/**
 * Sends what a store has to send now over `concurrency` senders: the claim feeder keeps rendered
 * messages ready, each sender takes the next as soon as its connection is free, the pause watcher
 * stops them within a second, and the progress reporter moves the live figure. Rows claimed but not
 * sent (a pause, a cancel) go back to the queue at the end.
 */
export async function sendBatch<Row extends ClaimedRow>(
  deps: { store: BatchStore<Row>; recorder: SendRecorder; transport: Transport },
  options: { concurrency: number; claimsStaleAfterMs: number },
): Promise<BatchResult> {
  const { store } = deps;
  // Claims are renewed four times within the time after which they count as stale, so a renewal or
  // two lost with the database's connection still leave them held.
  let renewing: Promise<void> = Promise.resolve();
  const renewal = setInterval(() => {
    renewing = renewing.then(() => store.renewClaims().catch(() => undefined));
  }, options.claimsStaleAfterMs / 4);
  renewal.unref();
  const tally: BatchResult = { sent: 0, failed: 0, retryLater: 0, superseded: 0 };
  const watcher = new PauseWatcher(() => store.isActive());
  const feeder = new ClaimFeeder(store, watcher, options.concurrency);
  const progress = new ProgressReporter((count) => store.progress(count));
  // Records of accepted messages are awaited together: a sender goes on to its next message at once.
  const recording = new Set<Promise<void>>();
  // The first error of a sender (the database went away): the others finish the message they are
  // sending, then stop; the batch fails after its records and releases, and the job is retried.
  let failure: { error: unknown } | undefined;

  const sendNext = async ({ row, message, chunk }: Prepared<Row>) => {
    if (!(await watcher.stillActive())) {
      await store.requeue(row, null);
      feeder.letGo(row.id);
    } else {
      // The connection is free once the server answered; the record may still be on its way.
      const { left, recorded } = await sendOne(deps, row, message, tally);
      if (left) chunk.delivered += 1;
      else feeder.letGo(row.id);
      const counted = recorded.then(async (sent) => {
        if (!sent) return;
        tally.sent += 1;
        await progress.sent();
      });
      recording.add(counted);
      void counted.finally(() => recording.delete(counted)).catch(() => undefined);
    }
    chunk.done += 1;
    // What was reserved but did not go out is handed back, so daily counts stay real sends.
    if (chunk.done === chunk.size && chunk.allowance && chunk.delivered < chunk.done) {
      await chunk.allowance.giveBack(chunk.done - chunk.delivered);
    }
  };
  const sender = async () => {
    try {
      for (let next = await feeder.next(); next; next = failure ? null : await feeder.next()) await sendNext(next);
    } catch (error) {
      failure ??= { error };
    }
  };
  try {
    // Every sender ends its message in flight before claims are released, even when another one
    // failed: releasing a row whose message is on its way would send it a second time.
    await Promise.all(Array.from({ length: options.concurrency }, sender));
  } finally {
    // What was accepted is recorded (the recorder waits for the database) and what was claimed but
    // not sent goes back, as far as the database lets us.
    await feeder.settle();
    await Promise.allSettled(recording);
    clearInterval(renewal);
    await renewing;
    await store.releaseClaims().catch(() => undefined);
    await progress.flush().catch(() => undefined);
  }
  if (failure) throw failure.error;
  return tally;
}
