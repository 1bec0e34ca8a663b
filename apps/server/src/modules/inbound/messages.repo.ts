import { and, eq, inArray, sql } from 'drizzle-orm';
import { executeNamed, type Db, type DbOrTx, type NamedStatement } from '../../db/client.ts';
import { aliasMessages, inboundMessages } from '../../db/schema/index.ts';

// Inbound messages (inbound_messages) and each alias's record of one (alias_messages), with what
// routing decided.

export type AliasMessageRow = typeof aliasMessages.$inferSelect;

export async function insertInboundMessage(
  db: DbOrTx,
  values: { messageId: string; mailFrom: string; via: string; raw: Buffer },
): Promise<number> {
  const [row] = await db.insert(inboundMessages).values(values).returning({ id: inboundMessages.id });
  if (!row) throw new Error('inbound message insert returned nothing');
  return row.id;
}

/** One alias's record of a message, with what routing decided, and the ledger rows it makes. */
export type RoutedAliasMessage = Pick<
  AliasMessageRow,
  | 'userId'
  | 'aliasId'
  | 'recipient'
  | 'fromAddress'
  | 'subject'
  | 'outcome'
  | 'detail'
  | 'ruleId'
  | 'ruleName'
  | 'forwardedTo'
  | 'autoReplied'
  | 'isTest'
  | 'receivedAt'
> & { forwards: { kind: string; toEmail: string }[] };

/**
 * Stores a message, its record on each alias and their ledger rows in one statement (atomic
 * without a transaction). An alias that has this Message-ID stored already (unique on alias and
 * Message-ID) gets nothing: it is missing from `stored`, and neither record nor rows are written.
 */
export async function insertRoutedMessage(
  db: Db,
  message: { messageId: string; mailFrom: string; via: string; raw: Buffer },
  routed: RoutedAliasMessage[],
): Promise<{ inboundId: number; stored: { aliasId: number; aliasMessageId: number; forwardIds: number[] }[] }> {
  const wanted = routed.map((row) => ({
    user_id: row.userId,
    alias_id: row.aliasId,
    recipient: row.recipient,
    from_address: row.fromAddress,
    subject: row.subject,
    outcome: row.outcome,
    detail: row.detail,
    rule_id: row.ruleId,
    rule_name: row.ruleName,
    forwarded_to: row.forwardedTo,
    auto_replied: row.autoReplied,
    is_test: row.isTest,
    received_at: row.receivedAt.toISOString(),
    forwards: row.forwards.map((forward) => ({ kind: forward.kind, to_email: forward.toEmail })),
  }));
  const [row] = (await executeNamed(db, INSERT_ROUTED_MESSAGE, [
    message.messageId,
    message.mailFrom,
    message.via,
    message.raw,
    JSON.stringify(wanted),
  ])) as { inbound_id: number | string; stored: { aliasId: number; aliasMessageId: number; forwardIds: number[] }[] }[];
  if (!row) throw new Error('inbound message insert returned nothing');
  return { inboundId: Number(row.inbound_id), stored: row.stored };
}

/** insertRoutedMessage's statement: $1 Message-ID, $2 envelope sender, $3 via, $4 raw, $5 the alias records (JSON). */
const INSERT_ROUTED_MESSAGE: NamedStatement = {
  name: 'insert_routed_message',
  text: `
    WITH inbound AS (
      INSERT INTO inbound_messages (message_id, mail_from, via, raw) VALUES ($1, $2, $3, $4::bytea) RETURNING id
    ),
    wanted AS (
      SELECT * FROM json_to_recordset($5::json) AS w(
        user_id uuid, alias_id int, recipient text, from_address text, subject text, outcome text, detail text,
        rule_id int, rule_name text, forwarded_to jsonb, auto_replied boolean, is_test boolean,
        received_at timestamptz, forwards json)
    ),
    stored AS (
      INSERT INTO alias_messages (user_id, alias_id, inbound_message_id, message_id, recipient, from_address, subject,
                                  outcome, detail, rule_id, rule_name, forwarded_to, auto_replied, is_test, received_at)
      SELECT w.user_id, w.alias_id, inbound.id, $1, w.recipient, w.from_address, w.subject,
             w.outcome, w.detail, w.rule_id, w.rule_name, w.forwarded_to, w.auto_replied, w.is_test, w.received_at
      FROM wanted w CROSS JOIN inbound
      ON CONFLICT DO NOTHING
      RETURNING id, alias_id, user_id
    ),
    forwards AS (
      INSERT INTO alias_forwards (user_id, alias_id, alias_message_id, kind, to_email)
      SELECT s.user_id, s.alias_id, s.id, f.kind, f.to_email
      FROM stored s JOIN wanted w ON w.alias_id = s.alias_id
      CROSS JOIN LATERAL json_to_recordset(w.forwards) AS f(kind text, to_email text)
      RETURNING id, alias_message_id
    )
    SELECT (SELECT id FROM inbound) AS inbound_id,
           coalesce((SELECT json_agg(json_build_object(
             'aliasId', s.alias_id,
             'aliasMessageId', s.id,
             'forwardIds', coalesce((SELECT json_agg(f.id ORDER BY f.id) FROM forwards f WHERE f.alias_message_id = s.id), '[]'::json)))
             FROM stored s), '[]'::json) AS stored`,
};

export async function findInboundRaw(
  db: DbOrTx,
  id: number,
): Promise<{ raw: Buffer; mailFrom: string; via: string; messageId: string } | undefined> {
  const [row] = await db
    .select({
      raw: inboundMessages.raw,
      mailFrom: inboundMessages.mailFrom,
      via: inboundMessages.via,
      messageId: inboundMessages.messageId,
    })
    .from(inboundMessages)
    .where(eq(inboundMessages.id, id));
  return row;
}

/** Stores what became of a message on an alias; undefined when this Message-ID was stored for the alias before. */
export async function insertAliasMessage(
  db: DbOrTx,
  values: typeof aliasMessages.$inferInsert,
): Promise<AliasMessageRow | undefined> {
  const [row] = await db.insert(aliasMessages).values(values).onConflictDoNothing().returning();
  return row;
}

export async function findAliasMessage(
  db: DbOrTx,
  aliasId: number,
  messageId: string,
): Promise<AliasMessageRow | undefined> {
  const [row] = await db
    .select()
    .from(aliasMessages)
    .where(and(eq(aliasMessages.aliasId, aliasId), eq(aliasMessages.messageId, messageId)));
  return row;
}

/** Records what routing decided for a stored message. */
export async function setAliasMessageDecision(
  db: DbOrTx,
  id: number,
  decision: Pick<AliasMessageRow, 'outcome' | 'detail' | 'ruleId' | 'ruleName' | 'forwardedTo' | 'autoReplied'>,
): Promise<void> {
  await db.update(aliasMessages).set(decision).where(eq(aliasMessages.id, id));
}

/** findInboundRaw for many stored messages at once, by id. */
export async function findInboundRaws(
  db: DbOrTx,
  ids: number[],
): Promise<Map<number, { raw: Buffer; mailFrom: string; via: string; messageId: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: inboundMessages.id,
      raw: inboundMessages.raw,
      mailFrom: inboundMessages.mailFrom,
      via: inboundMessages.via,
      messageId: inboundMessages.messageId,
    })
    .from(inboundMessages)
    .where(inArray(inboundMessages.id, ids));
  return new Map(rows.map(({ id, ...row }) => [id, row]));
}

/** Sets the outcome of many messages in one statement. */
export async function setAliasMessageOutcomes(
  db: DbOrTx,
  outcomes: { id: number; outcome: string; detail: string }[],
): Promise<void> {
  if (outcomes.length === 0) return;
  const pick = (field: 'outcome' | 'detail') =>
    sql`(CASE ${aliasMessages.id} ${sql.join(
      outcomes.map((row) => sql`WHEN ${row.id} THEN ${row[field]}`),
      sql` `,
    )} END)`;
  await db
    .update(aliasMessages)
    .set({ outcome: pick('outcome'), detail: pick('detail') })
    .where(
      inArray(
        aliasMessages.id,
        outcomes.map((row) => row.id),
      ),
    );
}
