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
 * Named, so each record connection parses and plans them once: these run for every send group, and
 * parsing and planning them each time was a visible share of the database's work while sending.
 */
const GRACE_SQL = { name: 'sendwell_send_grace', text: 'SELECT pg_sleep($1::float8)' };
const UNMARK_SENT = {
  name: 'sendwell_unmark_sent',
  text: `UPDATE campaign_sends SET status = 'sending', sent_at = NULL, message_id = NULL WHERE id = ANY($1::bigint[])`,
};

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

/** The sleep a group's mark takes, from the times recent groups took to reach their COMMIT (one per process). */
export class GraceEstimate {
  private readonly markToCommit = new RecentP90();
  private current = GRACE_MAX_MS;

  /** Milliseconds the next mark's sleep lasts. */
  get ms(): number {
    return this.current;
  }

  /** Records how long a mark took to reach its COMMIT; every 64 of them the sleep is recomputed. */
  observe(markToCommitMs: number): void {
    const p90 = this.markToCommit.observe(markToCommitMs);
    if (p90 !== null) this.current = Math.min(GRACE_MAX_MS, Math.max(GRACE_MIN_MS, p90 + GRACE_MARGIN_MS));
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
  /** Takes the mark back from rows whose dot is late, within the transaction, before the COMMIT. */
  release(ids: readonly number[]): Promise<void>;
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
    const marking = client.query<{ id: string }>({
      ...MARK_SENT,
      values: [sorted.map((r) => r.id), sorted.map((r) => r.claimToken), sorted.map((r) => r.messageId)],
    });
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
    async release(ids) {
      // It runs after the sleep ahead of it, and its answer is read here: the COMMIT then takes a fresh sleep.
      await client.query({ ...UNMARK_SENT, values: [ids] });
    },
    rollback() {
      if (settled) return Promise.resolve();
      settled = true;
      return settle([sleeping, client.query('ROLLBACK')]);
    },
  };
}

/** A message in SendGroups: its row, and its held dot once the message has reached it. */
class GroupMember {
  dot: HeldDot | null = null;
  /** Its sender gave up on it before the dot (the server refused it, the connection failed). */
  abandoned = false;
  /** What became of its mark when it cannot be committed with its dot: the dot is dropped for this reason. */
  outcome: 'superseded' | 'failed' | null = null;
  /** Waiting for a group, in a group's mark, taken back from one for being late, or done with. */
  stage: 'queued' | 'marking' | 'late' | 'done' = 'queued';
  /** Called when the dot arrives or the member is abandoned, by the group waiting for it. */
  onSettled: (() => void) | null = null;
  readonly done: Promise<void>;
  resolve!: () => void;
  reject!: (error: Error) => void;

  constructor(readonly row: SendRow) {
    this.done = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    this.done.catch(() => undefined);
  }

  get settled(): boolean {
    return this.dot !== null || this.abandoned;
  }
}

/**
 * The records of messages about to reach their final dot, marked and committed a group at a time. A
 * message joins when its DATA command goes out (with a pipelined envelope, as the envelope does), so
 * its group's mark is on its way while the server's answers are, and the group commits once every
 * member it owns has its dot (or gave up). A member whose dot is later than LATE_DOT_MS after the
 * mark's answer does not hold the others up: its mark is taken back in the same transaction and it
 * joins a later group once its dot has come. While the server is slow to answer (the 90th percentile
 * of recent messages' time from DATA to dot is over earlyJoinMaxMs, SEND_EARLY_JOIN_MAX_MS), messages join only at their
 * dot, so that groups do not wait for them. With a relay that far (or slow), joining early would
 * save little and make groups wait for each other's answers; 0 turns it off.
 */
export class SendGroups {
  /** Groups whose mark is on its way; one more starts only when these are answered. */
  private static readonly MARKING_AT_ONCE = 2;
  private static readonly LATE_DOT_MS = 5;
  private readonly waiting: GroupMember[] = [];
  private marking = 0;
  private scheduled = false;
  private readonly dueToDot = new RecentP90();
  /** Whether messages join at their DATA command (else at their dot). */
  joinsEarly: boolean;

  constructor(
    private readonly database: Database,
    private readonly earlyJoinMaxMs: number,
  ) {
    this.joinsEarly = earlyJoinMaxMs > 0;
  }

  /** Records how long a message took from its DATA command to its dot; every 64 of them joinsEarly is decided again. */
  observeDueToDot(ms: number): void {
    const p90 = this.dueToDot.observe(ms);
    if (p90 !== null) this.joinsEarly = this.earlyJoinMaxMs > 0 && p90 <= this.earlyJoinMaxMs;
  }

  join(row: SendRow): GroupMember {
    const member = new GroupMember(row);
    this.enqueue(member);
    return member;
  }

  /** The member's message has reached its dot. */
  ready(member: GroupMember, dot: HeldDot): void {
    if (member.outcome) {
      dot.drop(member.outcome);
      this.finish(member);
      return;
    }
    member.dot = dot;
    if (member.stage === 'marking') member.onSettled?.();
    else if (member.stage === 'late') this.enqueue(member);
  }

  /** The member's message will not reach its dot; answers once its mark, if any, is undone. */
  async abandon(member: GroupMember): Promise<void> {
    member.abandoned = true;
    if (member.stage === 'queued') {
      this.waiting.splice(this.waiting.indexOf(member), 1);
      this.finish(member);
    } else if (member.stage === 'marking' && !member.outcome) {
      // Its group undoes the mark (or never made it) and then finishes it.
      member.onSettled?.();
    } else {
      this.finish(member);
    }
    await member.done.catch(() => undefined);
  }

  private finish(member: GroupMember, error?: Error): void {
    member.stage = 'done';
    if (error) member.reject(error);
    else member.resolve();
  }

  private enqueue(member: GroupMember): void {
    member.stage = 'queued';
    this.waiting.push(member);
    this.schedule();
  }

  /** Members who arrive in the same turn of the event loop, or while marks are on their way, go together. */
  private schedule(): void {
    if (this.scheduled || this.marking >= SendGroups.MARKING_AT_ONCE || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.marking >= SendGroups.MARKING_AT_ONCE || this.waiting.length === 0) return;
      const members = this.waiting.splice(0);
      for (const member of members) member.stage = 'marking';
      void this.commitGroup(members);
    });
  }

  /** Answers once every member has its dot or gave up, or LATE_DOT_MS has passed. */
  private async settled(members: GroupMember[]): Promise<void> {
    let unsettled = members.filter((m) => !m.settled).length;
    if (unsettled === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, SendGroups.LATE_DOT_MS);
      for (const member of members) {
        if (member.settled) continue;
        member.onSettled = () => {
          member.onSettled = null;
          unsettled -= 1;
          if (unsettled > 0) return;
          clearTimeout(timer);
          resolve();
        };
      }
    });
    for (const member of members) member.onSettled = null;
  }

  private async commitGroup(members: GroupMember[]): Promise<void> {
    this.marking += 1;
    let marked: MarkedGroup;
    try {
      marked = await markGroupSent(
        this.database,
        members.map((m) => m.row),
      );
    } catch {
      for (const member of members) this.conclude(member, 'failed');
      return;
    } finally {
      this.marking -= 1;
      this.schedule();
    }
    // Ids from a raw query come as strings (bigint), hence Number.
    const owned = members.filter((m) => marked.owned.has(Number(m.row.id)));
    for (const member of members) if (!owned.includes(member)) this.conclude(member, 'superseded');
    if (owned.length === 0) {
      await marked.rollback().catch(() => undefined);
      return;
    }
    await this.settled(owned);
    const going = owned.filter((m) => m.dot);
    const late = owned.filter((m) => !m.settled);
    for (const member of late) member.stage = 'late';
    if (going.length === 0) {
      // Every member gave up or is late: nothing to commit.
      await marked.rollback().catch(() => undefined);
      for (const member of owned) if (!late.includes(member)) this.finish(member);
      return;
    }
    if (late.length > 0) {
      try {
        await marked.release(late.map((m) => m.row.id));
      } catch {
        await marked.rollback().catch(() => undefined);
        this.concludeFailed(owned, late);
        return;
      }
    }
    const wrote = new Set<GroupMember>();
    let dotsWritten = false;
    let commitError: Error | null = null;
    try {
      await marked.commitWith(() => {
        dotsWritten = true;
        for (const member of going) if (member.dot?.write()) wrote.add(member);
      });
    } catch (error) {
      commitError = error as Error;
    }
    if (!dotsWritten) {
      // Failed before the COMMIT was written: the transaction rolls back and no dot may go.
      this.concludeFailed(owned, late);
      return;
    }
    for (const member of wrote) this.finish(member, commitError ?? undefined);
    // Members that gave up, or whose connection closed, while their row was in the mark: no dot
    // went, so the mark is undone before their senders re-queue or retry the row. (A late member's
    // mark was taken back already; it joins a later group when its dot comes, see ready.)
    await Promise.all(
      owned
        .filter((m) => !wrote.has(m) && !late.includes(m))
        .map(async (member) => {
          await unmarkSent(this.database.db, member.row).catch(() => undefined);
          this.finish(member);
        }),
    );
  }

  /**
   * A group's transaction failed: its members' dots are dropped, but for the late ones, whose marks
   * went with it, and which join a later group when their dots come (some may have already).
   */
  private concludeFailed(owned: GroupMember[], late: GroupMember[]): void {
    for (const member of owned) if (!late.includes(member)) this.conclude(member, 'failed');
  }

  /** The member's mark cannot be committed with its dot: its dot is dropped, now or when it comes. */
  private conclude(member: GroupMember, outcome: 'superseded' | 'failed'): void {
    member.outcome = outcome;
    member.dot?.drop(outcome);
    if (member.dot || member.abandoned) this.finish(member);
  }
}

/** Undoes the mark of a message that did not go out after all. */
async function unmarkSent(db: DbOrTx, row: SendRow): Promise<void> {
  await db
    .update(campaignSends)
    .set({ status: 'sending', sentAt: null, messageId: null })
    .where(
      and(eq(campaignSends.id, row.id), eq(campaignSends.claimToken, row.claimToken), eq(campaignSends.status, 'sent')),
    );
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
export async function recordSend(
  database: Database,
  row: SendRow,
  within?: DbOrTx,
  earlyJoinMaxMs = 2,
): Promise<SendRecord | null> {
  if (!database.connect || within) {
    const db = within ?? database.db;
    const updated = await db
      .update(campaignSends)
      .set({ status: 'sent', sentAt: new Date(), messageId: row.messageId, error: null })
      .where(
        and(
          eq(campaignSends.id, row.id),
          eq(campaignSends.claimToken, row.claimToken),
          eq(campaignSends.status, 'sending'),
        ),
      )
      .returning({ id: campaignSends.id });
    if (updated.length !== 1) return null;
    return {
      finish: async (dot) => void dot.write(),
      // Not sent after all (the server refused it, or the connection failed first): undo the mark.
      rollback: () => unmarkSent(db, row),
    };
  }
  let groups = groupsByDatabase.get(database);
  if (!groups) groupsByDatabase.set(database, (groups = new SendGroups(database, earlyJoinMaxMs)));
  const group = groups;
  let member: GroupMember | null = null;
  let dueAt: number | null = null;
  return {
    dotDue() {
      dueAt = performance.now();
      if (group.joinsEarly) member ??= group.join(row);
    },
    finish(dot) {
      if (dueAt !== null) group.observeDueToDot(performance.now() - dueAt);
      member ??= group.join(row);
      group.ready(member, dot);
      return member.done;
    },
    // A member still waiting for its group leaves it; one in a group's mark has its mark undone by
    // that group (its dot, if still held, is not written on a closed connection; the caller re-queues the row).
    async rollback() {
      if (member) await group.abandon(member);
    },
  };
}
