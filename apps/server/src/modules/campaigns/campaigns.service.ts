import type { z } from 'zod';
import {
  allBlocks,
  blockMergeTexts,
  unknownMergeTagMessage,
  unknownMergeTags,
  type CampaignDetail,
  type CampaignListItem,
  type EmailBlock,
  type createCampaignBodySchema,
  type updateCampaignBodySchema,
} from '@sendwell/contract/campaigns';
import { campaignStatusSchema } from '@sendwell/contract/campaigns';
import { isWallTime, wallTimeToInstant } from '@sendwell/contract/time-zones';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { requireConfirmedAccount, type UserRow } from '../auth/index.ts';
import { checkSender } from '../sender-addresses/index.ts';
import { ratePercent } from '../analytics/index.ts';
import {
  compileEmail,
  RAW_HTML_PLACEHOLDERS,
  renderForRecipient,
  untrackedLinks,
  type CompiledEmail,
} from '../rendering/index.ts';
import * as repo from './campaigns.repo.ts';
import { countRecipients } from './campaign-send.repo.ts';

export const CAMPAIGN_NOT_FOUND = 'Campaign not found';
const ONLY_DRAFTS = 'Only draft campaigns can be edited';

type CreateBody = z.output<typeof createCampaignBodySchema>;
type UpdateBody = z.output<typeof updateCampaignBodySchema>;

function toCampaignListItem(row: repo.CampaignRow, audienceNow: number | null = null): CampaignListItem {
  return {
    id: row.id,
    name: row.name,
    subject: row.subject,
    status: campaignStatusSchema.parse(row.status),
    totalRecipients: row.totalRecipients,
    totalSent: row.totalSent,
    totalOpens: row.totalOpens,
    totalClicks: row.totalClicks,
    openRate: ratePercent(row.totalOpens, row.totalSent),
    clickRate: ratePercent(row.totalClicks, row.totalSent),
    machineOpens: row.machineOpens,
    machineOpenRate: ratePercent(row.machineOpens, row.totalSent),
    sentAt: row.sentAt?.toISOString() ?? null,
    scheduledAt: row.scheduledAt?.toISOString() ?? null,
    timeZone: row.timeZone,
    audienceNow,
    createdAt: row.createdAt.toISOString(),
  };
}

function toCampaignDetail(row: repo.CampaignRow, audienceNow: number | null = null): CampaignDetail {
  return {
    ...toCampaignListItem(row, audienceNow),
    fromEmail: row.fromEmail,
    fromName: row.fromName,
    preheader: row.preheader,
    replyTo: row.replyTo,
    content: { html: row.contentHtml, text: row.contentText ?? '' },
    blocks: row.blocks ?? [],
    listIds: row.listIds,
    segmentIds: row.segmentIds,
    pausedUntil: row.pausedUntil?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The sender details every campaign footer carries. */
export function senderFooter(user: UserRow) {
  return {
    company: user.company || `${user.firstName} ${user.lastName}`.trim(),
    postalAddress: user.postalAddress,
    year: new Date().getFullYear(),
  };
}

/** Compiles a campaign's email; blocks when it has them, else the HTML it was created with. */
export function compileCampaign(
  campaign: Pick<repo.CampaignRow, 'blocks' | 'subject' | 'contentHtml'> & {
    preheader?: string | null;
    contentText?: string | null;
  },
  user: UserRow,
  publicUrl: string,
): CompiledEmail {
  return compileEmail(
    campaign.blocks ?? [],
    campaign.subject,
    senderFooter(user),
    publicUrl,
    campaign.contentHtml,
    campaign.preheader,
    campaign.contentText,
  );
}

/** The email for everyone: the user's own name in the merge tags, every conditional block shown, links untracked. */
function renderForEveryone(compiled: CompiledEmail, user: UserRow) {
  const self = { firstName: user.firstName, lastName: user.lastName, email: user.email, company: user.company || null };
  return renderForRecipient(compiled, self, untrackedLinks(compiled, '#unsubscribe', '#preferences'), 'everyone');
}

/**
 * The email as the preview shows it, links untracked (blocks, or a campaign's own HTML): for
 * everyone (the user's own name in the merge tags, every conditional block shown), or as one of the
 * account's contacts gets it (their fields, and only the blocks their segments and fields select).
 */
export async function previewEmail(
  db: Db,
  input: {
    blocks: EmailBlock[];
    subject: string;
    preheader?: string | null;
    /** A campaign's own HTML, rendered when there are no blocks. */
    html?: string;
    contactId?: number | null;
  },
  user: UserRow,
  publicUrl: string,
) {
  const compiled = compileEmail(
    input.blocks,
    input.subject,
    senderFooter(user),
    publicUrl,
    input.html,
    input.preheader,
  );
  if (input.contactId == null) return renderForEveryone(compiled, user);
  const contact = await repo.previewContact(db, user.id, input.contactId);
  if (!contact) throw new AppError('not_found', 'Contact not found');
  const segmentMembers = new Map(contact.segmentIds.map((id) => [id, new Set([contact.id])]));
  return renderForRecipient(
    compiled,
    {
      contactId: contact.id,
      email: contact.email,
      firstName: contact.firstName ?? '',
      lastName: contact.lastName ?? '',
      company: contact.company,
      jobTitle: contact.jobTitle,
      location: contact.location,
    },
    untrackedLinks(compiled, '#unsubscribe', '#preferences'),
    { segmentMembers },
  );
}

/** Refuses unknown merge tags anywhere a recipient will read them. */
function checkMergeTags(
  subject: string | undefined,
  blocks: EmailBlock[] | undefined,
  preheader?: string | null,
  /** A campaign's own HTML (no blocks), which may also place {{unsubscribe}} and {{preferences}}. */
  rawHtml?: string,
): void {
  const texts = [subject ?? '', preheader ?? ''];
  for (const block of allBlocks(blocks ?? [])) texts.push(...blockMergeTexts(block));
  const inRawHtml = unknownMergeTags(rawHtml ?? '').filter(
    (tag) => !(RAW_HTML_PLACEHOLDERS as readonly string[]).includes(tag),
  );
  const unknown = [...new Set([...texts.flatMap(unknownMergeTags), ...inRawHtml])];
  if (unknown.length > 0) {
    const message = unknownMergeTagMessage(unknown);
    throw new AppError('bad_request', message, { content: message });
  }
}

async function checkRecipients(
  db: Db,
  userId: string,
  listIds: number[] | undefined,
  segmentIds: number[] | undefined,
): Promise<void> {
  if (listIds && (await repo.ownedListIds(db, userId, listIds)).length !== new Set(listIds).size) {
    throw new AppError('not_found', 'Contact list not found');
  }
  if (segmentIds && (await repo.ownedSegmentIds(db, userId, segmentIds)).length !== new Set(segmentIds).size) {
    throw new AppError('not_found', 'Segment not found');
  }
}

const SCHEDULE_IN_FUTURE = 'Choose a time in the future to schedule this campaign';
const SCHEDULE_NO_SUCH_DATE = 'That date does not exist: choose another day';

/**
 * The instant a schedule names: an ISO instant as it is, a wall-clock time ('2026-11-02T09:00') in
 * the campaign's time zone (400 for a date that does not exist, such as Feb 30).
 */
function scheduleInstant(value: string, timeZone: string): Date {
  if (!isWallTime(value)) return new Date(value);
  const instant = wallTimeToInstant(value, timeZone);
  if (!instant) throw new AppError('bad_request', SCHEDULE_NO_SUCH_DATE, { scheduledAt: SCHEDULE_NO_SUCH_DATE });
  return instant;
}

/** The schedule's instant when the status asks for one; 400 unless it is in the future. */
function checkSchedule(
  status: string | undefined,
  scheduledAt: string | null | undefined,
  timeZone: string,
): Date | null {
  if (status !== 'scheduled') return null;
  const instant = scheduledAt ? scheduleInstant(scheduledAt, timeZone) : null;
  if (!instant || instant.getTime() <= Date.now())
    throw new AppError('bad_request', SCHEDULE_IN_FUTURE, { scheduledAt: SCHEDULE_IN_FUTURE });
  return instant;
}

const CONDITION_SEGMENT_UNKNOWN = 'A block is shown to a segment that does not exist. Choose one of your segments.';

/** A conditional block's segment must be one of the account's own. */
async function checkConditions(db: Db, userId: string, blocks: EmailBlock[] | undefined): Promise<void> {
  const ids = new Set<number>();
  for (const block of allBlocks(blocks ?? []))
    if (block.condition?.kind === 'segment') ids.add(block.condition.segmentId);
  if (ids.size > 0 && (await repo.ownedSegmentIds(db, userId, [...ids])).length !== ids.size) {
    throw new AppError('bad_request', CONDITION_SEGMENT_UNKNOWN, { content: CONDITION_SEGMENT_UNKNOWN });
  }
}

/** The stored row's fields for a body; the HTML stored is the server's own rendering of the blocks. */
function rowValues(
  body: Partial<CreateBody>,
  user: UserRow,
  publicUrl: string,
  current?: repo.CampaignRow,
): Partial<repo.NewCampaignRow> {
  const values: Partial<repo.NewCampaignRow> = {};
  if (body.name !== undefined) values.name = body.name;
  if (body.subject !== undefined) values.subject = body.subject;
  if (body.fromEmail !== undefined) values.fromEmail = body.fromEmail;
  if (body.fromName !== undefined) values.fromName = body.fromName;
  if (body.preheader !== undefined) values.preheader = body.preheader;
  if (body.replyTo !== undefined) values.replyTo = body.replyTo;
  if (body.listIds !== undefined) values.listIds = [...new Set(body.listIds)];
  if (body.segmentIds !== undefined) values.segmentIds = [...new Set(body.segmentIds)];
  if (body.timeZone !== undefined) values.timeZone = body.timeZone;
  if (body.blocks !== undefined) values.blocks = body.blocks;
  const blocks = body.blocks ?? current?.blocks ?? [];
  const subject = body.subject ?? current?.subject ?? '';
  const preheader = body.preheader !== undefined ? body.preheader : (current?.preheader ?? null);
  if (
    blocks.length > 0 &&
    (body.blocks !== undefined ||
      body.subject !== undefined ||
      body.preheader !== undefined ||
      body.content !== undefined)
  ) {
    const compiled = compileEmail(blocks, subject, senderFooter(user), publicUrl, undefined, preheader);
    const preview = renderForEveryone(compiled, user);
    values.contentHtml = preview.html;
    values.contentText = preview.text;
  } else if (body.content !== undefined) {
    values.contentHtml = body.content.html;
    values.contentText = body.content.text ?? null;
  }
  return values;
}

/**
 * Refuses (403, saying how to fix it) a From address the account has not proven it may use: at
 * save time for the address given, and for a campaign being scheduled as if it were sent now,
 * account confirmation included (a schedule is a send that waits). See checkSender.
 */
async function checkSenderOnSave(
  db: Db,
  user: UserRow,
  fromEmail: string | undefined,
  status: string | undefined,
): Promise<void> {
  if (status === 'scheduled') requireConfirmedAccount(user);
  if (fromEmail !== undefined) await checkSender(db, user, fromEmail, status === 'scheduled' ? 'send' : 'save');
}

export type SendRequester = (campaignId: number) => Promise<unknown>;

/**
 * Creates a campaign. 'scheduled' needs a future scheduledAt; 'sent' or 'sending' is taken as a
 * request to send and goes through the same path as POST /send.
 */
export async function createCampaign(
  db: Db,
  user: UserRow,
  publicUrl: string,
  body: CreateBody,
  send: SendRequester,
): Promise<CampaignDetail> {
  checkMergeTags(body.subject, body.blocks, body.preheader, body.blocks?.length ? undefined : body.content?.html);
  const scheduledAt = checkSchedule(body.status, body.scheduledAt, body.timeZone ?? user.timeZone);
  await checkRecipients(db, user.id, body.listIds, body.segmentIds);
  await checkConditions(db, user.id, body.blocks);
  await checkSenderOnSave(db, user, body.fromEmail, body.status);
  const status = body.status === 'scheduled' ? 'scheduled' : 'draft';
  const row = await repo.insertCampaign(db, {
    ...(rowValues(body, user, publicUrl) as repo.NewCampaignRow),
    userId: user.id,
    status,
    scheduledAt,
  });
  if (body.status === 'sent' || body.status === 'sending') {
    try {
      await send(row.id);
    } catch (error) {
      // Asked to send at once and refused (no postal address, no recipients, over the plan): the
      // request failed as a whole, so it leaves no draft behind.
      await repo.deleteCampaign(db, row.id);
      throw error;
    }
  }
  const saved = (await repo.findCampaign(db, user.id, row.id)) ?? row;
  return toCampaignDetail(saved, await audienceNow(db, saved));
}

/**
 * Updates a draft (409 for any other status). A scheduled campaign may only be taken back to
 * draft. Asking for 'sent' or 'sending' sends after saving.
 */
export async function updateCampaign(
  db: Db,
  user: UserRow,
  publicUrl: string,
  id: number,
  body: UpdateBody,
  send: SendRequester,
): Promise<CampaignDetail> {
  const current = await repo.findCampaign(db, user.id, id);
  if (!current) throw new AppError('not_found', CAMPAIGN_NOT_FOUND);
  const unschedule = current.status === 'scheduled' && body.status === 'draft';
  if (current.status !== 'draft' && !unschedule) throw new AppError('conflict', ONLY_DRAFTS);
  const blocksAfter = body.blocks ?? current.blocks ?? [];
  checkMergeTags(body.subject, body.blocks, body.preheader, blocksAfter.length ? undefined : body.content?.html);
  const timeZone = (body.timeZone !== undefined ? body.timeZone : current.timeZone) ?? user.timeZone;
  const scheduledAt = checkSchedule(body.status, body.scheduledAt ?? current.scheduledAt?.toISOString(), timeZone);
  await checkRecipients(db, user.id, body.listIds, body.segmentIds);
  await checkConditions(db, user.id, body.blocks);
  await checkSenderOnSave(
    db,
    user,
    body.fromEmail ?? (body.status === 'scheduled' ? current.fromEmail : undefined),
    body.status,
  );
  const values = rowValues(body, user, publicUrl, current);
  if (scheduledAt) {
    values.status = 'scheduled';
    values.scheduledAt = scheduledAt;
  } else if (body.status === 'draft') {
    values.status = 'draft';
    values.scheduledAt = null;
  }
  const row = await repo.updateCampaign(db, id, values);
  if (body.status === 'sent' || body.status === 'sending') await send(id);
  const saved = (await repo.findCampaign(db, user.id, id)) ?? row;
  return toCampaignDetail(saved, await audienceNow(db, saved));
}

export async function getCampaign(db: Db, userId: string, id: number): Promise<CampaignDetail> {
  const row = await repo.findCampaign(db, userId, id);
  if (!row) throw new AppError('not_found', CAMPAIGN_NOT_FOUND);
  return toCampaignDetail(row, await audienceNow(db, row));
}

/** A scheduled campaign's audience as it stands now (null for any other status): one count per scheduled campaign. */
function audienceNow(db: Db, row: repo.CampaignRow): Promise<number | null> {
  if (row.status !== 'scheduled') return Promise.resolve(null);
  return countRecipients(db, row.userId, row.listIds, row.segmentIds);
}

/** How many recipients the campaign's lists and segments add up to now (for the send confirmation). */
export async function countCampaignRecipients(db: Db, userId: string, id: number): Promise<number> {
  const campaign = await getCampaign(db, userId, id);
  return countRecipients(db, userId, campaign.listIds, campaign.segmentIds);
}

export async function deleteCampaign(db: Db, userId: string, id: number): Promise<void> {
  const row = await repo.findCampaign(db, userId, id);
  if (!row) throw new AppError('not_found', CAMPAIGN_NOT_FOUND);
  if (row.status !== 'draft') throw new AppError('conflict', 'Only draft campaigns can be deleted');
  await repo.deleteCampaign(db, id);
}

/** The user's campaigns, newest first. */
export async function campaignsOf(db: Db, userId: string): Promise<CampaignListItem[]> {
  const rows = await repo.listCampaigns(db, userId);
  // Only scheduled campaigns are counted (drafts show no audience, sent ones their own figure).
  return Promise.all(rows.map(async (row) => toCampaignListItem(row, await audienceNow(db, row))));
}

/** The longest campaign name the contract accepts (a copy's "Copy of …" is cut to it). */
const NAME_MAX = 200;

/**
 * A new draft with a campaign's content, sender and recipients, named "Copy of …": any campaign,
 * sent or not, may be copied; its schedule, figures and send history are not.
 */
export async function duplicateCampaign(db: Db, userId: string, id: number): Promise<CampaignDetail> {
  const source = await repo.findCampaign(db, userId, id);
  if (!source) throw new AppError('not_found', CAMPAIGN_NOT_FOUND);
  const row = await repo.insertCampaign(db, {
    userId,
    name: `Copy of ${source.name}`.slice(0, NAME_MAX),
    subject: source.subject,
    preheader: source.preheader,
    fromEmail: source.fromEmail,
    fromName: source.fromName,
    replyTo: source.replyTo,
    status: 'draft',
    contentHtml: source.contentHtml,
    contentText: source.contentText,
    blocks: source.blocks,
    listIds: source.listIds,
    segmentIds: source.segmentIds,
  });
  return toCampaignDetail(row);
}
