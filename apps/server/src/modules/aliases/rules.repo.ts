import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { forwardingRules } from '../../db/schema/index.ts';

// An alias's routing rules (forwarding_rules).

export type RuleRow = typeof forwardingRules.$inferSelect;

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

/** The alias's rule with this id, if it has one. */
export async function findRuleOfAlias(db: DbOrTx, aliasId: number, ruleId: number): Promise<RuleRow | undefined> {
  const [row] = await db
    .select()
    .from(forwardingRules)
    .where(and(eq(forwardingRules.aliasId, aliasId), eq(forwardingRules.id, ruleId)));
  return row;
}
