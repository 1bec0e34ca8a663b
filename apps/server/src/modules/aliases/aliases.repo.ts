import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import type { RoutingDestination, RoutingRule } from './routing.ts';
import {
  domains,
  emailAliases,
  forwardAddresses,
  forwardingDestinations,
  forwardingRules,
} from '../../db/schema/index.ts';

// An account's aliases (email_aliases, on its domains), and each alias as mail to it is routed
// (its rules, destinations and confirmed forward addresses, read with it in one statement).

export type AliasRow = typeof emailAliases.$inferSelect;
export type AliasWithDomain = AliasRow & { domainName: string };
export type NewAliasRow = typeof emailAliases.$inferInsert;
export type { StoredRuleActions, StoredRuleConditions } from '../../db/schema/aliases.ts';

const aliasColumns = { alias: emailAliases, domainName: domains.domain };

const withDomain = (row: { alias: AliasRow; domainName: string }): AliasWithDomain => ({
  ...row.alias,
  domainName: row.domainName,
});

/** Which of the user's domains among `domainIds` are verified (their DKIM record carries the account's key). */
export async function verifiedDomainIds(db: DbOrTx, userId: string, domainIds: number[]): Promise<Set<number>> {
  if (domainIds.length === 0) return new Set();
  const rows = await db
    .select({ id: domains.id })
    .from(domains)
    .where(and(eq(domains.userId, userId), inArray(domains.id, domainIds), eq(domains.dkimStatus, 'verified')));
  return new Set(rows.map((row) => row.id));
}

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
