import type { z } from 'zod';
import { type CampaignTemplate, type createCampaignTemplateBodySchema } from '@sendwell/contract/campaign-templates';
import { unknownMergeTagMessage, unknownMergeTags, type EmailBlock } from '@sendwell/contract/campaigns';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { RAW_HTML_PLACEHOLDERS } from '../rendering/index.ts';
import * as repo from './campaign-templates.repo.ts';

const TEMPLATE_NOT_FOUND = 'Template not found';
/** How many templates one account may keep (each may hold up to 2 MB of HTML). */
const MAX_TEMPLATES = 200;

type CreateBody = z.output<typeof createCampaignTemplateBodySchema>;

function toTemplate(row: repo.CampaignTemplateRow): CampaignTemplate {
  return {
    id: row.id,
    name: row.name,
    subject: row.subject,
    preheader: row.preheader,
    blocks: row.blocks,
    html: row.contentHtml,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Refuses unknown merge tags, as a campaign's save does, so a campaign started from it saves. */
function checkTemplateMergeTags(subject: string, preheader: string, blocks: EmailBlock[], html: string): void {
  const texts = [subject, preheader];
  for (const block of blocks) {
    if (block.type === 'text' || block.type === 'button') texts.push(block.content.text);
    if (block.type === 'image') texts.push(block.content.alt);
  }
  const inHtml = unknownMergeTags(html).filter((tag) => !(RAW_HTML_PLACEHOLDERS as readonly string[]).includes(tag));
  const unknown = [...new Set([...texts.flatMap(unknownMergeTags), ...inHtml])];
  if (unknown.length > 0) {
    const message = unknownMergeTagMessage(unknown);
    throw new AppError('bad_request', message, { content: message });
  }
}

export async function templatesOf(db: Db, userId: string): Promise<CampaignTemplate[]> {
  return (await repo.listTemplates(db, userId)).map(toTemplate);
}

/** Saves content as a template: blocks, or (a campaign in its own HTML) the HTML alone. */
export async function createTemplate(db: Db, userId: string, body: CreateBody): Promise<CampaignTemplate> {
  const blocks = body.blocks;
  const html = blocks.length > 0 ? '' : body.html;
  checkTemplateMergeTags(body.subject, body.preheader, blocks, html);
  if ((await repo.listTemplates(db, userId)).length >= MAX_TEMPLATES) {
    throw new AppError('conflict', `You can keep at most ${MAX_TEMPLATES} templates. Delete one you no longer use.`);
  }
  const row = await repo.insertTemplate(db, {
    userId,
    name: body.name,
    subject: body.subject,
    preheader: body.preheader,
    blocks,
    contentHtml: html,
  });
  return toTemplate(row);
}

export async function renameTemplate(db: Db, userId: string, id: number, name: string): Promise<CampaignTemplate> {
  const row = await repo.renameTemplate(db, userId, id, name);
  if (!row) throw new AppError('not_found', TEMPLATE_NOT_FOUND);
  return toTemplate(row);
}

export async function deleteTemplate(db: Db, userId: string, id: number): Promise<void> {
  if (!(await repo.deleteTemplate(db, userId, id))) throw new AppError('not_found', TEMPLATE_NOT_FOUND);
}
