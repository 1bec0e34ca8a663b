import { and, arrayOverlaps, asc, count, desc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import {
  leadCampaigns,
  leadFormSubmissions,
  leadGenerationRuns,
  leads,
  leadSources,
  leadWebhookDeliveries,
} from '../../db/schema/index.ts';

export type { LeadConsentRecord, LeadGenerationPlatformProgress } from '../../db/schema/leads.ts';
export type LeadSourceRow = typeof leadSources.$inferSelect;
export type NewLeadSourceRow = typeof leadSources.$inferInsert;
export type LeadRow = typeof leads.$inferSelect;
export type NewLeadRow = typeof leads.$inferInsert;
export type LeadCampaignRow = typeof leadCampaigns.$inferSelect;
export type FormSubmissionRow = typeof leadFormSubmissions.$inferSelect;
export type NewFormSubmissionRow = typeof leadFormSubmissions.$inferInsert;
export type LeadGenerationRunRow = typeof leadGenerationRuns.$inferSelect;
export type NewLeadGenerationRunRow = typeof leadGenerationRuns.$inferInsert;

// ---- lead sources ----

/** The account's lead sources, oldest first, each with how many leads it brought. */
export async function listSources(db: DbOrTx, userId: string): Promise<(LeadSourceRow & { totalLeads: number })[]> {
  const rows = await db.select().from(leadSources).where(eq(leadSources.userId, userId)).orderBy(asc(leadSources.id));
  const totals = await leadCountsBySource(
    db,
    userId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, totalLeads: totals.get(row.id) ?? 0 }));
}

async function leadCountsBySource(db: DbOrTx, userId: string, sourceIds: number[]): Promise<Map<number, number>> {
  if (sourceIds.length === 0) return new Map();
  const rows = await db
    .select({ sourceId: leads.sourceId, n: count() })
    .from(leads)
    .where(and(eq(leads.userId, userId), inArray(leads.sourceId, sourceIds)))
    .groupBy(leads.sourceId);
  return new Map(rows.map((row) => [row.sourceId ?? 0, row.n]));
}

export async function findSource(db: DbOrTx, userId: string, id: number): Promise<LeadSourceRow | undefined> {
  const [row] = await db
    .select()
    .from(leadSources)
    .where(and(eq(leadSources.userId, userId), eq(leadSources.id, id)))
    .limit(1);
  return row;
}

export async function sourceLeadCount(db: DbOrTx, userId: string, id: number): Promise<number> {
  return (await leadCountsBySource(db, userId, [id])).get(id) ?? 0;
}

export async function insertSource(db: DbOrTx, values: NewLeadSourceRow): Promise<LeadSourceRow> {
  const [row] = await db.insert(leadSources).values(values).returning();
  if (!row) throw new Error('lead source insert returned nothing');
  return row;
}

export async function updateSource(
  db: DbOrTx,
  userId: string,
  id: number,
  values: Partial<NewLeadSourceRow>,
): Promise<LeadSourceRow | undefined> {
  const [row] = await db
    .update(leadSources)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(leadSources.userId, userId), eq(leadSources.id, id)))
    .returning();
  return row;
}

/** Deletes a source; its leads stay, without a source (the foreign key sets it null). */
export async function deleteSource(db: DbOrTx, userId: string, id: number): Promise<boolean> {
  const rows = await db
    .delete(leadSources)
    .where(and(eq(leadSources.userId, userId), eq(leadSources.id, id)))
    .returning({ id: leadSources.id });
  return rows.length > 0;
}

// ---- leads ----

/** The account's leads, newest first. */
export async function listLeads(db: DbOrTx, userId: string, limit: number): Promise<LeadRow[]> {
  return db
    .select()
    .from(leads)
    .where(eq(leads.userId, userId))
    .orderBy(desc(leads.createdAt), desc(leads.id))
    .limit(limit);
}

export async function findLead(db: DbOrTx, userId: string, id: number): Promise<LeadRow | undefined> {
  const [row] = await db
    .select()
    .from(leads)
    .where(and(eq(leads.userId, userId), eq(leads.id, id)))
    .limit(1);
  return row;
}

/** Inserts a lead; undefined when the account has a lead with that email already. */
export async function insertLead(db: DbOrTx, values: NewLeadRow): Promise<LeadRow | undefined> {
  const [row] = await db
    .insert(leads)
    .values(values)
    .onConflictDoNothing({ target: [leads.userId, leads.email], where: sql`${leads.email} IS NOT NULL` })
    .returning();
  return row;
}

/** Updates a lead; `expectedStatus` makes the change conditional on the status it was read with. */
export async function updateLead(
  db: DbOrTx,
  userId: string,
  id: number,
  values: Partial<NewLeadRow>,
  expectedStatus?: string,
): Promise<LeadRow | undefined> {
  const [row] = await db
    .update(leads)
    .set({ ...values, updatedAt: new Date() })
    .where(
      and(
        eq(leads.userId, userId),
        eq(leads.id, id),
        expectedStatus === undefined ? undefined : eq(leads.status, expectedStatus),
      ),
    )
    .returning();
  return row;
}

/** Locks a lead's row for the rest of the transaction (conversion runs once). */
export async function lockLead(tx: DbOrTx, userId: string, id: number): Promise<LeadRow | undefined> {
  const [row] = await tx
    .select()
    .from(leads)
    .where(and(eq(leads.userId, userId), eq(leads.id, id)))
    .for('update');
  return row;
}

// ---- lead campaigns ----

export type LeadCampaignWithCounts = LeadCampaignRow & {
  totalLeads: number;
  qualifiedLeads: number;
  convertedLeads: number;
};

/** The account's lead campaigns, oldest first, with counts taken from their leads' statuses. */
export async function listCampaigns(db: DbOrTx, userId: string, onlyId?: number): Promise<LeadCampaignWithCounts[]> {
  const rows = await db
    .select({
      campaign: leadCampaigns,
      totalLeads: sql<number>`count(${leads.id})::int`,
      qualifiedLeads: sql<number>`count(${leads.id}) FILTER (WHERE ${leads.status} IN ('qualified', 'converted'))::int`,
      convertedLeads: sql<number>`count(${leads.id}) FILTER (WHERE ${leads.status} = 'converted')::int`,
    })
    .from(leadCampaigns)
    .leftJoin(leads, and(eq(leads.campaignId, leadCampaigns.id), eq(leads.userId, userId)))
    .where(and(eq(leadCampaigns.userId, userId), onlyId === undefined ? undefined : eq(leadCampaigns.id, onlyId)))
    .groupBy(leadCampaigns.id)
    .orderBy(asc(leadCampaigns.id));
  return rows.map((row) => ({
    ...row.campaign,
    totalLeads: row.totalLeads,
    qualifiedLeads: row.qualifiedLeads,
    convertedLeads: row.convertedLeads,
  }));
}

export async function findCampaign(db: DbOrTx, userId: string, id: number): Promise<LeadCampaignRow | undefined> {
  const [row] = await db
    .select()
    .from(leadCampaigns)
    .where(and(eq(leadCampaigns.userId, userId), eq(leadCampaigns.id, id)))
    .limit(1);
  return row;
}

export async function insertCampaign(
  db: DbOrTx,
  userId: string,
  name: string,
  description: string | null,
): Promise<LeadCampaignRow> {
  const [row] = await db.insert(leadCampaigns).values({ userId, name, description }).returning();
  if (!row) throw new Error('lead campaign insert returned nothing');
  return row;
}

// ---- hosted forms ----

/** The active form source with this slug (any account's: the slug is the form's public address). */
export async function findFormBySlug(db: DbOrTx, slug: string): Promise<LeadSourceRow | undefined> {
  const [row] = await db
    .select()
    .from(leadSources)
    .where(and(eq(leadSources.slug, slug), eq(leadSources.type, 'form')))
    .limit(1);
  return row;
}

export async function insertSubmission(db: DbOrTx, values: NewFormSubmissionRow): Promise<FormSubmissionRow> {
  const [row] = await db.insert(leadFormSubmissions).values(values).returning();
  if (!row) throw new Error('form submission insert returned nothing');
  return row;
}

/** A submission by id alone, locked: its confirmation link names it, and the address is checked after. */
export async function lockSubmission(tx: DbOrTx, id: number): Promise<FormSubmissionRow | undefined> {
  const [row] = await tx.select().from(leadFormSubmissions).where(eq(leadFormSubmissions.id, id)).for('update');
  return row;
}

/** Claims a submission's confirmation mail: answers the row once, the first time it is asked. */
export async function claimSubmissionMail(db: DbOrTx, id: number, at: Date): Promise<FormSubmissionRow | undefined> {
  const [row] = await db
    .update(leadFormSubmissions)
    .set({ mailedAt: at })
    .where(and(eq(leadFormSubmissions.id, id), isNull(leadFormSubmissions.mailedAt)))
    .returning();
  return row;
}

export async function markSubmissionConfirmed(db: DbOrTx, id: number, at: Date, leadId: number): Promise<void> {
  await db.update(leadFormSubmissions).set({ confirmedAt: at, leadId }).where(eq(leadFormSubmissions.id, id));
}

export async function findLeadByEmail(db: DbOrTx, userId: string, email: string): Promise<LeadRow | undefined> {
  const [row] = await db
    .select()
    .from(leads)
    .where(and(eq(leads.userId, userId), eq(leads.email, email)))
    .limit(1);
  return row;
}

// ---- generating leads ----

/** The account's active sources of a type (and provider), oldest first; connected ones (with a key) before others. */
export async function activeSources(
  db: DbOrTx,
  userId: string,
  type: string,
  provider?: string,
): Promise<LeadSourceRow[]> {
  return db
    .select()
    .from(leadSources)
    .where(
      and(
        eq(leadSources.userId, userId),
        eq(leadSources.type, type),
        eq(leadSources.isActive, true),
        provider === undefined ? undefined : eq(leadSources.provider, provider),
      ),
    )
    .orderBy(sql`${leadSources.apiKeySealed} IS NULL`, asc(leadSources.id));
}

export async function insertRun(db: DbOrTx, values: NewLeadGenerationRunRow): Promise<LeadGenerationRunRow> {
  const [row] = await db.insert(leadGenerationRuns).values(values).returning();
  if (!row) throw new Error('lead generation run insert returned nothing');
  return row;
}

export async function findRun(db: DbOrTx, userId: string, id: string): Promise<LeadGenerationRunRow | undefined> {
  const [row] = await db
    .select()
    .from(leadGenerationRuns)
    .where(and(eq(leadGenerationRuns.userId, userId), eq(leadGenerationRuns.id, id)))
    .limit(1);
  return row;
}

/** Moves a queued run to running; undefined when it is not queued (a job delivered twice works it once). */
export async function claimRun(db: DbOrTx, id: string): Promise<LeadGenerationRunRow | undefined> {
  const [row] = await db
    .update(leadGenerationRuns)
    .set({ state: 'running' })
    .where(and(eq(leadGenerationRuns.id, id), eq(leadGenerationRuns.state, 'queued')))
    .returning();
  return row;
}

export async function updateRun(db: DbOrTx, id: string, values: Partial<NewLeadGenerationRunRow>): Promise<void> {
  await db.update(leadGenerationRuns).set(values).where(eq(leadGenerationRuns.id, id));
}

/** Which of `keys` belong to a lead of the account already. */
export async function knownBusinessKeys(db: DbOrTx, userId: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ keys: leads.businessKeys })
    .from(leads)
    .where(and(eq(leads.userId, userId), arrayOverlaps(leads.businessKeys, keys)));
  const wanted = new Set(keys);
  return new Set(rows.flatMap((row) => row.keys.filter((key) => wanted.has(key))));
}

/** Which of `emails` (lower-cased) the account has a lead with already. */
export async function knownLeadEmails(db: DbOrTx, userId: string, emails: string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await db
    .select({ email: leads.email })
    .from(leads)
    .where(and(eq(leads.userId, userId), isNotNull(leads.email), inArray(leads.email, emails)));
  return new Set(rows.flatMap((row) => (row.email ? [row.email] : [])));
}

// ---- webhook sources ----

/** A source by id alone: a webhook delivery names its source, and its signature proves the sender knows its secret. */
export async function findSourceById(db: DbOrTx, id: number): Promise<LeadSourceRow | undefined> {
  const [row] = await db.select().from(leadSources).where(eq(leadSources.id, id)).limit(1);
  return row;
}

/**
 * Records a delivery's signature; false when it was recorded before (a replay). Signatures older
 * than `forgetBefore` are dropped first: their timestamps are outside the tolerance anyway.
 */
export async function recordDelivery(
  db: DbOrTx,
  sourceId: number,
  signature: string,
  forgetBefore: Date,
): Promise<boolean> {
  await db
    .delete(leadWebhookDeliveries)
    .where(and(eq(leadWebhookDeliveries.sourceId, sourceId), lt(leadWebhookDeliveries.receivedAt, forgetBefore)));
  const rows = await db
    .insert(leadWebhookDeliveries)
    .values({ sourceId, signature })
    .onConflictDoNothing()
    .returning({ sourceId: leadWebhookDeliveries.sourceId });
  return rows.length > 0;
}
