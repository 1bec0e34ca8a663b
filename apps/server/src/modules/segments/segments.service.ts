import type { z } from 'zod';
import type {
  Segment,
  SegmentConditions,
  SegmentPreview,
  createSegmentBodySchema,
  updateSegmentBodySchema,
} from '@sendwell/contract/segments';
import type { Db, DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { toContact } from '../contacts/index.ts';
import * as repo from './segments.repo.ts';

const SEGMENT_NOT_FOUND = 'Segment not found';

function toSegment(row: repo.SegmentRow): Segment {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    isActive: row.isActive,
    isAutoUpdate: row.isAutoUpdate,
    conditions: row.conditions,
    contactCount: row.contactCount,
    lastUpdatedAt: row.lastUpdatedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function segmentsOf(db: Db, userId: string): Promise<Segment[]> {
  return (await repo.listSegments(db, userId)).map(toSegment);
}

async function requireSegment(db: Db, userId: string, id: number): Promise<repo.SegmentRow> {
  const row = await repo.findSegment(db, userId, id);
  if (!row) throw new AppError('not_found', SEGMENT_NOT_FOUND);
  return row;
}

/** Creates a segment and computes its membership in the same transaction. */
export async function createSegment(
  db: Db,
  userId: string,
  body: z.output<typeof createSegmentBodySchema>,
): Promise<Segment> {
  return db.transaction(async (tx) => {
    const row = await repo.insertSegment(tx, { ...body, userId });
    await repo.recomputeMembership(tx, row, repo.compileConditions(row.conditions));
    return toSegment((await repo.findSegment(tx, userId, row.id)) ?? row);
  });
}

/** Updates a segment; new rules recompute the membership at once. */
export async function updateSegment(
  db: Db,
  userId: string,
  id: number,
  body: z.output<typeof updateSegmentBodySchema>,
): Promise<Segment> {
  return db.transaction(async (tx) => {
    const row = await repo.updateSegment(tx, userId, id, body);
    if (!row) throw new AppError('not_found', SEGMENT_NOT_FOUND);
    if (body.conditions) await repo.recomputeMembership(tx, row, repo.compileConditions(row.conditions));
    return toSegment((await repo.findSegment(tx, userId, id)) ?? row);
  });
}

export async function deleteSegment(db: Db, userId: string, id: number): Promise<void> {
  if (!(await repo.deleteSegment(db, userId, id))) throw new AppError('not_found', SEGMENT_NOT_FOUND);
}

/** Recomputes membership and contactCount now and sets lastUpdatedAt. */
export async function refreshSegment(db: Db, userId: string, id: number): Promise<Segment> {
  return db.transaction(async (tx) => {
    const row = await repo.findSegment(tx, userId, id);
    if (!row) throw new AppError('not_found', SEGMENT_NOT_FOUND);
    await repo.recomputeMembership(tx, row, repo.compileConditions(row.conditions));
    return toSegment((await repo.findSegment(tx, userId, id)) ?? row);
  });
}

export async function segmentContacts(db: Db, userId: string, id: number, page: { page: number; pageSize: number }) {
  await requireSegment(db, userId, id);
  const { rows, total } = await repo.segmentMembers(db, id, {
    offset: (page.page - 1) * page.pageSize,
    limit: page.pageSize,
  });
  return { contacts: rows.map(toContact), total };
}

/** The live count and first contacts for rules being edited (nothing is stored). */
export async function previewConditions(
  db: Db,
  userId: string,
  conditions: SegmentConditions,
  pageSize: number,
): Promise<SegmentPreview> {
  const predicate = repo.compileConditions(conditions);
  const [count, rows] = await Promise.all([
    repo.countMatching(db, userId, predicate),
    repo.firstMatching(db, userId, predicate, pageSize),
  ]);
  return { count, contacts: rows.map(toContact) };
}

/** Recomputes every auto-updating segment of one user (or of everyone, for the hourly sweep). */
export async function refreshAutoUpdateSegments(db: Db, userId?: string): Promise<number> {
  const segments = await repo.autoUpdateSegmentsOf(db, userId);
  for (const segment of segments) {
    await db.transaction((tx) => repo.recomputeMembership(tx, segment, repo.compileConditions(segment.conditions)));
  }
  return segments.length;
}

/** Brings the given auto-updating segments of a user up to date within `tx` (before a campaign's audience is fixed). */
export async function refreshAutoSegmentsIn(tx: DbOrTx, userId: string, segmentIds: number[]): Promise<void> {
  if (segmentIds.length === 0) return;
  for (const segment of await repo.autoUpdateSegmentsIn(tx, userId, segmentIds)) {
    await repo.recomputeMembership(tx, segment, repo.compileConditions(segment.conditions));
  }
}
