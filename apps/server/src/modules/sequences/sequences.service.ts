import type { z } from 'zod';
import type {
  createSequenceBodySchema,
  EditImpact,
  EnrolBody,
  Enrolment,
  EnrolmentState,
  FlowData,
  ReentryRule,
  Sequence,
  SequenceAnalytics,
  SequenceSettings,
  SequenceStatus,
  SequenceTotals,
  TriggerConfig,
  TriggerType,
  updateSequenceBodySchema,
} from '@sendwell/contract/sequences';
import type { Db, DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { requireConfirmedAccount, type UserRow } from '../auth/index.ts';
import { checkSender } from '../sender-addresses/index.ts';
import { ratePercent } from '../analytics/index.ts';
import * as repo from './sequences.repo.ts';

const SEQUENCE_NOT_FOUND = 'Sequence not found';

/** Tells the advancer that enrolments may be due now (see sequences.jobs.ts requestAdvance). */
export type AdvancerWake = () => Promise<void>;

type CreateBody = z.output<typeof createSequenceBodySchema>;
type UpdateBody = z.output<typeof updateSequenceBodySchema>;

function toSequence(row: repo.SequenceWithCounts): Sequence {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status as SequenceStatus,
    triggerType: row.triggerType as TriggerType,
    triggerConfig: row.triggerConfig,
    reentry: row.reentry as ReentryRule,
    reentryCooldownHours: row.reentryCooldownHours,
    fromEmail: row.fromEmail,
    fromName: row.fromName,
    totalSubscribers: row.totalSubscribers,
    activeSubscribers: row.activeSubscribers,
    flowData: row.flowData,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function sequencesOf(db: Db, userId: string): Promise<Sequence[]> {
  return (await repo.listSequences(db, userId)).map(toSequence);
}

async function sequenceWithCounts(db: DbOrTx, userId: string, id: number): Promise<Sequence> {
  const row = await repo.findSequenceWithCounts(db, userId, id);
  if (!row) throw new AppError('not_found', SEQUENCE_NOT_FOUND);
  return toSequence(row);
}

/** The start node's id (validateFlow has made sure there is exactly one). */
function startNodeId(flow: FlowData): string {
  const start = flow.nodes.find((node) => node.type === 'input');
  if (!start) throw new AppError('bad_request', 'The flow needs a start node');
  return start.id;
}

/** The trigger's list or segment must be the user's own (404 otherwise, as for any row not theirs). */
async function checkTriggerRows(db: DbOrTx, userId: string, config: TriggerConfig): Promise<void> {
  if (config.listId && !(await repo.listExists(db, userId, config.listId))) {
    throw new AppError('not_found', 'List not found', { 'triggerConfig.listId': 'List not found' });
  }
  if (config.segmentId && !(await repo.segmentExists(db, userId, config.segmentId))) {
    throw new AppError('not_found', 'Segment not found', { 'triggerConfig.segmentId': 'Segment not found' });
  }
}

/** Only what the trigger type uses is kept, so a stale setting of another type never enrols anyone. */
function triggerConfigFor(type: TriggerType, config: TriggerConfig): TriggerConfig {
  switch (type) {
    case 'signup':
      return config.listId ? { listId: config.listId } : {};
    case 'segment_joined':
      return { segmentId: config.segmentId ?? null };
    case 'tag_added':
      return { tag: config.tag ?? null };
    case 'custom_event':
      return { eventName: config.eventName ?? null };
    case 'manual':
      return {};
  }
}

/** What a trigger type needs and its config lacks (a PATCH may change either one alone). */
function missingTriggerSetting(type: TriggerType, config: TriggerConfig): { field: string; message: string } | null {
  if (type === 'segment_joined' && !config.segmentId) {
    return { field: 'triggerConfig.segmentId', message: 'Choose the segment that enrols contacts' };
  }
  if (type === 'tag_added' && !config.tag)
    return { field: 'triggerConfig.tag', message: 'Enter the tag that enrols contacts' };
  if (type === 'custom_event' && !config.eventName) {
    return { field: 'triggerConfig.eventName', message: 'Enter the event name that enrols contacts' };
  }
  return null;
}

/**
 * Activating sends mail: the account must be confirmed and the From proven (403 saying how
 * otherwise); saving a draft only needs a From the account may save (see checkSender).
 */
async function checkSending(db: DbOrTx, user: UserRow, fromEmail: string | null, status: SequenceStatus) {
  if (status === 'active') requireConfirmedAccount(user);
  await checkSender(db, user, fromEmail ?? user.email, status === 'active' ? 'send' : 'save');
}

/** POST /api/email-sequences: a sequence with its flow as version 1. */
export async function createSequence(db: Db, user: UserRow, body: CreateBody): Promise<Sequence> {
  const triggerConfig = triggerConfigFor(body.triggerType, body.triggerConfig);
  await checkTriggerRows(db, user.id, triggerConfig);
  await checkSending(db, user, body.fromEmail ?? null, body.status);
  return db.transaction(async (tx) => {
    const row = await repo.insertSequence(tx, {
      userId: user.id,
      name: body.name,
      description: body.description,
      status: body.status,
      triggerType: body.triggerType,
      triggerConfig,
      reentry: body.reentry,
      reentryCooldownHours: body.reentry === 'cooldown' ? (body.reentryCooldownHours ?? null) : null,
      fromEmail: body.fromEmail ?? null,
      fromName: body.fromName,
      flowData: body.flowData,
      // Only contacts who join the list from now on enter through the signup trigger.
      triggerCheckedAt: body.status === 'active' ? new Date() : null,
    });
    return sequenceWithCounts(tx, user.id, row.id);
  });
}

/** A node survives an edit when the new flow has a node of the same id and type. */
function survivingNodeIds(oldFlow: FlowData, newFlow: FlowData): string[] {
  const newTypes = new Map(newFlow.nodes.map((node) => [node.id, node.type]));
  return oldFlow.nodes.filter((node) => newTypes.get(node.id) === node.type).map((node) => node.id);
}

/** JSON with object keys sorted: jsonb gives a stored flow's keys back in its own order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

function sameFlow(a: FlowData, b: FlowData): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** What saving `flowData` would do to the enrolments in flight on the published version. */
async function impactOf(tx: DbOrTx, sequence: repo.SequenceRow, flowData: FlowData): Promise<EditImpact> {
  const byNode = await repo.activeByNode(tx, sequence.id, sequence.version);
  const surviving = new Set(survivingNodeIds(sequence.flowData, flowData));
  let active = 0;
  let moving = 0;
  for (const [nodeId, n] of byNode) {
    active += n;
    if (surviving.has(nodeId)) moving += n;
  }
  return {
    active,
    moving,
    finishingOnOld: active - moving,
    publishesVersion: active > 0 && !sameFlow(sequence.flowData, flowData),
  };
}

/** POST /api/email-sequences/:id/edit-impact: how many enrolments an edit affects, before it is saved. */
export async function editImpact(db: Db, userId: string, id: number, flowData: FlowData): Promise<EditImpact> {
  const sequence = await repo.findSequence(db, userId, id);
  if (!sequence) throw new AppError('not_found', SEQUENCE_NOT_FOUND);
  return impactOf(db, sequence, flowData);
}

/**
 * PATCH /api/email-sequences/:id. A changed flow with enrolments in flight is published as a new
 * version (those on surviving nodes move on in it, the others finish on theirs); with none in
 * flight it replaces the published flow. Status changes activate (checks sending) or pause.
 */
export async function updateSequence(
  db: Db,
  user: UserRow,
  id: number,
  body: UpdateBody,
  wakeAdvancer: AdvancerWake = async () => undefined,
): Promise<Sequence> {
  const updated = await db.transaction(async (tx) => {
    const sequence = await repo.lockSequence(tx, user.id, id);
    if (!sequence) throw new AppError('not_found', SEQUENCE_NOT_FOUND);
    const triggerType = body.triggerType ?? (sequence.triggerType as TriggerType);
    const triggerConfig =
      body.triggerType !== undefined || body.triggerConfig !== undefined
        ? triggerConfigFor(triggerType, body.triggerConfig ?? sequence.triggerConfig)
        : undefined;
    if (triggerConfig) {
      const missing = missingTriggerSetting(triggerType, triggerConfig);
      if (missing) throw new AppError('bad_request', missing.message, { [missing.field]: missing.message });
      await checkTriggerRows(tx, user.id, triggerConfig);
    }
    const status = body.status ?? (sequence.status as SequenceStatus);
    const fromEmail = body.fromEmail === undefined ? sequence.fromEmail : body.fromEmail;
    if (body.fromEmail !== undefined || (status === 'active' && sequence.status !== 'active')) {
      await checkSending(tx, user, fromEmail, status);
    }
    const reentry = body.reentry ?? (sequence.reentry as ReentryRule);
    const cooldown =
      body.reentryCooldownHours === undefined ? sequence.reentryCooldownHours : body.reentryCooldownHours;
    if (reentry === 'cooldown' && !cooldown) {
      throw new AppError('bad_request', 'Enter the cooldown in hours', {
        reentryCooldownHours: 'Enter the cooldown in hours',
      });
    }

    if (body.flowData && !sameFlow(sequence.flowData, body.flowData)) {
      const impact = await impactOf(tx, sequence, body.flowData);
      if (impact.publishesVersion) {
        await repo.publishVersion(tx, sequence, body.flowData, survivingNodeIds(sequence.flowData, body.flowData));
      } else {
        await repo.replaceCurrentFlow(tx, sequence, body.flowData);
      }
    }
    await repo.updateSequence(tx, id, {
      name: body.name,
      description: body.description,
      status,
      triggerType,
      triggerConfig,
      reentry,
      reentryCooldownHours: reentry === 'cooldown' ? cooldown : null,
      fromEmail,
      fromName: body.fromName,
      ...(status === 'active' && sequence.status !== 'active' ? { triggerCheckedAt: new Date() } : {}),
    });
    return sequenceWithCounts(tx, user.id, id);
  });
  // Activated or resumed: whatever fell due meanwhile runs now, not at the next minute's tick.
  if (updated.status === 'active') await wakeAdvancer();
  return updated;
}

/** DELETE /api/email-sequences/:id: the sequence, its versions, enrolments and step sends (sent mail stays in the Outbox). */
export async function deleteSequence(db: Db, userId: string, id: number): Promise<void> {
  if (!(await repo.deleteSequence(db, userId, id))) throw new AppError('not_found', SEQUENCE_NOT_FOUND);
}

/**
 * POST /api/email-sequences/:id/enrolments: enrols contacts, a list's members or a segment's,
 * skipping the unsubscribed and suppressed and whoever the re-entry rule keeps out. Answers how many entered.
 */
export async function enrol(
  db: Db,
  userId: string,
  id: number,
  body: EnrolBody,
  wakeAdvancer: AdvancerWake = async () => undefined,
): Promise<{ enrolled: number }> {
  const result = await db.transaction(async (tx) => {
    const sequence = await repo.lockSequence(tx, userId, id);
    if (!sequence) throw new AppError('not_found', SEQUENCE_NOT_FOUND);
    if ('listId' in body && !(await repo.listExists(tx, userId, body.listId))) {
      throw new AppError('not_found', 'List not found', { listId: 'List not found' });
    }
    if ('segmentId' in body && !(await repo.segmentExists(tx, userId, body.segmentId))) {
      throw new AppError('not_found', 'Segment not found', { segmentId: 'Segment not found' });
    }
    if ('contactIds' in body) {
      const unique = [...new Set(body.contactIds)];
      if ((await repo.countOwnContacts(tx, userId, unique)) !== unique.length) {
        throw new AppError('not_found', 'Contact not found', { contactIds: 'Contact not found' });
      }
    }
    const enrolled = await repo.enrolContacts(tx, sequence, startNodeId(sequence.flowData), body);
    return { enrolled, active: sequence.status === 'active' };
  });
  if (result.enrolled > 0 && result.active) await wakeAdvancer();
  return { enrolled: result.enrolled };
}

function nodeLabel(flow: FlowData | undefined, nodeId: string): string {
  const label = flow?.nodes.find((node) => node.id === nodeId)?.data.label?.trim();
  return label || nodeId;
}

/** GET /api/email-sequences/:id/enrolments: one page, each with its current step's label. */
export async function enrolmentsOf(
  db: Db,
  userId: string,
  id: number,
  query: { page: number; pageSize: number; state?: EnrolmentState | undefined },
): Promise<{ enrolments: Enrolment[]; total: number }> {
  const sequence = await repo.findSequence(db, userId, id);
  if (!sequence) throw new AppError('not_found', SEQUENCE_NOT_FOUND);
  const { rows, total } = await repo.enrolmentPage(db, id, {
    offset: (query.page - 1) * query.pageSize,
    limit: query.pageSize,
    state: query.state,
  });
  const flows = await repo.versionFlows(db, id, [...new Set(rows.map((row) => row.version))]);
  return {
    total,
    enrolments: rows.map((row) => ({
      id: row.id,
      contactId: row.contactId,
      email: row.email,
      firstName: row.firstName,
      lastName: row.lastName,
      version: row.version,
      currentNodeId: row.currentNodeId,
      currentStep: nodeLabel(flows.get(row.version), row.currentNodeId),
      state: row.state as EnrolmentState,
      exitReason: row.exitReason,
      nextRunAt: row.nextRunAt?.toISOString() ?? null,
      enteredAt: row.enteredAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
    })),
  };
}

/** How long a list join is left to settle before the trigger reads it: a membership's added_at is its transaction's start, which commits a moment later. */
export const TRIGGER_SETTLE_MS = 5000;

/** How long a tag addition is kept for the tag_added trigger (the minute tick reads it long before). */
const TAG_ADDITION_KEEP_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The join triggers: enrols the contacts who joined the trigger's list (signup: by form, import, API
 * or hand alike; any list when none is chosen) or segment (segment_joined: when its membership is
 * recomputed), or were given the trigger's tag (tag_added: recorded in contact_tag_additions by a
 * trigger on contacts, whoever added it), since the last check into each active sequence so
 * triggered (of one user, or of everyone). Answers how many entered.
 */
export async function runListTriggers(db: Db, userId?: string, now = new Date()): Promise<number> {
  let enrolled = 0;
  if (userId === undefined) await repo.pruneTagAdditions(db, new Date(now.getTime() - TAG_ADDITION_KEEP_MS));
  const until = new Date(now.getTime() - TRIGGER_SETTLE_MS);
  for (const candidate of await repo.activeJoinTriggeredSequences(db, userId)) {
    enrolled += await db.transaction(async (tx) => {
      const sequence = await repo.lockSequence(tx, candidate.userId, candidate.id);
      if (!sequence || sequence.status !== 'active') return 0;
      const since = sequence.triggerCheckedAt ?? sequence.updatedAt;
      if (until <= since) return 0;
      const { listId, segmentId, tag } = sequence.triggerConfig;
      const source: repo.EnrolSource =
        sequence.triggerType === 'segment_joined'
          ? { joinedSegment: { segmentId: segmentId ?? 0, since, until } }
          : sequence.triggerType === 'tag_added'
            ? { taggedWith: { tag: tag ?? '', since, until } }
            : { joinedList: { listId: listId ?? null, since, until } };
      const entered = await repo.enrolContacts(tx, sequence, startNodeId(sequence.flowData), source);
      await repo.setTriggerCheckedAt(tx, sequence.id, until);
      return entered;
    });
  }
  return enrolled;
}

/**
 * POST /api/email-sequences/events: a custom event of one contact enrols it into each active
 * sequence triggered by that event (re-entry rules apply). 404 when the contact is not the user's.
 */
export async function postEvent(
  db: Db,
  userId: string,
  event: { event: string; contactId?: number | undefined; email?: string | undefined },
  wakeAdvancer: AdvancerWake = async () => undefined,
): Promise<{ enrolled: number }> {
  const contactId = await repo.findContactId(
    db,
    userId,
    event.contactId !== undefined ? { contactId: event.contactId } : { email: event.email ?? '' },
  );
  if (contactId === undefined) throw new AppError('not_found', 'Contact not found');
  let enrolled = 0;
  for (const candidate of await repo.activeEventSequences(db, userId, event.event)) {
    enrolled += await db.transaction(async (tx) => {
      const sequence = await repo.lockSequence(tx, userId, candidate.id);
      if (!sequence || sequence.status !== 'active') return 0;
      return repo.enrolContacts(tx, sequence, startNodeId(sequence.flowData), { contactIds: [contactId] });
    });
  }
  if (enrolled > 0) await wakeAdvancer();
  return { enrolled };
}

function toTotals(counts: repo.EnrolmentCounts & repo.SendCounts): SequenceTotals {
  return {
    ...counts,
    openRate: ratePercent(counts.opened, counts.sent),
    clickRate: ratePercent(counts.clicked, counts.sent),
  };
}

/** GET /api/email-sequences/analytics: totals over all the user's sequences (the Analytics tab). */
export async function analyticsTotals(db: Db, userId: string): Promise<SequenceTotals> {
  return toTotals(await repo.totalsOf(db, userId));
}

/** GET /api/email-sequences/:id/analytics: the sequence's totals and its per-step funnel, in the published flow's node order. */
export async function sequenceAnalytics(db: Db, userId: string, id: number): Promise<SequenceAnalytics> {
  const sequence = await repo.findSequence(db, userId, id);
  if (!sequence) throw new AppError('not_found', SEQUENCE_NOT_FOUND);
  const [totals, byNode] = await Promise.all([repo.totalsOf(db, userId, id), repo.nodeCountsOf(db, id)]);
  const steps = sequence.flowData.nodes.map((node) => {
    const counts = byNode.get(node.id);
    return {
      nodeId: node.id,
      type: node.type,
      label: node.data.label?.trim() || node.id,
      // Every enrolment enters at the start node (the advancer counts arrivals after it).
      entered: node.type === 'input' ? totals.enrolled : (counts?.entered ?? 0),
      waiting: counts?.waiting ?? 0,
      queued: counts?.queued ?? 0,
      sent: counts?.sent ?? 0,
      opened: counts?.opened ?? 0,
      clicked: counts?.clicked ?? 0,
      branchedElse: counts?.branchedElse ?? 0,
      exited: counts?.ended ?? 0,
    };
  });
  return { totals: toTotals(totals), steps };
}

/** Message-IDs named by In-Reply-To / References (angle brackets kept, as sequence sends store them); at most 100. */
export function repliedMessageIds(...fields: (string | readonly string[] | null | undefined)[]): string[] {
  const ids = new Set<string>();
  for (const field of fields.flat()) {
    for (const match of (field ?? '').matchAll(/<[^<>\s]{1,250}>/g)) ids.add(match[0]);
  }
  return [...ids].slice(0, 100);
}

/**
 * A person's reply ends the enrolment whose email it answers (exit reason 'replied'): the inbound
 * pipeline hands over the accounts the message arrived for and the Message-IDs its In-Reply-To and
 * References name. Automatic replies must not come here (the caller tells them apart). Only the
 * given accounts' sends match. Answers how many enrolments ended.
 */
export async function endEnrolmentsOnReply(
  db: Db,
  userIds: readonly string[],
  messageIds: readonly string[],
): Promise<number> {
  return repo.exitRepliedEnrolments(db, [...new Set(userIds)], messageIds);
}

/** GET /api/sequence-settings */
export function sequenceSettings(db: DbOrTx, userId: string): Promise<SequenceSettings> {
  return repo.sequenceSettingsOf(db, userId);
}

/** PUT /api/sequence-settings: saves and answers the settings. */
export async function saveSequenceSettings(
  db: DbOrTx,
  userId: string,
  settings: SequenceSettings,
): Promise<SequenceSettings> {
  await repo.saveSequenceSettings(db, userId, settings);
  return repo.sequenceSettingsOf(db, userId);
}
