import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { campaignSends } from '../../db/schema/index.ts';
import type { SendRecord } from './transport.ts';

const COMMIT_GRACE = 'SELECT pg_sleep(0.005)';
const nothingLeft: SendRecord = { commit: async () => undefined, rollback: async () => undefined };

/**
 * Marks a claimed ledger row sent, for the transport's commit hook; null when the claim no longer
 * owns the row (another worker took it over).
 *
 * On Postgres the mark is left in an open transaction on a client of its own, and `commit` writes
 * the COMMIT synchronously, so the transport can write it and the final dot back to back (see
 * transport.ts). synchronous_commit is off for it: only a database crash in the next ~200 ms could
 * lose the commit, and that would mean one resend. On the embedded database, which runs in this
 * process, the mark is committed at once.
 */
export async function recordSend(database: Database, row: { id: number; claimToken: string; messageId: string }): Promise<SendRecord | null> {
  if (!database.connect) {
    const updated = await database.db
      .update(campaignSends)
      .set({ status: 'sent', sentAt: new Date(), messageId: row.messageId, error: null })
      .where(and(eq(campaignSends.id, row.id), eq(campaignSends.status, 'sending'), eq(campaignSends.claimToken, row.claimToken)))
      .returning({ id: campaignSends.id });
    return updated.length === 1 ? nothingLeft : null;
  }
  const client = await database.connect();
  try {
    // One round trip: a parameterless query goes as a simple query, which may hold several statements.
    const results = (await client.query(
      `BEGIN; SET LOCAL synchronous_commit TO OFF;
       UPDATE campaign_sends SET status = 'sent', sent_at = now(), message_id = ${client.escapeLiteral(row.messageId)}, error = NULL
       WHERE id = ${Number(row.id)} AND status = 'sending' AND claim_token = ${client.escapeLiteral(row.claimToken)} RETURNING id`,
    )) as unknown as { rows: unknown[] }[];
    if (results.at(-1)?.rows.length !== 1) {
      await client.query('ROLLBACK');
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
      // Both are written before this returns (the client is pipelined), as two writes, never one.
      // A write to a server waiting on this socket wakes it, and the OS often lets it run at once,
      // pausing this process; after the COMMIT and before the dot, a kill in that pause would leave
      // a record without its message. So the first write, a short sleep, takes the wake-up (and
      // any pause, harmless while nothing is committed), and the COMMIT finds the server busy.
      return settle([client.query(COMMIT_GRACE), client.query('COMMIT')]);
    },
    rollback() {
      if (settled) return Promise.resolve();
      settled = true;
      return settle([client.query('ROLLBACK')]);
    },
  };
}
