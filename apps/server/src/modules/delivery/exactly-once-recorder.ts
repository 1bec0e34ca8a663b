import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { HeldDot } from '../../lib/mail-transport.ts';
import { keepProcessOnConnectionLoss, poolLimits, retryOnConnectionLoss } from '../../lib/db-errors.ts';
import { markUntilRecorded, warnUnrecorded } from './recorder.ts';
import { pgSocketOf, type CorkableSocket } from './adapters/pg-socket.ts';
import type { FailedOutcome, MessageRecord, SendLedger, SendRecorder, SentMessage } from '../../lib/mail-transport.ts';

/**
 * SEND_GUARANTEE=exactly-once: a message's record is committed in the same synchronous step as its
 * final dot, right before it, so a worker killed at any point leaves each recipient one message.
 * Direct Postgres connections only (never a transaction pooler). The sequence, the failure table and
 * the constants are explained in DESIGN.md beside this file.
 */

/** The grace sleep's bounds: it follows the 90th percentile of recent marks' time to their COMMIT plus GRACE_MARGIN_MS. */
const GRACE_MIN_MS = 3;
const GRACE_MAX_MS = 12;
const GRACE_MARGIN_MS = 2;
/** How much of the sleep must be left for a COMMIT to be written into it. */
const COMMIT_MARGIN_MS = 0.5;
/** A second sleep, taken before a COMMIT that came after the first had run out. */
const GRACE_FALLBACK_MS = 5;
const GRACE_SQL = { name: 'sendwell_send_grace', text: 'SELECT pg_sleep($1::float8)' };

/** The 90th percentile of the last 256 timings, recomputed every 64 of them. */
class RecentP90 {
  private static readonly WINDOW = 256;
  private static readonly UPDATE_EVERY = 64;
  private readonly samples = new Float64Array(RecentP90.WINDOW);
  private count = 0;

  /** Records a timing; answers the fresh percentile when it was recomputed, else null. */
  observe(ms: number): number | null {
    this.samples[this.count % RecentP90.WINDOW] = ms;
    this.count += 1;
    if (this.count % RecentP90.UPDATE_EVERY !== 0) return null;
    const recent = this.samples.slice(0, Math.min(this.count, RecentP90.WINDOW)).sort();
    return recent[Math.floor(0.9 * (recent.length - 1))] ?? null;
  }
}

/** The sleep a group's mark takes, from the times recent groups took to reach their COMMIT. */
export class GraceEstimate {
  private readonly markToCommit = new RecentP90();
  private current = GRACE_MAX_MS;

  get ms(): number {
    return this.current;
  }

  observe(markToCommitMs: number): void {
    const p90 = this.markToCommit.observe(markToCommitMs);
    if (p90 !== null) this.current = Math.min(GRACE_MAX_MS, Math.max(GRACE_MIN_MS, p90 + GRACE_MARGIN_MS));
  }
}

/** A group's rows marked sent in a transaction that is still open. */
export type MarkedGroup = {
  /** The rows the mark took (their claim still owns them). */
  owned: ReadonlySet<number>;
  /** Writes the COMMIT and, in the same synchronous step right after it, calls `writeDots`. Answers once the COMMIT is answered. */
  commitWith(writeDots: () => void): Promise<void>;
  rollback(): Promise<void>;
};

/**
 * Marks rows sent in an open transaction on a record connection of its own, for `commitWith` to
 * commit in the moment before their final dots. Why the COMMIT must find the server in a sleep with
 * nothing else ahead of it: once this process is killed the server still carries out what it has
 * received, but only until it first fails to send an answer; so at the COMMIT exactly one statement
 * may be ahead of it (the grace sleep), and every earlier answer must have been read.
 */
export async function markGroupSent(
  client: pg.PoolClient,
  socket: CorkableSocket,
  ledger: SendLedger,
  rows: readonly SentMessage[],
  grace: GraceEstimate,
): Promise<MarkedGroup> {
  let sleeping: Promise<unknown> = Promise.resolve();
  let issuedAt = 0;
  let sleepMs = 0;
  let sleepDone = false;
  const sleep = (ms: number) => {
    issuedAt = performance.now();
    sleepMs = ms;
    sleepDone = false;
    const slept = client.query({ ...GRACE_SQL, values: [ms / 1000] });
    sleeping = slept;
    slept.then(
      () => {
        if (sleeping === slept) sleepDone = true;
      },
      () => undefined,
    );
  };
  // A connection known to be lost before the COMMIT is written has rolled the mark back: no dot may go.
  let lostError: Error | null = null;
  const onLost = (error: Error) => (lostError ??= error);
  client.on('error', onLost);
  let owned: Set<number>;
  let markedAt = 0;
  try {
    const sorted = [...rows].sort((a, b) => Number(a.id) - Number(b.id));
    socket.cork();
    const begun = client.query('BEGIN');
    const marking = client.query<{ id: string }>({
      name: `sendwell_${ledger.name}_mark`,
      text: ledger.markSql,
      values: [sorted.map((r) => r.id), sorted.map((r) => r.claimToken), sorted.map((r) => r.messageId)],
    });
    sleep(grace.ms);
    markedAt = issuedAt;
    socket.uncork();
    begun.catch(() => undefined);
    owned = new Set((await marking).rows.map((r) => Number(r.id)));
  } catch (error) {
    client.off('error', onLost);
    client.release(error as Error);
    throw error;
  }
  let settled = false;
  // The client goes back to the pool exactly once, on every path: a client never released (a
  // sleep's answer failing before the COMMIT was written once left one out) empties the record pool
  // for good, and every later group then waits for a connection with its messages' dots held.
  let released = false;
  const release = (error?: Error) => {
    if (released) return;
    released = true;
    client.off('error', onLost);
    client.release(error);
  };
  const settle = (pending: Promise<unknown>[]) =>
    Promise.all(pending).then(
      () => release(),
      (error: Error) => {
        release(error);
        throw error;
      },
    );
  return {
    owned,
    async commitWith(writeDots) {
      if (settled) throw new Error('the group is already settled');
      settled = true;
      grace.observe(performance.now() - markedAt);
      // The sleep has run out, or nearly: its answer is read first and a fresh sleep is written.
      if (performance.now() - issuedAt > sleepMs - COMMIT_MARGIN_MS) {
        try {
          await sleeping;
        } catch (error) {
          release(error as Error);
          throw error;
        }
        sleep(GRACE_FALLBACK_MS);
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (lostError) {
        sleeping.catch(() => undefined);
        release(lostError);
        throw lostError;
      }
      const ahead = [sleeping];
      socket.cork();
      if (sleepDone) {
        sleep(GRACE_FALLBACK_MS);
        ahead.push(sleeping);
      }
      const committing = client.query('COMMIT');
      socket.uncork();
      writeDots();
      return settle([...ahead, committing]);
    },
    rollback() {
      if (settled) return Promise.resolve();
      settled = true;
      return settle([sleeping, client.query('ROLLBACK')]);
    },
  };
}

/** One message in a group: its row and its held dot. */
class GroupMember {
  outcome: 'recorded' | 'superseded' | 'failed' | 'unsent' | null = null;
  readonly done: Promise<void>;
  private resolveDone!: () => void;

  constructor(
    readonly row: SentMessage,
    readonly dot: HeldDot,
  ) {
    this.done = new Promise<void>((resolve) => (this.resolveDone = resolve));
  }

  settle(outcome: NonNullable<GroupMember['outcome']>): void {
    if (this.outcome) return;
    this.outcome = outcome;
    this.resolveDone();
  }
}

/** Groups whose mark is on its way at once; members arriving meanwhile wait for the next. */
const MARKING_AT_ONCE = 2;

export class ExactlyOnceRecorder implements SendRecorder {
  readonly guarantee = 'exactly-once' as const;
  private readonly waiting: GroupMember[] = [];
  private marking = 0;
  private scheduled = false;
  readonly grace = new GraceEstimate();

  /**
   * `pool` reaches Postgres directly (recordPool); `ledger.markSent` records a message whose dot
   * went but whose COMMIT answer failed.
   */
  constructor(
    private readonly pool: pg.Pool,
    private readonly ledger: SendLedger,
  ) {}

  track(row: SentMessage): MessageRecord {
    let member: GroupMember | null = null;
    return {
      hooks: {
        atFinalDot: (dot) => {
          member = new GroupMember(row, dot);
          this.waiting.push(member);
          this.schedule();
        },
      },
      accepted: async () => {
        if (!member) return 'unrecorded';
        await member.done;
        if (member.outcome === 'recorded') return 'recorded';
        if (member.outcome === 'superseded') return 'superseded';
        return 'unrecorded';
      },
      failed: async (): Promise<FailedOutcome> => {
        if (!member) return 'not-sent';
        await member.done;
        if (member.outcome === 'recorded') return 'sent';
        if (member.outcome === 'superseded') return 'superseded';
        return 'not-sent';
      },
    };
  }

  private schedule(): void {
    if (this.scheduled || this.marking >= MARKING_AT_ONCE || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.marking >= MARKING_AT_ONCE || this.waiting.length === 0) return;
      void this.commitGroup(this.waiting.splice(0));
    });
  }

  private async commitGroup(members: GroupMember[]): Promise<void> {
    this.marking += 1;
    let marked: MarkedGroup;
    try {
      const client = await this.pool.connect();
      const socket = pgSocketOf(client);
      if (!socket) {
        client.release();
        throw new Error('the record connection has no corkable socket');
      }
      marked = await markGroupSent(
        client,
        socket,
        this.ledger,
        members.map((m) => m.row),
        this.grace,
      );
    } catch {
      for (const member of members) this.drop(member, 'failed');
      return;
    } finally {
      this.marking -= 1;
      this.schedule();
    }
    const owned = members.filter((m) => marked.owned.has(Number(m.row.id)));
    for (const member of members) if (!marked.owned.has(Number(member.row.id))) this.drop(member, 'superseded');
    if (owned.length === 0) {
      await marked.rollback().catch(() => undefined);
      return;
    }
    const wrote = new Set<GroupMember>();
    let dotsWritten = false;
    let commitFailed = false;
    try {
      await marked.commitWith(() => {
        dotsWritten = true;
        for (const member of owned) if (member.dot.write()) wrote.add(member);
      });
    } catch {
      commitFailed = true;
    }
    if (!dotsWritten) {
      // Failed before the COMMIT was written: the transaction rolls back and no dot may go.
      for (const member of owned) this.drop(member, 'failed');
      return;
    }
    if (commitFailed && wrote.size > 0) {
      // The dots went but the COMMIT's answer did not come (it may or may not have committed): record
      // them the ordinary way, until the database answers; a row the COMMIT did mark counts as marked.
      await markUntilRecorded(
        this.ledger.markSent,
        [...wrote].map((m) => m.row),
        warnUnrecorded,
      );
    }
    for (const member of wrote) member.settle('recorded');
    // A connection that closed while its row was in the mark: no dot went, so the mark is undone.
    const unsent = owned.filter((m) => !wrote.has(m));
    if (unsent.length > 0) {
      await retryOnConnectionLoss(() =>
        this.pool.query({
          name: `sendwell_${this.ledger.name}_unmark`,
          text: this.ledger.unmarkSql,
          values: [unsent.map((m) => m.row.id), unsent.map((m) => m.row.claimToken)],
        }),
      ).catch(() => undefined);
      for (const member of unsent) member.settle('unsent');
    }
  }

  private drop(member: GroupMember, outcome: 'superseded' | 'failed'): void {
    member.dot.drop();
    member.settle(outcome);
  }

  async close(): Promise<void> {
    while (this.marking > 0 || this.waiting.length > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Record connections: pipelined, and committing asynchronously (synchronous_commit off: only a
 * database crash in the next ~200 ms could lose a commit, which would mean resending those
 * messages). Direct connections only: a transaction pooler would not keep the sleep and the COMMIT
 * on one server connection in the order written.
 */
export function recordPool(connectionString: string, size: number): pg.Pool {
  // A mark is one indexed UPDATE of at most a few hundred rows: 30 s means the server is stuck.
  const limits = poolLimits(30_000);
  const pool = new pg.Pool({
    connectionString,
    max: size,
    pipeline: true,
    ...limits,
    options: `-c jit=off -c synchronous_commit=off ${limits.options}`,
  } as pg.PoolConfig);
  keepProcessOnConnectionLoss(pool, 'record connection lost');
  return pool;
}
