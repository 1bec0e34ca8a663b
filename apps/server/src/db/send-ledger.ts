import { randomBytes } from 'node:crypto';
import { getTableName, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from './client.ts';
import { retryOnConnectionLoss } from '../lib/db-errors.ts';
import type { SendLedger } from '../lib/mail-transport.ts';
import { aliasForwards, campaignSends, sequenceSends } from './schema/index.ts';

/**
 * A table of sends (campaign_sends, sequence_sends, alias_forwards: one row per message, the same
 * claim columns in each) and the rules that differ between them. Everything else about a claim is
 * the same code for all three (SendClaim, sendLedgerOf).
 */
export type LedgerTable = {
  table: typeof campaignSends | typeof sequenceSends | typeof aliasForwards;
  /** The status of a row waiting for a claim (a forward's is 'pending', as the alias screens show it). */
  queued: string;
  /** Every status of a row waiting for a claim (a forward may also wait 'deferred' for the plan or the warming cap). */
  waiting: readonly string[];
  /**
   * Attempts after which a row the server deferred (4xx, a dropped connection) fails instead of going
   * back to the queue; null for none (a campaign's and a sequence's retries are bounded by their jobs).
   */
  maxAttempts: number | null;
  /**
   * How long a claim may go unrenewed before it counts as a dead batch's (its rows go back to the
   * queue); null for the engine's default, half the batch timeout, which the send jobs' expiry
   * matches. A live batch renews its claims four times within it.
   */
  staleAfterMs: number | null;
  /**
   * What a claimed row becomes when its address is on the account's suppression list (the sending
   * policy checks each claimed chunk); null where the list does not apply (a forward goes to the
   * alias owner's own confirmed address: see delivery/DESIGN.md).
   */
  suppressed: string | null;
};

/** campaign_sends: a campaign's recipients, one row each. */
export const campaignSendsTable: LedgerTable = {
  table: campaignSends,
  queued: 'queued',
  waiting: ['queued'],
  maxAttempts: null,
  staleAfterMs: null,
  // Not sent, as a canceled campaign's rows: the report counts only what went.
  suppressed: 'canceled',
};

/** sequence_sends: a sequence's emails due, one row each. */
export const sequenceSendsTable: LedgerTable = {
  table: sequenceSends,
  queued: 'queued',
  waiting: ['queued'],
  maxAttempts: null,
  staleAfterMs: null,
  suppressed: 'suppressed',
};

/**
 * alias_forwards: the forwards and auto-replies of received mail. A forward is one message someone
 * waits for, its job small: a dead worker's claim goes stale after 20 s (renewed every 5 s), and a
 * row the server keeps deferring fails after 5 attempts (its job's retries and the sweep's).
 */
export const aliasForwardsTable = {
  table: aliasForwards,
  queued: 'pending',
  waiting: ['pending', 'deferred'],
  maxAttempts: 5,
  staleAfterMs: 20_000,
  suppressed: null,
} satisfies LedgerTable;

/** The statuses as an SQL list (constants of the code, never input). */
const statusList = (statuses: readonly string[]) => sql.raw(statuses.map((s) => `'${s.replace(/'/g, '')}'`).join(', '));

/**
 * One batch's claim on a table of sends, within one feed's rows (`scope`: a campaign's, a
 * sequence's, a batch of forwards): the claim token, and the ledger statements every feed shares
 * (requeue, fail, renew, release), each tried again while the database connection drops (they are
 * safe to repeat: each touches only rows this claim still holds). Which rows to claim is the feed's:
 * `claim` runs its statement and, when an answer was lost, reads back what the lost attempt claimed
 * (it may have committed).
 */
export class SendClaim {
  readonly token = randomBytes(9).toString('base64url');
  // Rows handed to the engine; a claim read back after a lost answer returns only the others.
  private readonly handedOut = new Set<number>();
  private readonly table;

  constructor(
    private readonly db: DbOrTx,
    readonly ledger: LedgerTable,
    private readonly scope: SQL,
  ) {
    this.table = ledger.table;
  }

  /** Claims rows with `take`; after a lost answer, `readBack` (this claim's rows still 'sending') first. */
  async claim<Row extends { id: number }>(
    take: () => Promise<Row[]>,
    readBack: (claimToken: string) => Promise<Row[]>,
  ): Promise<Row[]> {
    let tried = false;
    const rows = await retryOnConnectionLoss(async () => {
      if (tried) {
        const unseen = (await readBack(this.token)).filter((row) => !this.handedOut.has(row.id));
        if (unseen.length > 0) return unseen;
      }
      tried = true;
      return take();
    });
    for (const row of rows) this.handedOut.add(row.id);
    return rows;
  }

  /**
   * Puts a claimed row back in the queue, noting `error` when one is given (a failed attempt: with
   * the table's attempt cap reached, the row fails instead).
   */
  requeue(id: number, error: string | null): Promise<void> {
    const { queued, maxAttempts } = this.ledger;
    const status =
      error !== null && maxAttempts !== null
        ? sql`CASE WHEN attempts >= ${maxAttempts} THEN 'failed' ELSE ${queued} END`
        : sql`${queued}`;
    return this.run(sql`UPDATE ${this.table} SET status = ${status}, claim_token = NULL
      ${error === null ? sql`` : sql`, error = ${error}`}
      WHERE id = ${id} AND claim_token = ${this.token}`);
  }

  /** A refused row: failed, or bounced (the bounce itself is recorded by modules/bounces). */
  fail(id: number, error: string, bounced: boolean): Promise<void> {
    return this.run(sql`UPDATE ${this.table} SET status = ${bounced ? 'bounced' : 'failed'}, error = ${error}
      WHERE id = ${id} AND claim_token = ${this.token}`);
  }

  /** A claimed row whose address was suppressed after it was queued: it ends unsent (the ledger's `suppressed` status). */
  suppress(id: number): Promise<void> {
    return this.run(sql`UPDATE ${this.table} SET status = ${this.ledger.suppressed ?? 'failed'},
      error = 'The address is on the suppression list (unsubscribed, bounced or complained)'
      WHERE id = ${id} AND claim_token = ${this.token}`);
  }

  /** Stamps the rows this claim still holds unsent as held now: a live batch's claims never go stale. */
  async renew(): Promise<void> {
    await this.db.execute(sql`UPDATE ${this.table} SET claimed_at = now()
      WHERE ${this.scope} AND status = 'sending' AND claim_token = ${this.token}`);
  }

  /** Rows this claim still holds unsent go back to the queue. */
  release(): Promise<void> {
    return this.run(sql`UPDATE ${this.table} SET status = ${this.ledger.queued}, claim_token = NULL
      WHERE ${this.scope} AND status = 'sending' AND claim_token = ${this.token}`);
  }

  private async run(statement: ReturnType<typeof sql>): Promise<void> {
    await retryOnConnectionLoss(() => this.db.execute(statement));
  }
}

/**
 * The send ledger of a table of sends (campaign_sends, sequence_sends, alias_forwards: the same
 * columns) as the delivery engine's recorders see it: one set of mark rules for every kind of send.
 */
export function sendLedgerOf(db: DbOrTx, ledger: LedgerTable): SendLedger {
  const { table } = ledger;
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
          OR (s.status IN (${statusList(ledger.waiting)}) AND s.claim_token IS NULL)
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
