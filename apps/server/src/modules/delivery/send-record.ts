import { performance } from 'node:perf_hooks';
import { and, eq } from 'drizzle-orm';
import type pg from 'pg';
import type { Database } from '../../db/client.ts';
import { campaignSends } from '../../db/schema/index.ts';
import type { SendRecord } from './transport.ts';

/**
 * How long the server is kept busy after the mark, and the margin before its end still counted on.
 * Long enough for most messages' envelope and body to go out (mark to dot measured at p50 4.5 ms,
 * p90 11.5 ms with a saturated worker): a later dot needs a second sleep, whose write wakes the server.
 */
const GRACE_MS = 12;
const GRACE_MARGIN_MS = 2;
/**
 * Named, so each record connection parses and plans them once: these run for every message, and
 * parsing and planning them each time was a visible share of the database's work while sending.
 */
const GRACE = { name: 'sendwell_send_grace', text: `SELECT pg_sleep(${GRACE_MS / 1000})` };
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
 * database, which runs in this process, the mark is committed at once and undone by `rollback`.
 */
export async function recordSend(database: Database, row: { id: number; claimToken: string; messageId: string }): Promise<SendRecord | null> {
  if (!database.connect) {
    const updated = await database.db
      .update(campaignSends)
      .set({ status: 'sent', sentAt: new Date(), messageId: row.messageId, error: null })
      .where(and(eq(campaignSends.id, row.id), eq(campaignSends.status, 'sending'), eq(campaignSends.claimToken, row.claimToken)))
      .returning({ id: campaignSends.id });
    if (updated.length !== 1) return null;
    return {
      commit: async () => undefined,
      // Not sent after all (the server refused it, or the connection failed first): undo the mark.
      rollback: async () => {
        await database.db
          .update(campaignSends)
          .set({ status: 'sending', sentAt: null, messageId: null })
          .where(and(eq(campaignSends.id, row.id), eq(campaignSends.status, 'sent'), eq(campaignSends.claimToken, row.claimToken)));
      },
    };
  }
  const client = await database.connect();
  let sleeping: Promise<unknown>;
  let issuedAt: number;
  try {
    // One write: the mark and, pipelined behind it, a short sleep that keeps the server busy, not
    // waiting on this socket, while the message's last bytes go out (see commit below).
    const socket = (client as unknown as pg.Client).connection.stream;
    // The sleep cannot start before it is written, so it surely lasts until issuedAt + GRACE_MS.
    issuedAt = performance.now();
    socket.cork();
    const begun = client.query('BEGIN');
    const marking = client.query<{ id: string }>({ ...MARK_SENT, values: [row.id, row.claimToken, row.messageId] });
    sleeping = client.query(GRACE);
    socket.uncork();
    begun.catch(() => undefined);
    sleeping.catch(() => undefined);
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
    commit() {
      if (settled) return Promise.resolve();
      settled = true;
      // The COMMIT is written before this returns (the client is pipelined); the transport writes
      // the dot right after. A write to a server waiting on this socket wakes it, and the OS often
      // lets it run at once, pausing this process; after the COMMIT and before the dot, a kill in
      // that pause would leave a record without its message. So the COMMIT must find the server
      // busy: still in the sleep taken with the mark, or else in a fresh one whose write takes
      // the wake-up (and any pause, harmless while nothing is committed).
      const statements = [sleeping];
      if (performance.now() - issuedAt > GRACE_MS - GRACE_MARGIN_MS) statements.push(client.query(GRACE));
      statements.push(client.query('COMMIT'));
      return settle(statements);
    },
    rollback() {
      if (settled) return Promise.resolve();
      settled = true;
      return settle([sleeping, client.query('ROLLBACK')]);
    },
  };
}
