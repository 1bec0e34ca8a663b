import {
  createCampaignBodySchema,
  emailBlockSchema,
  type CampaignDetail,
  type CreateCampaignBody,
  type EmailBlock,
} from '@sendwell/contract/campaigns';

/**
 * Contacts picked on the Contacts page for a campaign: their list is created only when the campaign
 * is saved with them (first-hour finding 9: Cancel used to leave a "Selected contacts – …" list behind).
 */
export interface ContactSelection {
  contactIds: number[];
  /** The name the list gets when it is created ("Selected contacts – <time>"). */
  listName: string;
}

/** What the editor holds while the user works. */
export interface CampaignDraft {
  name: string;
  subject: string;
  /** The preview text inboxes show after the subject (the preheader). */
  preheader: string;
  fromName: string;
  fromEmail: string;
  replyTo: string;
  listIds: number[];
  segmentIds: number[];
  blocks: EmailBlock[];
  /**
   * A campaign written in its own HTML (no blocks): the HTML; null for a campaign built from blocks.
   * The server fills its merge tags, tracks its links and adds the pixel and, when it has no
   * {{unsubscribe}} placeholder, the footer.
   */
  rawHtml: string | null;
}

/** What a new campaign starts with when it is started from a template (or as raw HTML). */
export interface CampaignStart {
  /** The template's name, for the editor's title line. */
  templateName: string;
  subject: string;
  preheader: string;
  blocks: EmailBlock[];
  /** The HTML of a campaign written in its own HTML; null for blocks. */
  html: string | null;
}

/** Whether a saved campaign was written in its own HTML: no blocks, and an HTML body. */
function isRawHtmlCampaign(campaign: Pick<CampaignDetail, 'blocks' | 'content'>): boolean {
  return campaign.blocks.length === 0 && campaign.content.html.trim() !== '';
}

/** The editor's starting state: the saved campaign as it was, or a new one with the given defaults. */
export function initialDraft(
  campaign: CampaignDetail | undefined,
  defaults: {
    fromEmail: string;
    fromName: string;
    listIds: number[];
    blocks: EmailBlock[];
    subject?: string;
    preheader?: string;
    rawHtml?: string | null;
  },
): CampaignDraft {
  if (campaign) {
    return {
      name: campaign.name,
      subject: campaign.subject,
      preheader: campaign.preheader ?? '',
      fromName: campaign.fromName ?? '',
      fromEmail: campaign.fromEmail,
      replyTo: campaign.replyTo ?? '',
      listIds: [...campaign.listIds],
      segmentIds: [...campaign.segmentIds],
      blocks: campaign.blocks,
      rawHtml: isRawHtmlCampaign(campaign) ? campaign.content.html : null,
    };
  }
  return {
    name: '',
    subject: defaults.subject ?? '',
    preheader: defaults.preheader ?? '',
    fromName: defaults.fromName,
    fromEmail: defaults.fromEmail,
    replyTo: '',
    listIds: defaults.listIds,
    segmentIds: [],
    blocks: defaults.rawHtml != null ? [] : defaults.blocks,
    rawHtml: defaults.rawHtml ?? null,
  };
}

export type SaveStatus = 'draft' | 'scheduled' | 'sent';

/**
 * The POST/PATCH body for a draft. For blocks `content.html` is left empty on purpose: the server
 * renders the stored HTML from `blocks` itself (one renderer), and uses a sent html only when there
 * are no blocks, so an empty canvas stores an empty body rather than whatever the browser sent. A
 * campaign in its own HTML sends that HTML and no blocks.
 */
export function toCampaignBody(
  draft: CampaignDraft,
  status: SaveStatus,
  /** When and in which time zone a scheduled campaign goes out (its zone is kept for showing its times). */
  schedule?: { at: string; timeZone: string },
): CreateCampaignBody {
  return {
    name: draft.name,
    subject: draft.subject,
    preheader: draft.preheader,
    fromEmail: draft.fromEmail,
    fromName: draft.fromName,
    replyTo: draft.replyTo,
    content: { html: draft.rawHtml ?? '', text: '' },
    blocks: draft.rawHtml !== null ? [] : draft.blocks,
    status,
    scheduledAt: status === 'scheduled' ? schedule?.at : null,
    ...(schedule ? { timeZone: schedule.timeZone } : {}),
    listIds: draft.listIds,
    segmentIds: draft.segmentIds,
  };
}

export interface DraftErrors {
  /** Messages by field name (name, subject, fromEmail, fromName, replyTo, listIds…). */
  fields: Record<string, string>;
  /** The first message for each block that does not pass, by block id. */
  blocks: Record<string, string>;
}

/** Checks a body with the contract's own schema (spec §5 messages), by field and by block. */
export function validateCampaignBody(body: CreateCampaignBody): DraftErrors | null {
  const result = createCampaignBodySchema.safeParse(body);
  if (result.success) return null;
  const errors: DraftErrors = { fields: {}, blocks: {} };
  for (const issue of result.error.issues) {
    const [field, index] = issue.path;
    if (field === 'blocks' && typeof index === 'number') {
      const id = body.blocks?.[index]?.id;
      if (id && !errors.blocks[id]) errors.blocks[id] = issue.message;
    } else if (typeof field === 'string' && !errors.fields[field]) {
      errors.fields[field] = issue.message;
    }
  }
  return errors;
}

/** Per-block validation for the inspector and the preview: the first message, or null when the block is valid. */
function blockError(block: EmailBlock): string | null {
  const result = emailBlockSchema.safeParse(block);
  return result.success ? null : (result.error.issues[0]?.message ?? 'This block is not valid');
}

/** The message for one content field of a block (such as a button's `url`), or null when that field is fine. */
export function blockFieldError(block: EmailBlock, field: string): string | null {
  const result = emailBlockSchema.safeParse(block);
  if (result.success) return null;
  const issue = result.error.issues.find((i) => i.path[0] === 'content' && i.path[1] === field);
  return issue?.message ?? null;
}

/**
 * Where a button with a link still being typed points in the preview: a reserved name (RFC 2606)
 * that can never reach anyone, so the button stays visible while its link is flagged in the panel.
 */
export const PREVIEW_PLACEHOLDER_URL = 'https://link-to-fix.invalid/';

/**
 * The blocks the server can render now. A button whose only problem is its link is kept, pointing
 * at a placeholder (first-hour finding 6: it used to vanish from the preview); any other invalid
 * block, such as an image with a half-typed address, is left out.
 */
export function previewableBlocks(blocks: readonly EmailBlock[]): EmailBlock[] {
  const out: EmailBlock[] = [];
  for (const block of blocks) {
    if (blockError(block) === null) {
      out.push(block);
    } else if (block.type === 'button') {
      const patched: EmailBlock = { ...block, content: { ...block.content, url: PREVIEW_PLACEHOLDER_URL } };
      if (blockError(patched) === null) out.push(patched);
    }
  }
  return out;
}

/** A stable fingerprint of a draft, to tell whether it changed since the last save. */
export function draftFingerprint(draft: CampaignDraft): string {
  return JSON.stringify(draft);
}

/** Splits the Send Test box into addresses (commas, semicolons, spaces or new lines). */
export function parseEmailList(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((part) => part.trim())
    .filter(Boolean);
}

/** A 400 answer's `fields` (keys such as 'name' or 'blocks.2.content.url') as editor errors. */
export function serverDraftErrors(fields: Record<string, string>, blocks: readonly EmailBlock[]): DraftErrors {
  const errors: DraftErrors = { fields: {}, blocks: {} };
  for (const [key, message] of Object.entries(fields)) {
    const [field, index] = key.split('.');
    if (field === 'blocks' && index !== undefined && /^\d+$/.test(index)) {
      const id = blocks[Number(index)]?.id;
      if (id) errors.blocks[id] ??= message;
    } else if (field) {
      errors.fields[field] ??= message;
    }
  }
  return errors;
}
