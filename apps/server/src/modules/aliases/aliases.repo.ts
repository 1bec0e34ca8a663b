import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { executeNamed, type Db, type DbOrTx, type NamedStatement } from '../../db/client.ts';
import type { RoutingDestination, RoutingRule } from './routing.ts';
import {
  aliasAutoReplies,
  aliasAutoReplyHours,
  aliasForwards,
  aliasMessages,
  domains,
  emailAliases,
  forwardAddresses,
  forwardingDestinations,
  forwardingRules,
  inboundMessages,
  srsReturnPaths,
} from '../../db/schema/index.ts';

export type AliasRow = typeof emailAliases.$inferSelect;
export type AliasWithDomain = AliasRow & { domainName: string };
export type RuleRow = typeof forwardingRules.$inferSelect;
export type DestinationRow = typeof forwardingDestinations.$inferSelect;
export type ForwardAddressRow = typeof forwardAddresses.$inferSelect;
export type AliasMessageRow = typeof aliasMessages.$inferSelect;
export type ForwardRow = typeof aliasForwards.$inferSelect;
export type NewAliasRow = typeof emailAliases.$inferInsert;
export type { StoredRuleActions, StoredRuleConditions } from '../../db/schema/aliases.ts';

const aliasColumns = { alias: emailAliases, domainName: domains.domain };
const withDomain = (row: { alias: AliasRow; domainName: string }): AliasWithDomain => ({
  ...row.alias,
  domainName: row.domainName,
});

/** The user's domain with this id (name and whether its DKIM record is verified). */
export async function findOwnedDomain(
  db: DbOrTx,
  userId: string,
  domainId: number,
): Promise<{ id: number; domain: string; dkimStatus: string } | undefined> {
  const [row] = await db
    .select({ id: domains.id, domain: domains.domain, dkimStatus: domains.dkimStatus })
    .from(domains)
    .where(and(eq(domains.userId, userId), eq(domains.id, domainId)))
    .limit(1);
  return row;
}

export async function listAliases(db: DbOrTx, userId: string, domainId: number): Promise<AliasWithDomain[]> {
  const rows = await db
    .select(aliasColumns)
    .from(emailAliases)
    .innerJoin(domains, eq(domains.id, emailAliases.domainId))
    .where(and(eq(emailAliases.userId, userId), eq(emailAliases.domainId, domainId)))
    .orderBy(asc(emailAliases.createdAt), asc(emailAliases.id));
  return rows.map(withDomain);
}

export async function findAlias(db: DbOrTx, userId: string, id: number): Promise<AliasWithDomain | undefined> {
  const [row] = await db
    .select(aliasColumns)
    .from(emailAliases)
    .innerJoin(domains, eq(domains.id, emailAliases.domainId))
    .where(and(eq(emailAliases.userId, userId), eq(emailAliases.id, id)))
    .limit(1);
  return row ? withDomain(row) : undefined;
}

/** Inserts an alias; undefined when the domain has it already (the unique index said so). */
export async function insertAlias(db: DbOrTx, values: NewAliasRow): Promise<AliasRow | undefined> {
  const [row] = await db.insert(emailAliases).values(values).onConflictDoNothing().returning();
  return row;
}

export async function updateAlias(
  db: DbOrTx,
  userId: string,
  id: number,
  patch: Partial<
    Pick<AliasRow, 'destination' | 'forwardingType' | 'description' | 'autoReply' | 'autoReplyMessage' | 'isActive'>
  >,
): Promise<AliasRow | undefined> {
  if (Object.keys(patch).length === 0) {
    const [row] = await db
      .select()
      .from(emailAliases)
      .where(and(eq(emailAliases.userId, userId), eq(emailAliases.id, id)));
    return row;
  }
  const [row] = await db
    .update(emailAliases)
    .set(patch)
    .where(and(eq(emailAliases.userId, userId), eq(emailAliases.id, id)))
    .returning();
  return row;
}

export async function deleteAlias(db: DbOrTx, userId: string, id: number): Promise<boolean> {
  const rows = await db
    .delete(emailAliases)
    .where(and(eq(emailAliases.userId, userId), eq(emailAliases.id, id)))
    .returning({ id: emailAliases.id });
  return rows.length > 0;
}

/** What routing reads of an alias besides its row (routing.ts): its active rules and destinations, and which of their addresses are confirmed. */
type AliasRouting = { rules: RoutingRule[]; destinations: RoutingDestination[]; confirmed: string[] };
/** An alias as mail to it is routed: its row, its domain's name and its routing data. */
export type AliasForMail = AliasWithDomain & { routing: AliasRouting };

/**
 * The alias's active rules (lowest priority number first: the first match decides), its active
 * destinations (in the order they were added: split and round_robin count on it), and the
 * account's confirmed forward addresses among the alias's destination, destinations and rules'
 * forwardTo: one JSON value, read with the alias row.
 */
const routingOfAlias = sql<AliasRouting>`json_build_object(
  'rules', coalesce((
    SELECT json_agg(json_build_object('id', r.id, 'name', r.name, 'conditions', r.conditions, 'actions', r.actions)
                    ORDER BY r.priority, r.id)
    FROM ${forwardingRules} r WHERE r.alias_id = ${emailAliases.id} AND r.is_active), '[]'::json),
  'destinations', coalesce((
    SELECT json_agg(json_build_object('email', d.email, 'weight', d.weight) ORDER BY d.id)
    FROM ${forwardingDestinations} d WHERE d.alias_id = ${emailAliases.id} AND d.is_active), '[]'::json),
  'confirmed', coalesce((
    SELECT json_agg(f.email) FROM ${forwardAddresses} f
    WHERE f.user_id = ${emailAliases.userId} AND f.confirmed_at IS NOT NULL
      AND (f.email = ${emailAliases.destination}
           OR f.email IN (SELECT d.email FROM ${forwardingDestinations} d WHERE d.alias_id = ${emailAliases.id} AND d.is_active)
           OR f.email IN (SELECT jsonb_array_elements_text(r.actions->'forwardTo') FROM ${forwardingRules} r
                          WHERE r.alias_id = ${emailAliases.id} AND r.is_active))), '[]'::json))`;

/**
 * The active alias mail to local@domain is for, the exact alias before the catch-all, with what
 * routing reads of it (one statement). Only on domains whose DKIM record is verified (a domain
 * whose DNS the account proved it controls); with `userId`, only that account's (the webhook's
 * token names it), without (the SMTP server), any account's, the earliest verification first.
 */
export async function aliasForMail(
  db: DbOrTx,
  local: string,
  domain: string,
  userId: string | null,
): Promise<AliasForMail | undefined> {
  const [row] =
    userId === null
      ? await preparedAliasForMail(db, 'any').execute({ local, domain })
      : await preparedAliasForMail(db, 'account').execute({ local, domain, userId });
  return row ? { ...withDomain(row), routing: row.routing } : undefined;
}

/**
 * aliasForMail's query, prepared (asked at every RCPT: built once, and on Postgres planned once
 * per connection). 'any': on DKIM-verified domains, any account's; 'account': the given account's.
 */
function aliasForMailQuery(db: DbOrTx, whose: 'any' | 'account') {
  return db
    .select({ ...aliasColumns, routing: routingOfAlias })
    .from(emailAliases)
    .innerJoin(domains, eq(domains.id, emailAliases.domainId))
    .where(
      and(
        eq(domains.domain, sql.placeholder('domain')),
        inArray(emailAliases.alias, [sql.placeholder('local'), '*']),
        eq(emailAliases.isActive, true),
        // Only a domain whose DKIM record carries this account's own key (verified in DNS) routes
        // to it: another account may add the same name, and receives nothing for it until then.
        eq(domains.dkimStatus, 'verified'),
        ...(whose === 'any' ? [] : [eq(emailAliases.userId, sql.placeholder('userId'))]),
      ),
    )
    .orderBy(sql`${emailAliases.alias} = '*'`, asc(domains.verifiedAt), asc(emailAliases.id))
    .limit(1)
    .prepare(`alias_for_mail_${whose}`);
}

const aliasForMailQueries = new WeakMap<DbOrTx, Map<'any' | 'account', ReturnType<typeof aliasForMailQuery>>>();

function preparedAliasForMail(db: DbOrTx, whose: 'any' | 'account') {
  let queries = aliasForMailQueries.get(db);
  if (!queries) aliasForMailQueries.set(db, (queries = new Map()));
  let query = queries.get(whose);
  if (!query) queries.set(whose, (query = aliasForMailQuery(db, whose)));
  return query;
}

/** Every alias of the account with its domain (for the loop check on save). */
export async function aliasesOfUser(db: DbOrTx, userId: string): Promise<AliasWithDomain[]> {
  const rows = await db
    .select(aliasColumns)
    .from(emailAliases)
    .innerJoin(domains, eq(domains.id, emailAliases.domainId))
    .where(eq(emailAliases.userId, userId));
  return rows.map(withDomain);
}

/** Advances an alias's round-robin cursor; answers the value before (the turn this message takes). */
export async function takeRoundRobinTurn(db: DbOrTx, aliasId: number): Promise<number> {
  const [row] = await db
    .update(emailAliases)
    .set({ roundRobinCursor: sql`${emailAliases.roundRobinCursor} + 1` })
    .where(eq(emailAliases.id, aliasId))
    .returning({ cursor: emailAliases.roundRobinCursor });
  return (row?.cursor ?? 1) - 1;
}

// ── rules ───────────────────────────────────────────────────────────────────

export async function listRules(db: DbOrTx, userId: string, aliasId?: number): Promise<RuleRow[]> {
  return db
    .select()
    .from(forwardingRules)
    .where(
      and(eq(forwardingRules.userId, userId), aliasId === undefined ? undefined : eq(forwardingRules.aliasId, aliasId)),
    )
    .orderBy(asc(forwardingRules.priority), asc(forwardingRules.id));
}

/** An alias's active rules, lowest priority number first (the first match decides). */
export async function activeRulesOf(db: DbOrTx, aliasId: number): Promise<RuleRow[]> {
  return db
    .select()
    .from(forwardingRules)
    .where(and(eq(forwardingRules.aliasId, aliasId), eq(forwardingRules.isActive, true)))
    .orderBy(asc(forwardingRules.priority), asc(forwardingRules.id));
}

export async function insertRule(db: DbOrTx, values: typeof forwardingRules.$inferInsert): Promise<RuleRow> {
  const [row] = await db.insert(forwardingRules).values(values).returning();
  if (!row) throw new Error('rule insert returned nothing');
  return row;
}

export async function updateRule(
  db: DbOrTx,
  userId: string,
  id: number,
  patch: Partial<Pick<RuleRow, 'name' | 'isActive' | 'priority' | 'conditions' | 'actions'>>,
): Promise<RuleRow | undefined> {
  const where = and(eq(forwardingRules.userId, userId), eq(forwardingRules.id, id));
  if (Object.keys(patch).length === 0) return (await db.select().from(forwardingRules).where(where))[0];
  const [row] = await db.update(forwardingRules).set(patch).where(where).returning();
  return row;
}

export async function ruleOf(db: DbOrTx, userId: string, id: number): Promise<RuleRow | undefined> {
  const [row] = await db
    .select()
    .from(forwardingRules)
    .where(and(eq(forwardingRules.userId, userId), eq(forwardingRules.id, id)));
  return row;
}

export async function deleteRule(db: DbOrTx, userId: string, id: number): Promise<boolean> {
  const rows = await db
    .delete(forwardingRules)
    .where(and(eq(forwardingRules.userId, userId), eq(forwardingRules.id, id)))
    .returning({ id: forwardingRules.id });
  return rows.length > 0;
}

// ── destinations ────────────────────────────────────────────────────────────

export async function listDestinations(db: DbOrTx, userId: string, aliasId?: number): Promise<DestinationRow[]> {
  return db
    .select()
    .from(forwardingDestinations)
    .where(
      and(
        eq(forwardingDestinations.userId, userId),
        aliasId === undefined ? undefined : eq(forwardingDestinations.aliasId, aliasId),
      ),
    )
    .orderBy(asc(forwardingDestinations.createdAt), asc(forwardingDestinations.id));
}

export async function findDestination(db: DbOrTx, userId: string, id: number): Promise<DestinationRow | undefined> {
  const [row] = await db
    .select()
    .from(forwardingDestinations)
    .where(and(eq(forwardingDestinations.userId, userId), eq(forwardingDestinations.id, id)))
    .limit(1);
  return row;
}

/** Inserts a destination; undefined when the alias has that address already. */
export async function insertDestination(
  db: DbOrTx,
  values: typeof forwardingDestinations.$inferInsert,
): Promise<DestinationRow | undefined> {
  const [row] = await db.insert(forwardingDestinations).values(values).onConflictDoNothing().returning();
  return row;
}

export async function updateDestination(
  db: DbOrTx,
  userId: string,
  id: number,
  patch: Partial<Pick<DestinationRow, 'isActive' | 'weight'>>,
): Promise<DestinationRow | undefined> {
  const where = and(eq(forwardingDestinations.userId, userId), eq(forwardingDestinations.id, id));
  if (Object.keys(patch).length === 0) return (await db.select().from(forwardingDestinations).where(where))[0];
  const [row] = await db.update(forwardingDestinations).set(patch).where(where).returning();
  return row;
}

export async function deleteDestination(db: DbOrTx, userId: string, id: number): Promise<boolean> {
  const rows = await db
    .delete(forwardingDestinations)
    .where(and(eq(forwardingDestinations.userId, userId), eq(forwardingDestinations.id, id)))
    .returning({ id: forwardingDestinations.id });
  return rows.length > 0;
}

export async function countDestinations(db: DbOrTx, aliasId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(forwardingDestinations)
    .where(eq(forwardingDestinations.aliasId, aliasId));
  return row?.n ?? 0;
}

// ── forward addresses (confirmation) ────────────────────────────────────────

export async function forwardAddressesOf(db: DbOrTx, userId: string, emails: string[]): Promise<ForwardAddressRow[]> {
  if (emails.length === 0) return [];
  return db
    .select()
    .from(forwardAddresses)
    .where(and(eq(forwardAddresses.userId, userId), inArray(forwardAddresses.email, emails)));
}

/** The account's row for an address, made (unconfirmed) when it has none. */
export async function ensureForwardAddress(db: DbOrTx, userId: string, email: string): Promise<ForwardAddressRow> {
  await db.insert(forwardAddresses).values({ userId, email }).onConflictDoNothing();
  const [row] = await db
    .select()
    .from(forwardAddresses)
    .where(and(eq(forwardAddresses.userId, userId), eq(forwardAddresses.email, email)));
  if (!row) throw new Error('forward address vanished');
  return row;
}

export async function findForwardAddressById(db: DbOrTx, id: number): Promise<ForwardAddressRow | undefined> {
  const [row] = await db.select().from(forwardAddresses).where(eq(forwardAddresses.id, id)).limit(1);
  return row;
}

/**
 * Claims the next confirmation mail of a forwarding address: sets its time to `now` unless a mail
 * went after `notSentAfter` (one statement, so two requests at once mail once). Undefined when not.
 */
export async function claimForwardConfirmation(
  db: DbOrTx,
  id: number,
  now: Date,
  notSentAfter: Date,
): Promise<ForwardAddressRow | undefined> {
  const [row] = await db
    .update(forwardAddresses)
    .set({ confirmationSentAt: now })
    .where(
      and(
        eq(forwardAddresses.id, id),
        isNull(forwardAddresses.confirmedAt),
        or(isNull(forwardAddresses.confirmationSentAt), lte(forwardAddresses.confirmationSentAt, notSentAfter)),
      ),
    )
    .returning();
  return row;
}

/** Sets (or, with null, clears) when the address was last mailed its link. */
export async function setForwardConfirmationSent(db: DbOrTx, id: number, at: Date | null): Promise<void> {
  await db.update(forwardAddresses).set({ confirmationSentAt: at }).where(eq(forwardAddresses.id, id));
}

export async function markForwardAddressConfirmed(db: DbOrTx, id: number, at: Date): Promise<void> {
  await db.update(forwardAddresses).set({ confirmedAt: at }).where(eq(forwardAddresses.id, id));
}

/** The account's confirmed forward addresses among `emails`. */
export async function confirmedForwardEmails(db: DbOrTx, userId: string, emails: string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await db
    .select({ email: forwardAddresses.email })
    .from(forwardAddresses)
    .where(
      and(
        eq(forwardAddresses.userId, userId),
        inArray(forwardAddresses.email, emails),
        isNotNull(forwardAddresses.confirmedAt),
      ),
    );
  return new Set(rows.map((row) => row.email));
}

// ── messages, forwards, events ──────────────────────────────────────────────

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

export async function insertForwards(db: DbOrTx, rows: (typeof aliasForwards.$inferInsert)[]): Promise<ForwardRow[]> {
  if (rows.length === 0) return [];
  return db.insert(aliasForwards).values(rows).onConflictDoNothing().returning();
}

/**
 * Claims a forward for sending: pending, deferred (waiting for the plan's allowance; the caller
 * checked it again), or 'sending' under a claim older than `staleBefore` (its worker died). Answers
 * the row, or undefined when it is done or another worker holds it.
 */
export async function claimForward(
  db: DbOrTx,
  id: number,
  claimToken: string,
  now: Date,
  staleBefore: Date,
): Promise<ForwardRow | undefined> {
  const [row] = await db
    .update(aliasForwards)
    .set({ status: 'sending', claimToken, claimedAt: now, attempts: sql`${aliasForwards.attempts} + 1` })
    .where(
      and(
        eq(aliasForwards.id, id),
        or(
          inArray(aliasForwards.status, ['pending', 'deferred']),
          and(eq(aliasForwards.status, 'sending'), lt(aliasForwards.claimedAt, staleBefore)),
        ),
      ),
    )
    .returning();
  return row;
}

/** A ledger row a worker may claim: waiting, or held by a worker whose claim went stale. */
const claimable = (staleBefore: Date) =>
  or(
    inArray(aliasForwards.status, ['pending', 'deferred']),
    and(eq(aliasForwards.status, 'sending'), lt(aliasForwards.claimedAt, staleBefore)),
  );

/**
 * Claims many forwards in one statement (what claimForward does for one), at most `limit` of them
 * (lowest ids first; the rest are left as they are): answers the rows claimed.
 */
export async function claimForwards(
  db: DbOrTx,
  ids: number[],
  claimToken: string,
  now: Date,
  staleBefore: Date,
  limit: number = ids.length,
): Promise<ForwardRow[]> {
  if (ids.length === 0 || limit <= 0) return [];
  // The rows are picked (and locked) first so the limit applies to claimable rows only.
  const picked = db
    .select({ id: aliasForwards.id })
    .from(aliasForwards)
    .where(and(inArray(aliasForwards.id, ids), claimable(staleBefore)))
    .orderBy(asc(aliasForwards.id))
    .limit(limit)
    .for('update');
  return db
    .update(aliasForwards)
    .set({ status: 'sending', claimToken, claimedAt: now, attempts: sql`${aliasForwards.attempts} + 1` })
    .where(and(inArray(aliasForwards.id, picked), claimable(staleBefore)))
    .returning();
}

/** Whose each forward is and of which kind (the allowance check before a claim); missing ids are gone. */
export async function forwardOwners(
  db: DbOrTx,
  ids: number[],
): Promise<{ id: number; userId: string; kind: string; status: string }[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: aliasForwards.id,
      userId: aliasForwards.userId,
      kind: aliasForwards.kind,
      status: aliasForwards.status,
    })
    .from(aliasForwards)
    .where(inArray(aliasForwards.id, ids));
}

/**
 * Parks forwards the account may not send now (sending paused, or the month's emails used up): each
 * waits as 'deferred' with the reason, and the recovery sweep offers it again once `claimedAt` is
 * stale. Only rows no live worker holds.
 */
export async function deferForwards(
  db: DbOrTx,
  ids: number[],
  reason: string,
  now: Date,
  staleBefore: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(aliasForwards)
    .set({ status: 'deferred', error: reason.slice(0, 500), claimToken: null, claimedAt: now })
    .where(and(inArray(aliasForwards.id, ids), claimable(staleBefore)));
}

/**
 * Records the end of a claimed forward (only while the claim still owns it). A row parked as
 * 'deferred' is offered again by the sweep once FORWARD_DEFER_RETRY_MS passed from `at`.
 */
export async function finishForward(
  db: DbOrTx,
  id: number,
  claimToken: string,
  outcome: { status: 'sent' | 'failed' | 'pending' | 'deferred'; error: string | null; at: Date },
): Promise<boolean> {
  const rows = await db
    .update(aliasForwards)
    .set({
      status: outcome.status,
      error: outcome.error,
      sentAt: outcome.status === 'sent' ? outcome.at : null,
      claimToken: null,
      ...(outcome.status === 'deferred' ? { claimedAt: outcome.at } : {}),
    })
    .where(and(eq(aliasForwards.id, id), eq(aliasForwards.claimToken, claimToken)))
    .returning({ id: aliasForwards.id });
  return rows.length > 0;
}

/** What forward jobs need, by forward id: each forward, its alias message, and the alias with its domain. */
export async function forwardContexts(
  db: DbOrTx,
  ids: number[],
): Promise<Map<number, { forward: ForwardRow; message: AliasMessageRow; alias: AliasWithDomain }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ forward: aliasForwards, message: aliasMessages, ...aliasColumns })
    .from(aliasForwards)
    .innerJoin(aliasMessages, eq(aliasMessages.id, aliasForwards.aliasMessageId))
    .innerJoin(emailAliases, eq(emailAliases.id, aliasForwards.aliasId))
    .innerJoin(domains, eq(domains.id, emailAliases.domainId))
    .where(inArray(aliasForwards.id, ids));
  return new Map(
    rows.map((row) => [row.forward.id, { forward: row.forward, message: row.message, alias: withDomain(row) }]),
  );
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

/** Records many claimed forwards as sent at once (each only while `claimToken` still owns it). */
export async function finishForwardsSent(db: DbOrTx, ids: number[], claimToken: string, at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(aliasForwards)
    .set({ status: 'sent', error: null, sentAt: at, claimToken: null })
    .where(and(inArray(aliasForwards.id, ids), eq(aliasForwards.claimToken, claimToken)));
}

/** The forwards of many messages (settling their outcomes). */
export async function forwardsOfMessages(db: DbOrTx, aliasMessageIds: number[]): Promise<ForwardRow[]> {
  if (aliasMessageIds.length === 0) return [];
  return db.select().from(aliasForwards).where(inArray(aliasForwards.aliasMessageId, aliasMessageIds));
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

/**
 * Forwards left pending or stuck in 'sending' since before `before` (a lost enqueue, or a dead
 * worker: a live one renews its claims), and deferred ones parked before `deferredBefore` (the
 * allowance is checked again).
 */
export async function strandedForwards(
  db: DbOrTx,
  before: Date,
  limit: number,
  deferredBefore: Date = before,
): Promise<number[]> {
  const since = sql`coalesce(${aliasForwards.claimedAt}, ${aliasForwards.createdAt})`;
  const rows = await db
    .select({ id: aliasForwards.id })
    .from(aliasForwards)
    .where(
      or(
        and(inArray(aliasForwards.status, ['pending', 'sending']), lt(since, before)),
        and(eq(aliasForwards.status, 'deferred'), lt(since, deferredBefore)),
      ),
    )
    .limit(limit);
  return rows.map((row) => row.id);
}

/** Renews the claims of a batch in flight (claimed_at = now), so that they never look like a dead worker's. */
export async function renewForwardClaims(db: DbOrTx, claimToken: string, now: Date): Promise<void> {
  await db
    .update(aliasForwards)
    .set({ claimedAt: now })
    .where(and(eq(aliasForwards.claimToken, claimToken), eq(aliasForwards.status, 'sending')));
}

/**
 * Takes the auto-reply turn of (alias, sender): true when none went to the sender in the last
 * `windowMs` (and records this one), false otherwise. One statement, so two messages at once reply once.
 */
export async function takeAutoReplyTurn(
  db: DbOrTx,
  aliasId: number,
  sender: string,
  now: Date,
  windowMs: number,
): Promise<boolean> {
  const rows = await db
    .insert(aliasAutoReplies)
    .values({ aliasId, sender, lastSentAt: now })
    .onConflictDoUpdate({
      target: [aliasAutoReplies.aliasId, aliasAutoReplies.sender],
      set: { lastSentAt: now },
      setWhere: lt(aliasAutoReplies.lastSentAt, new Date(now.getTime() - windowMs)),
    })
    .returning({ aliasId: aliasAutoReplies.aliasId });
  return rows.length > 0;
}

/**
 * Counts one auto-reply of the account in `hour` if fewer than `cap` went in it: true when counted.
 * One statement (the count row is locked by the upsert), so concurrent messages never pass the cap together.
 */
export async function takeAutoReplyHour(db: DbOrTx, userId: string, hour: Date, cap: number): Promise<boolean> {
  // The account's earlier hours are done with: dropped as its next one starts.
  await db
    .delete(aliasAutoReplyHours)
    .where(and(eq(aliasAutoReplyHours.userId, userId), lt(aliasAutoReplyHours.hour, hour)));
  const rows = await db
    .insert(aliasAutoReplyHours)
    .values({ userId, hour, sent: 1 })
    .onConflictDoUpdate({
      target: [aliasAutoReplyHours.userId, aliasAutoReplyHours.hour],
      set: { sent: sql`${aliasAutoReplyHours.sent} + 1` },
      setWhere: lt(aliasAutoReplyHours.sent, cap),
    })
    .returning({ sent: aliasAutoReplyHours.sent });
  return rows.length > 0;
}

/** Hands back one count taken by takeAutoReplyHour (its reply was not due after all). */
export async function returnAutoReplyHour(db: DbOrTx, userId: string, hour: Date): Promise<void> {
  await db
    .update(aliasAutoReplyHours)
    .set({ sent: sql`greatest(${aliasAutoReplyHours.sent} - 1, 0)` })
    .where(and(eq(aliasAutoReplyHours.userId, userId), eq(aliasAutoReplyHours.hour, hour)));
}

/** The last `limit` messages of an alias, newest first. */
export async function aliasActivity(db: DbOrTx, aliasId: number, limit: number): Promise<AliasMessageRow[]> {
  return db
    .select()
    .from(aliasMessages)
    .where(eq(aliasMessages.aliasId, aliasId))
    .orderBy(desc(aliasMessages.receivedAt), desc(aliasMessages.id))
    .limit(limit);
}

export type DailyCounts = {
  day: string;
  received: number;
  blocked: number;
  unrouted: number;
  forwarded: number;
  failed: number;
  autoReplied: number;
};

/** Per UTC day since `since`: messages received, blocked, unrouted; forwards sent and failed; auto-replies sent. */
export async function dailyCounts(
  db: DbOrTx,
  userId: string,
  aliasId: number | undefined,
  since: Date,
): Promise<{ messages: DailyCounts[]; totals: Omit<DailyCounts, 'day'> }> {
  const day = (column: unknown) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
  const messageFilter = and(
    eq(aliasMessages.userId, userId),
    aliasId === undefined ? undefined : eq(aliasMessages.aliasId, aliasId),
  );
  const forwardFilter = and(
    eq(aliasForwards.userId, userId),
    aliasId === undefined ? undefined : eq(aliasForwards.aliasId, aliasId),
  );
  const messageRows = await db
    .select({
      day: day(aliasMessages.receivedAt),
      received: sql<number>`count(*)::int`,
      blocked: sql<number>`count(*) filter (where ${aliasMessages.outcome} = 'blocked')::int`,
      unrouted: sql<number>`count(*) filter (where ${aliasMessages.outcome} = 'unrouted')::int`,
    })
    .from(aliasMessages)
    .where(and(messageFilter, gte(aliasMessages.receivedAt, since)))
    .groupBy(sql`1`);
  const forwardRows = await db
    .select({
      day: day(aliasForwards.createdAt),
      forwarded: sql<number>`count(*) filter (where ${aliasForwards.kind} = 'forward' and ${aliasForwards.status} = 'sent')::int`,
      failed: sql<number>`count(*) filter (where ${aliasForwards.kind} = 'forward' and ${aliasForwards.status} = 'failed')::int`,
      autoReplied: sql<number>`count(*) filter (where ${aliasForwards.kind} = 'auto_reply' and ${aliasForwards.status} = 'sent')::int`,
    })
    .from(aliasForwards)
    .where(and(forwardFilter, gte(aliasForwards.createdAt, since)))
    .groupBy(sql`1`);
  const [messageTotals] = await db
    .select({
      received: sql<number>`count(*)::int`,
      blocked: sql<number>`count(*) filter (where ${aliasMessages.outcome} = 'blocked')::int`,
      unrouted: sql<number>`count(*) filter (where ${aliasMessages.outcome} = 'unrouted')::int`,
    })
    .from(aliasMessages)
    .where(messageFilter);
  const [forwardTotals] = await db
    .select({
      forwarded: sql<number>`count(*) filter (where ${aliasForwards.kind} = 'forward' and ${aliasForwards.status} = 'sent')::int`,
      failed: sql<number>`count(*) filter (where ${aliasForwards.kind} = 'forward' and ${aliasForwards.status} = 'failed')::int`,
      autoReplied: sql<number>`count(*) filter (where ${aliasForwards.kind} = 'auto_reply' and ${aliasForwards.status} = 'sent')::int`,
    })
    .from(aliasForwards)
    .where(forwardFilter);
  const byDay = new Map<string, DailyCounts>();
  const entry = (key: string) => {
    let found = byDay.get(key);
    if (!found) {
      found = { day: key, received: 0, blocked: 0, unrouted: 0, forwarded: 0, failed: 0, autoReplied: 0 };
      byDay.set(key, found);
    }
    return found;
  };
  for (const row of messageRows) Object.assign(entry(row.day), { ...row, day: row.day });
  for (const row of forwardRows) Object.assign(entry(row.day), { ...row, day: row.day });
  return {
    messages: [...byDay.values()],
    totals: {
      received: messageTotals?.received ?? 0,
      blocked: messageTotals?.blocked ?? 0,
      unrouted: messageTotals?.unrouted ?? 0,
      forwarded: forwardTotals?.forwarded ?? 0,
      failed: forwardTotals?.failed ?? 0,
      autoReplied: forwardTotals?.autoReplied ?? 0,
    },
  };
}

// ── SRS ────────────────────────────────────────────────────────────────────

/** Records SRS return paths we are about to use (one statement for them all; one used before stays as it is). */
export async function recordSrsAddresses(
  db: DbOrTx,
  values: { address: string; userId: string; originalSender: string }[],
): Promise<void> {
  if (values.length === 0) return;
  await db.insert(srsReturnPaths).values(values).onConflictDoNothing();
}

/**
 * Counts one relayed bounce for an SRS address we used, if it has relayed fewer than `max`, and
 * when (it counts against the account's monthly emails); false otherwise. One statement.
 */
export async function takeSrsBounceTurn(db: DbOrTx, address: string, max: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(srsReturnPaths)
    .set({ bouncesRelayed: sql`${srsReturnPaths.bouncesRelayed} + 1`, relayedAt: now })
    .where(and(eq(srsReturnPaths.address, address), lt(srsReturnPaths.bouncesRelayed, max)))
    .returning({ address: srsReturnPaths.address });
  return rows.length > 0;
}

/** Hands back a turn taken by takeSrsBounceTurn whose relay could not be sent. */
export async function returnSrsBounceTurn(db: DbOrTx, address: string): Promise<void> {
  await db
    .update(srsReturnPaths)
    .set({
      bouncesRelayed: sql`greatest(${srsReturnPaths.bouncesRelayed} - 1, 0)`,
      relayedAt: sql`CASE WHEN ${srsReturnPaths.bouncesRelayed} <= 1 THEN NULL ELSE ${srsReturnPaths.relayedAt} END`,
    })
    .where(eq(srsReturnPaths.address, address));
}

export async function findSrsAddress(
  db: DbOrTx,
  address: string,
): Promise<typeof srsReturnPaths.$inferSelect | undefined> {
  const [row] = await db.select().from(srsReturnPaths).where(eq(srsReturnPaths.address, address));
  return row;
}

/** How many of the account's forwarding addresses were last mailed a confirmation since `since`. */
export async function findRuleOfAlias(db: DbOrTx, aliasId: number, ruleId: number): Promise<RuleRow | undefined> {
  const [row] = await db
    .select()
    .from(forwardingRules)
    .where(and(eq(forwardingRules.aliasId, aliasId), eq(forwardingRules.id, ruleId)));
  return row;
}
