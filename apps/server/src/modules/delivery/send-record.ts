import { performance } from 'node:perf_hooks';
import { and, eq } from 'drizzle-orm';
import type pg from 'pg';
import type { Database, DbOrTx } from '../../db/client.ts';
import { campaignSends } from '../../db/schema/index.ts';
import type { SendRecord } from './transport.ts';

/**
 * How long the server is kept busy after the mark: long enough for most messages' envelope and body
 * to go out, so their COMMIT lands in it. A later dot waits for the sleep to end and takes a second
 * one (prepareCommit), whose write wakes the server. The record's connection is held until the sleep
 * ends, so a sleep longer than needed caps the sending rate at connections ÷ sleep (measured: 16
 * record connections gave 1,000 messages/s with a 12 ms sleep and 1,370 with 5 ms). The sleep therefore
 * follows the time recent marks took to reach their dot (its 90th percentile plus the margin), within
 * GRACE_MIN_MS and GRACE_MAX_MS; GRACE_MAX_MS is where it starts.
 */
const GRACE_MIN_MS = 3;
const GRACE_MAX_MS = 12;
/** The margin before a sleep's end still counted on. */
const GRACE_MARGIN_MS = 2;
/** A second sleep, taken right before the dot when the first has run out: it only has to reach the dot. */
const GRACE_FALLBACK_MS = 5;
/**
 * Named, so each record connection parses and plans them once: these run for every message, and
 * parsing and planning them each time was a visible share of the database's work while sending.
 */
const GRACE_SQL = { name: 'sendwell_send_grace', text: 'SELECT pg_sleep($1::float8)' };

/** The sleep a mark takes, from the times recent marks took to reach their dot (one per process). */
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

  /** Records how long a mark took to reach its dot; every UPDATE_EVERY of them the sleep is recomputed. */
  observe(markToDotMs: number): void {
    this.samples[this.count % GraceEstimate.WINDOW] = markToDotMs;
    this.count += 1;
    if (this.count % GraceEstimate.UPDATE_EVERY !== 0) return;
    const recent = this.samples.slice(0, Math.min(this.count, GraceEstimate.WINDOW)).sort();
    const p90 = recent[Math.floor(0.9 * (recent.length - 1))] ?? GRACE_MAX_MS;
    this.current = Math.min(GRACE_MAX_MS, Math.max(GRACE_MIN_MS, p90 + GRACE_MARGIN_MS));
  }
}
export const graceEstimate = new GraceEstimate();

const MARK_SENT = {
  name: 'sendwell_mark_sent',
  text: `UPDATE campaign_sends SET status = 'sent', sent_at = now(), message_id = $3, error = NULL
         WHERE id = $1 AND status = 'sending' AND claim_token = $2 RETURNING id`,
};

/**
 * Marks a claimed ledger row sent, for the transport's commit hook; null when the claim no longer
 * owns the row (another worker took it over).
 *
 * On Postgres the mark is left in an open transaction on a client of its own, and `commit` writes
 * the COMMIT synchronously, so the transport can write it and the final dot back to back (see
 * transport.ts). Record connections run with synchronous_commit off (db/client.ts): only a database
 * crash in the next ~200 ms could lose the commit, and that would mean one resend. On the embedded
 * database, which runs in this process, or within a given transaction (`within`, the built-in
 * catcher's), the mark is made at once and undone by `rollback`.
 *
 * Why the COMMIT must find the server in a sleep with nothing else ahead of it: once this process is
 * killed, the server still carries out what it has already received, but only until it first fails
 * to send an answer. Its first answer after the kill still goes out; a second one fails and the
 * server drops the connection, rolling back. An answer that has arrived here but is still unread
 * when the process dies fails at once. So at the COMMIT, exactly one statement may be ahead of it
 * (the grace sleep) and every earlier answer must have been read; `prepareCommit` sees to that
 * when the sleep has run out (send-record.int.test.ts kills a client in each of these cases).
 */
export async function recordSend(database: Database, row: { id: number; claimToken: string; messageId: string }, within?: DbOrTx): Promise<SendRecord | null> {
  if (!database.connect || within) {
    const db = within ?? database.db;
    const updated = await db
      .update(campaignSends)
      .set({ status: 'sent', sentAt: new Date(), messageId: row.messageId, error: null })
      .where(and(eq(campaignSends.id, row.id), eq(campaignSends.status, 'sending'), eq(campaignSends.claimToken, row.claimToken)))
      .returning({ id: campaignSends.id });
    if (updated.length !== 1) return null;
    return {
      commit: async () => undefined,
      // Not sent after all (the server refused it, or the connection failed first): undo the mark.
      rollback: async () => {
        await db
          .update(campaignSends)
          .set({ status: 'sending', sentAt: null, messageId: null })
          .where(and(eq(campaignSends.id, row.id), eq(campaignSends.status, 'sent'), eq(campaignSends.claimToken, row.claimToken)));
      },
    };
  }
  const client = await database.connect();
  const socket = (client as unknown as pg.Client).connection.stream;
  let sleeping: Promise<unknown> = Promise.resolve();
  let issuedAt = 0;
  let sleepMs = 0;
  let markedAt = 0;
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
  try {
    // One write: the mark and, pipelined behind it, a short sleep that keeps the server busy, not
    // waiting on this socket, while the message's last bytes go out (see commit below).
    // The sleep cannot start before it is written, so it surely lasts until issuedAt + sleepMs.
    socket.cork();
    const begun = client.query('BEGIN');
    const marking = client.query<{ id: string }>({ ...MARK_SENT, values: [row.id, row.claimToken, row.messageId] });
    sleep(graceEstimate.ms);
    markedAt = issuedAt;
    socket.uncork();
    begun.catch(() => undefined);
    const marked = await marking;
    if (marked.rows.length !== 1) {
      await Promise.all([sleeping, client.query('ROLLBACK')]);
      client.release();
      return null;
    }
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
    holdWrites() {
      socket.cork();
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        socket.uncork();
      };
    },
    async prepareCommit() {
      if (settled) return;
      graceEstimate.observe(performance.now() - markedAt);
      // The sleep has run out, or will by the dot: its answer is read first, then a fresh sleep is
      // written. That write wakes the server (and may pause this process), harmless before the COMMIT.
      // It only has to outlast the few steps to the dot.
      if (performance.now() - issuedAt > sleepMs - GRACE_MARGIN_MS) {
        await sleeping;
        sleep(GRACE_FALLBACK_MS);
      }
    },
    commit() {
      if (settled) return Promise.resolve();
      settled = true;
      // The COMMIT is written before this returns (the client is pipelined); the transport writes
      // the dot right after. It lands while the server sleeps, so the write wakes nobody and cannot
      // let the server run in place of this process between the COMMIT and the dot. Should the
      // sleep have ended all the same (this process was held up since prepareCommit) and its answer
      // been read, a fresh sleep goes first and takes the wake-up: it is then the one statement
      // ahead of the COMMIT. With its answer still unread, the COMMIT goes alone: the idle server
      // carries it out before it answers anything.
      const ahead = [sleeping];
      if (sleepDone) {
        sleep(GRACE_FALLBACK_MS);
        ahead.push(sleeping);
      }
      return settle([...ahead, client.query('COMMIT')]);
    },
    rollback() {
      if (settled) return Promise.resolve();
      settled = true;
      return settle([sleeping, client.query('ROLLBACK')]);
    },
  };
}
