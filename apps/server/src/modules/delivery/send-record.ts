import { performance } from 'node:perf_hooks';
import { and, eq } from 'drizzle-orm';
import type pg from 'pg';
import type { Database, DbOrTx } from '../../db/client.ts';
import { campaignSends } from '../../db/schema/index.ts';
import type { HeldDot, SendRecord } from './transport.ts';

/**
 * How long the server is kept busy after a group's mark: long enough for the group's COMMIT, written
 * as soon as the mark is answered, to land in it. A COMMIT that comes later waits for the sleep to
 * end and takes a second one first. The record's connection is held until the sleep ends, so the sleep
 * follows the time recent groups took from their mark to their COMMIT (its 90th percentile plus
 * GRACE_MARGIN_MS), within GRACE_MIN_MS and GRACE_MAX_MS; GRACE_MAX_MS is where it starts.
 */
const GRACE_MIN_MS = 3;
const GRACE_MAX_MS = 12;
/** The margin added to the 90th percentile. */
const GRACE_MARGIN_MS = 2;
/**
 * How much of the sleep must be left for a COMMIT to be written into it. The check and the write are
 * one synchronous step, so this only has to cover this process being paused between them.
 */
const COMMIT_MARGIN_MS = 0.5;
/** A second sleep, taken before a COMMIT that came after the first had run out: it only has to reach that COMMIT. */
const GRACE_FALLBACK_MS = 5;
/**
 * Named, so each record connection parses and plans them once: these run for every message, and
 * parsing and planning them each time was a visible share of the database's work while sending.
 */
const GRACE_SQL = { name: 'sendwell_send_grace', text: 'SELECT pg_sleep($1::float8)' };

/** The sleep a group's mark takes, from the times recent groups took to reach their COMMIT (one per process). */
export class GraceEstimate {
  private static readonly WINDOW = 256;
  private static readonly UPDATE_EVERY = 64;
  private readonly samples = new Float64Array(GraceEstimate.WINDOW);
  private count = 0;
  private current = GRACE_MAX_MS;

  /** Milliseconds the next mark's sleep lasts. */
  get ms(): number {
    return this.current;
  }

  /** Records how long a mark took to reach its COMMIT; every UPDATE_EVERY of them the sleep is recomputed. */
  observe(markToCommitMs: number): void {
    this.samples[this.count % GraceEstimate.WINDOW] = markToCommitMs;
    this.count += 1;
    if (this.count % GraceEstimate.UPDATE_EVERY !== 0) return;
    const recent = this.samples.slice(0, Math.min(this.count, GraceEstimate.WINDOW)).sort();
    const p90 = recent[Math.floor(0.9 * (recent.length - 1))] ?? GRACE_MAX_MS;
    this.current = Math.min(GRACE_MAX_MS, Math.max(GRACE_MIN_MS, p90 + GRACE_MARGIN_MS));
  }
}
export const graceEstimate = new GraceEstimate();

/** Marks a group's rows sent, each only for the claim that owns it; ids in ascending order, so two groups lock rows in the same order. */
const MARK_SENT = {
  name: 'sendwell_mark_sent',
  text: `UPDATE campaign_sends AS s SET status = 'sent', sent_at = now(), message_id = m.message_id, error = NULL
         FROM unnest($1::bigint[], $2::text[], $3::text[]) AS m(id, claim_token, message_id)
         WHERE s.id = m.id AND s.status = 'sending' AND s.claim_token = m.claim_token RETURNING s.id`,
};

type SendRow = { id: number; claimToken: string; messageId: string };

/** The rows of a group marked sent in a transaction that is still open. */
export type MarkedGroup = {
  /** The rows the mark took (their claim still owns them); the others belong to another worker now. */
  owned: ReadonlySet<number>;
  /**
   * Writes the COMMIT and, in the same synchronous step right after it, calls `writeDots`, which
   * writes the final dots of the owned rows' messages. Answers once the COMMIT has been answered.
   */
  commitWith(writeDots: () => void): Promise<void>;
  rollback(): Promise<void>;
};

/**
 * Marks rows sent in an open transaction on a record connection of its own (Postgres only), for
 * `commitWith` to commit in the moment before their messages' final dots. Record connections run with
 * synchronous_commit off (db/client.ts): only a database crash in the next ~200 ms could lose the
 * commit, and that would mean resending its messages.
 *
 * Why the COMMIT must find the server in a sleep with nothing else ahead of it: once this process is
 * killed, the server still carries out what it has already received, but only until it first fails
 * to send an answer. Its first answer after the kill still goes out; a second one fails and the
 * server drops the connection, rolling back. An answer that has arrived here but is still unread
 * when the process dies fails at once. So at the COMMIT, exactly one statement may be ahead of it
 * (the grace sleep) and every earlier answer must have been read; `commitWith` sees to that when the
 * sleep has run out (send-record.int.test.ts kills a client in each of these cases). The sleep also
 * means the COMMIT's write wakes nobody, so the OS has no reason to pause this process between it
 * and the dots.
 */
export async function markGroupSent(database: Database, rows: readonly SendRow[]): Promise<MarkedGroup> {
  if (!database.connect) throw new Error('markGroupSent needs a Postgres server');
  const client = await database.connect();
  const socket = (client as unknown as pg.Client).connection.stream;
  let sleeping: Promise<unknown> = Promise.resolve();
  let issuedAt = 0;
  let sleepMs = 0;
  // Whether the current sleep's answer has been read (then the server is idle, with nothing unread).
  let sleepDone = false;
  /** Writes a fresh grace sleep of `ms`; it becomes `sleeping`. */
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
  let owned: Set<number>;
  let markedAt = 0;
  try {
    // One write: the mark and, pipelined behind it, a short sleep that keeps the server busy, not
    // waiting on this socket, until the COMMIT comes. The sleep cannot start before it is written,
    // so it surely lasts until issuedAt + sleepMs.
    const sorted = [...rows].sort((a, b) => Number(a.id) - Number(b.id));
    socket.cork();
    const begun = client.query('BEGIN');
    const marking = client.query<{ id: string }>({ ...MARK_SENT, values: [sorted.map((r) => r.id), sorted.map((r) => r.claimToken), sorted.map((r) => r.messageId)] });
    sleep(graceEstimate.ms);
    markedAt = issuedAt;
    socket.uncork();
    begun.catch(() => undefined);
    owned = new Set((await marking).rows.map((r) => Number(r.id)));
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
  let settled = false;
  const settle = (statements: Promise<unknown>[]) =>
    Promise.all(statements).then(
      () => client.release(),
      (error: Error) => {
        client.release(error);
        throw error;
      },
    );
  return {
    owned,
    async commitWith(writeDots) {
      if (settled) throw new Error('the group is already settled');
      settled = true;
      graceEstimate.observe(performance.now() - markedAt);
      // The sleep has run out, or nearly: its answer is read first and a fresh sleep is written, whose
      // write wakes the server (and may pause this process) before the COMMIT rather than after it.
      if (performance.now() - issuedAt > sleepMs - COMMIT_MARGIN_MS) {
        await sleeping;
        sleep(GRACE_FALLBACK_MS);
        await new Promise((resolve) => setImmediate(resolve));
      }
      // Held up all the same and that sleep's answer read: one more goes ahead, in the same write.
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

/** The records of messages whose final dot is due: a group at a time is marked and committed. */
class SendGroups {
  /** Groups whose mark is on its way; one more starts only when these are answered. */
  private static readonly MARKING_AT_ONCE = 2;
  private readonly waiting: { row: SendRow; dot: HeldDot; done: () => void; failed: (error: Error) => void }[] = [];
  private marking = 0;
  private scheduled = false;

  constructor(private readonly database: Database) {}

  /** Answers once the row's COMMIT is answered (or its dot dropped); rejects when the COMMIT failed after its dot went. */
  join(row: SendRow, dot: HeldDot): { done: Promise<void>; leave: () => boolean } {
    let member!: (typeof this.waiting)[number];
    const done = new Promise<void>((resolve, reject) => {
      member = { row, dot, done: resolve, failed: reject };
    });
    this.waiting.push(member);
    this.schedule();
    return {
      done,
      leave: () => {
        const at = this.waiting.indexOf(member);
        if (at < 0) return false;
        this.waiting.splice(at, 1);
        member.done();
        return true;
      },
    };
  }

  /** Members who arrive in the same turn of the event loop, or while a mark is on its way, go together. */
  private schedule(): void {
    if (this.scheduled || this.marking >= SendGroups.MARKING_AT_ONCE || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.marking >= SendGroups.MARKING_AT_ONCE || this.waiting.length === 0) return;
      void this.commitGroup(this.waiting.splice(0));
    });
  }

  private async commitGroup(members: typeof this.waiting): Promise<void> {
    this.marking += 1;
    let marked: MarkedGroup;
    try {
      marked = await markGroupSent(this.database, members.map((m) => m.row));
    } catch {
      for (const member of members) {
        member.dot.drop('failed');
        member.done();
      }
      return;
    } finally {
      this.marking -= 1;
      this.schedule();
    }
    // Ids from a raw query come as strings (bigint), hence Number.
    const owned = members.filter((m) => marked.owned.has(Number(m.row.id)));
    for (const member of members) {
      if (owned.includes(member)) continue;
      member.dot.drop('superseded');
      member.done();
    }
    if (owned.length === 0) {
      await marked.rollback().catch(() => undefined);
      return;
    }
    const wrote = new Set<(typeof owned)[number]>();
    let commitError: Error | null = null;
    try {
      await marked.commitWith(() => {
        for (const member of owned) if (member.dot.write()) wrote.add(member);
      });
    } catch (error) {
      commitError = error as Error;
    }
    for (const member of owned) {
      if (!wrote.has(member)) continue;
      if (commitError) member.failed(commitError);
      else member.done();
    }
    // Connections that closed while their row was in the mark: no dot went, so the mark is undone
    // before their senders re-queue or retry the row.
    await Promise.all(
      owned
        .filter((member) => !wrote.has(member))
        .map(async (member) => {
          await unmarkSent(this.database.db, member.row).catch(() => undefined);
          member.done();
        }),
    );
  }
}

/** Undoes the mark of a message that did not go out after all. */
async function unmarkSent(db: DbOrTx, row: SendRow): Promise<void> {
  await db
    .update(campaignSends)
    .set({ status: 'sending', sentAt: null, messageId: null })
    .where(and(eq(campaignSends.id, row.id), eq(campaignSends.claimToken, row.claimToken), eq(campaignSends.status, 'sent')));
}

const groupsByDatabase = new WeakMap<Database, SendGroups>();

/**
 * The record of one claimed ledger row's message, for the transport: `finish` marks it sent and
 * commits that with its final dot, or drops the dot when the claim no longer owns the row. Null when
 * the mark is made at once and finds the row owned by another claim.
 *
 * On Postgres the row joins the next group (SendGroups): one transaction marks all messages whose dot
 * is due, and its COMMIT is written right before their dots. On the embedded database, which runs in
 * this process, or within a given transaction (`within`, the built-in catcher's), the mark is made at
 * once and undone by `rollback`.
 */
export async function recordSend(database: Database, row: SendRow, within?: DbOrTx): Promise<SendRecord | null> {
  if (!database.connect || within) {
    const db = within ?? database.db;
    const updated = await db
      .update(campaignSends)
      .set({ status: 'sent', sentAt: new Date(), messageId: row.messageId, error: null })
      .where(and(eq(campaignSends.id, row.id), eq(campaignSends.claimToken, row.claimToken), eq(campaignSends.status, 'sending')))
      .returning({ id: campaignSends.id });
    if (updated.length !== 1) return null;
    return {
      finish: async (dot) => void dot.write(),
      // Not sent after all (the server refused it, or the connection failed first): undo the mark.
      rollback: () => unmarkSent(db, row),
    };
  }
  let groups = groupsByDatabase.get(database);
  if (!groups) groupsByDatabase.set(database, (groups = new SendGroups(database)));
  const group = groups;
  let joined: ReturnType<SendGroups['join']> | null = null;
  return {
    finish(dot) {
      joined = group.join(row, dot);
      return joined.done;
    },
    // A row still waiting for its group leaves it; one already in a group's mark is settled by that
    // group (its dot, if still held, is not written on a closed connection; the caller re-queues the row).
    async rollback() {
      if (joined && !joined.leave()) await joined.done.catch(() => undefined);
    },
  };
}
