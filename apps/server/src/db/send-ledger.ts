import { getTableName, sql } from 'drizzle-orm';
import type { DbOrTx } from './client.ts';
import type { SendLedger } from '../lib/mail-transport.ts';
import type { campaignSends, sequenceSends } from './schema/index.ts';

/**
 * The send ledger of a table of sends (campaign_sends, sequence_sends: the same columns) as the
 * delivery engine's recorders see it: one set of mark rules for every kind of send.
 */
export function sendLedgerOf(db: DbOrTx, table: typeof campaignSends | typeof sequenceSends): SendLedger {
  const name = getTableName(table);
  return {
    name,
    /**
     * The after-accept mark of messages the server accepted. A row is marked while its claim owns it,
     * and also when no claim does (its claim went stale and it waits in the queue: the message went, so
     * sending it again would be a second copy). A row this claim already marked with this message
     * counts as marked again, so that a mark retried after its answer was lost (it had committed)
     * answers the same. A row another claim holds is left to it (superseded).
     */
    async markSent(rows) {
      const result = await db.execute(sql`
        UPDATE ${table} AS s
        SET status = 'sent', sent_at = CASE WHEN s.status = 'sent' THEN s.sent_at ELSE now() END,
          claim_token = m.claim_token, message_id = m.message_id, error = NULL
        FROM unnest(${sql.param(rows.map((r) => r.id))}::bigint[], ${sql.param(rows.map((r) => r.claimToken))}::text[], ${sql.param(rows.map((r) => r.messageId))}::text[]) AS m(id, claim_token, message_id)
        WHERE s.id = m.id AND (
          (s.status = 'sending' AND s.claim_token = m.claim_token)
          OR (s.status = 'queued' AND s.claim_token IS NULL)
          OR (s.status = 'sent' AND s.claim_token = m.claim_token AND s.message_id = m.message_id))
        RETURNING s.id`);
      return new Set((result.rows as { id: number | string }[]).map((r) => Number(r.id)));
    },
    ...ledgerStatementsOf(name),
  };
}

/** The exactly-once recorder's statements on a table of sends (run on its own record connection). */
export function ledgerStatementsOf(name: string): Pick<SendLedger, 'markSql' | 'unmarkSql'> {
  return {
    // Marks rows sent, each only while its claim owns it; ids in ascending order so two groups lock rows alike.
    markSql: `UPDATE ${name} AS s SET status = 'sent', sent_at = now(), message_id = m.message_id, error = NULL
  FROM unnest($1::bigint[], $2::text[], $3::text[]) AS m(id, claim_token, message_id)
  WHERE s.id = m.id AND s.status = 'sending' AND s.claim_token = m.claim_token RETURNING s.id`,
    // Undoes the mark of rows whose message did not go out after all.
    unmarkSql: `UPDATE ${name} AS s SET status = 'sending', sent_at = NULL, message_id = NULL
  FROM unnest($1::bigint[], $2::text[]) AS m(id, claim_token)
  WHERE s.id = m.id AND s.claim_token = m.claim_token AND s.status = 'sent'`,
  };
}
