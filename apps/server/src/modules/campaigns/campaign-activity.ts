import type {
  CampaignActivityItem,
  CampaignActivityKind,
  CampaignActivityResponse,
} from '@sendwell/contract/campaigns';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import * as repo from './campaign-activity.repo.ts';
import { findCampaign } from './campaigns.repo.ts';
import { CAMPAIGN_NOT_FOUND } from './campaigns.service.ts';

function toItem(row: repo.ActivityRow): CampaignActivityItem {
  return {
    contactId: row.contactId === null ? null : Number(row.contactId),
    email: row.email,
    name: `${row.firstName} ${row.lastName}`.trim(),
    at: new Date(row.at).toISOString(),
    count: Number(row.count),
    detail: row.detail,
  };
}

async function ownedCampaign(db: Db, userId: string, id: number) {
  const campaign = await findCampaign(db, userId, id);
  if (!campaign) throw new AppError('not_found', CAMPAIGN_NOT_FOUND);
  return campaign;
}

/** One page of who opened, clicked, bounced, unsubscribed or complained; another user's campaign is 404. */
export async function campaignActivity(
  db: Db,
  userId: string,
  id: number,
  query: { kind: CampaignActivityKind; search?: string | undefined; page: number; pageSize: number },
): Promise<CampaignActivityResponse> {
  await ownedCampaign(db, userId, id);
  const search = query.search || undefined;
  const [rows, total] = await Promise.all([
    repo.listActivity(db, userId, id, {
      kind: query.kind,
      search,
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    }),
    repo.countActivity(db, userId, id, query.kind, search),
  ]);
  return { items: rows.map(toItem), total };
}

/** A CSV field: quoted, and a leading = + - @ made text so a spreadsheet does not run it as a formula. */
function csvField(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
}

const EXPORT_BATCH = 1000;

/**
 * The whole who-list as CSV, streamed a batch at a time (memory stays flat however many recipients).
 * The campaign is checked before the first byte, so another user's campaign is a 404, not an empty file.
 */
export async function campaignActivityCsv(
  db: Db,
  userId: string,
  id: number,
  query: { kind: CampaignActivityKind; search?: string | undefined },
): Promise<{ filename: string; rows: AsyncIterable<string> }> {
  const campaign = await ownedCampaign(db, userId, id);
  const search = query.search || undefined;
  async function* rows() {
    yield 'email,name,first_at,count,detail\r\n';
    for (let offset = 0; ; offset += EXPORT_BATCH) {
      const batch = await repo.listActivity(db, userId, id, { kind: query.kind, search, limit: EXPORT_BATCH, offset });
      if (batch.length > 0) {
        yield batch
          .map(toItem)
          .map((item) => [item.email, item.name, item.at, item.count, item.detail].map(csvField).join(',') + '\r\n')
          .join('');
      }
      if (batch.length < EXPORT_BATCH) return;
    }
  }
  const slug =
    campaign.name
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'campaign';
  return { filename: `${slug}-${query.kind}.csv`, rows: rows() };
}
