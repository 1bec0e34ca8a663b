import { z } from 'zod';
import { bounceReasonSchema } from './bounces.ts';
import { isWithinDateRange, LATEST_DATE, rowIdSchema } from './common.ts';
import { timeZoneSchema } from './time-zones.ts';

export const campaignStatusSchema = z.enum(['draft', 'scheduled', 'sending', 'sent', 'paused', 'canceled', 'failed']);
export type CampaignStatus = z.infer<typeof campaignStatusSchema>;

/**
 * Merge tags a campaign may use: the contact's fields (contacts have no custom fields in this
 * product; job title and location are the fields beyond name, email and company). Anything else in
 * {{ }} is refused at save.
 */
export const MERGE_TAGS = ['firstName', 'lastName', 'email', 'company', 'jobTitle', 'location'] as const;
export type MergeTag = (typeof MERGE_TAGS)[number];
/** What a person calls each merge tag (the editor's picker). */
export const MERGE_TAG_LABELS: Record<MergeTag, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  company: 'Company',
  jobTitle: 'Job title',
  location: 'Location',
};
/** The message for merge tags that are not ones: names them and lists the ones there are. */
export function unknownMergeTagMessage(unknown: readonly string[]): string {
  const known = MERGE_TAGS.map((tag) => `{{${tag}}}`);
  return `Unknown merge tag ${unknown.map((t) => `{{${t}}}`).join(', ')}. Use ${known.slice(0, -1).join(', ')} or ${known.at(-1)}.`;
}
/** {{tag}} or {{tag|fallback}}; the fallback is plain text. */
export const MERGE_TAG_PATTERN = /\{\{\s*([^{}|]*?)\s*(?:\|([^{}]*))?\}\}/g;

/** Tags used in a text that are not merge tags (empty when all are known). */
export function unknownMergeTags(text: string): string[] {
  const unknown = new Set<string>();
  for (const match of text.matchAll(MERGE_TAG_PATTERN)) {
    const name = (match[1] ?? '').trim();
    if (!(MERGE_TAGS as readonly string[]).includes(name)) unknown.add(name);
  }
  return [...unknown];
}

const httpUrl = z
  .string()
  .trim()
  .max(2000, 'URL must be at most 2000 characters')
  .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), {
    message: 'Enter a full http:// or https:// URL',
  });
/** Image sources: http(s) URLs or the app's own uploads. */
export const imageSrcSchema = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => value.startsWith('/uploads/') || (/^https?:\/\//i.test(value) && URL.canParse(value)), {
    message: 'Image address must be an http:// or https:// URL',
  });
const imageSrc = imageSrcSchema;

export const colourSchema = z.string().regex(/^#[0-9a-fA-F]{3,8}$/, 'Colours are hex values like #1a2b3c');
const colour = colourSchema;
const align = z.enum(['left', 'center', 'right']);

/**
 * Fonts a block may ask for: names of font stacks that exist on the readers' devices (mail clients
 * load no web fonts reliably), so a stored style is never raw CSS. The renderer and the canvas map
 * each to its stack.
 */
export const EMAIL_FONTS = ['system', 'arial', 'helvetica', 'georgia', 'times', 'trebuchet', 'verdana'] as const;
export type EmailFont = (typeof EMAIL_FONTS)[number];
export const EMAIL_FONT_STACKS: Record<EmailFont, string> = {
  system: "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif",
  arial: 'Arial,Helvetica,sans-serif',
  helvetica: "'Helvetica Neue',Helvetica,Arial,sans-serif",
  georgia: "Georgia,'Times New Roman',serif",
  times: "'Times New Roman',Times,serif",
  trebuchet: "'Trebuchet MS',Helvetica,sans-serif",
  verdana: 'Verdana,Geneva,sans-serif',
};
export const EMAIL_FONT_LABELS: Record<EmailFont, string> = {
  system: 'System (San Francisco, Segoe, Roboto)',
  arial: 'Arial',
  helvetica: 'Helvetica',
  georgia: 'Georgia',
  times: 'Times New Roman',
  trebuchet: 'Trebuchet MS',
  verdana: 'Verdana',
};

/** Style overrides a block may carry; anything else is dropped (styles never become raw CSS). */
export const blockStylesSchema = z
  .object({
    color: colour,
    backgroundColor: colour,
    fontSize: z.number().int().min(8).max(72),
    textAlign: align,
    padding: z.number().int().min(0).max(80),
    height: z.number().int().min(0).max(400),
    width: z.number().int().min(10).max(100),
    borderRadius: z.number().int().min(0).max(40),
    fontFamily: z.enum(EMAIL_FONTS, { error: `Font must be one of ${EMAIL_FONTS.join(', ')}` }),
  })
  .partial();
export type BlockStyles = z.infer<typeof blockStylesSchema>;

const blockId = z.string().min(1).max(64);

/**
 * Rich text: the allow-listed part of tiptap's JSON a text block may hold. Only these nodes and
 * marks exist; unknown attributes (a pasted document's colours, fonts, classes) are dropped by the
 * parse and unknown node or mark types are refused, so stored rich text can never carry raw HTML.
 */
export type RichTextMark =
  { type: 'bold' } | { type: 'italic' } | { type: 'underline' } | { type: 'link'; attrs: { href: string } };
export type RichTextInline = { type: 'text'; text: string; marks?: RichTextMark[] } | { type: 'hardBreak' };
export type RichTextAlign = 'left' | 'center' | 'right';
export type RichTextNode =
  | { type: 'paragraph'; attrs?: { textAlign?: RichTextAlign | null }; content?: RichTextInline[] }
  | { type: 'heading'; attrs: { level: 1 | 2 | 3; textAlign?: RichTextAlign | null }; content?: RichTextInline[] }
  | { type: 'bulletList' | 'orderedList'; content: RichTextListItem[] };
export type RichTextListItem = { type: 'listItem'; content: RichTextNode[] };
export type RichTextDoc = { type: 'doc'; content: RichTextNode[] };

const richTextMarkSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('bold') }),
  z.object({ type: z.literal('italic') }),
  z.object({ type: z.literal('underline') }),
  z.object({
    type: z.literal('link'),
    attrs: z.object({
      href: z
        .string()
        .trim()
        .max(2000, 'URL must be at most 2000 characters')
        .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), {
          message: 'Links must be full http:// or https:// URLs',
        }),
    }),
  }),
]);
const richTextInlineSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('text'),
    text: z.string().max(20_000),
    marks: z.array(richTextMarkSchema).max(4).optional(),
  }),
  z.object({ type: z.literal('hardBreak') }),
]);
const richTextAlignSchema = z.enum(['left', 'center', 'right']).nullish();
const inlineContent = z.array(richTextInlineSchema).max(2000).optional();
const richTextNodeSchema: z.ZodType<RichTextNode> = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.object({
      type: z.literal('paragraph'),
      attrs: z.object({ textAlign: richTextAlignSchema }).optional(),
      content: inlineContent,
    }),
    z.object({
      type: z.literal('heading'),
      attrs: z.object({ level: z.union([z.literal(1), z.literal(2), z.literal(3)]), textAlign: richTextAlignSchema }),
      content: inlineContent,
    }),
    z.object({
      type: z.enum(['bulletList', 'orderedList']),
      content: z.array(richTextListItemSchema).min(1).max(500),
    }),
  ]),
);
const richTextListItemSchema: z.ZodType<RichTextListItem> = z.lazy(() =>
  z.object({ type: z.literal('listItem'), content: z.array(richTextNodeSchema).min(1).max(100) }),
);
export const richTextDocSchema = z.object({
  type: z.literal('doc'),
  content: z.array(richTextNodeSchema).max(1000),
});

/** The words of rich text, a paragraph per line: what describes a block and what merge tags are read from. */
export function richTextPlain(doc: RichTextDoc): string {
  const lines: string[] = [];
  const inline = (content: RichTextInline[] | undefined) =>
    (content ?? []).map((node) => (node.type === 'text' ? node.text : '\n')).join('');
  const walk = (nodes: RichTextNode[]) => {
    for (const node of nodes) {
      if (node.type === 'paragraph' || node.type === 'heading') lines.push(inline(node.content));
      else for (const item of node.content) walk(item.content);
    }
  };
  walk(doc.content);
  return lines.join('\n');
}

/**
 * A text block saved before rich text, read as rich text: its lines, joined by hard breaks, in one
 * paragraph (or heading), which the renderer draws exactly as it drew the plain text.
 */
export function plainTextDoc(text: string, tag: 'p' | 'h1' | 'h2' | 'h3'): RichTextDoc {
  const content: RichTextInline[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (index > 0) content.push({ type: 'hardBreak' });
    if (line) content.push({ type: 'text', text: line });
  });
  const node: RichTextNode =
    tag === 'p'
      ? { type: 'paragraph', content }
      : { type: 'heading', attrs: { level: Number(tag.slice(1)) as 1 | 2 | 3 }, content };
  return { type: 'doc', content: [node] };
}

/** Social networks a social-links block can point to; their icons ship with the app. */
export const SOCIAL_NETWORKS = ['facebook', 'instagram', 'x', 'linkedin', 'youtube', 'tiktok'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

const styles = blockStylesSchema.default({});

/** What a field rule of a conditional block can ask of a contact's field. */
export const CONDITION_OPERATORS = ['equals', 'notEquals', 'contains', 'isSet', 'isEmpty'] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];
export const CONDITION_OPERATOR_LABELS: Record<ConditionOperator, string> = {
  equals: 'is',
  notEquals: 'is not',
  contains: 'contains',
  isSet: 'is filled in',
  isEmpty: 'is empty',
};

/**
 * Conditional content (issue 30 part 6): who a block is shown to. A segment's members (or everyone
 * but them), or contacts whose field matches a rule (case-insensitive). A block without one is
 * shown to everyone.
 */
export const blockConditionSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({
      kind: z.literal('segment'),
      segmentId: rowIdSchema('segmentId must be a segment id'),
      match: z.enum(['in', 'notIn'], { error: 'match must be in or notIn' }),
    }),
    z.object({
      kind: z.literal('field'),
      field: z.enum(MERGE_TAGS, { error: `field must be one of ${MERGE_TAGS.join(', ')}` }),
      op: z.enum(CONDITION_OPERATORS, { error: `op must be one of ${CONDITION_OPERATORS.join(', ')}` }),
      value: z.string().trim().max(200, 'The value must be at most 200 characters').default(''),
    }),
  ],
  { error: 'A condition is a segment or a field rule' },
);
export type BlockCondition = z.infer<typeof blockConditionSchema>;
const condition = blockConditionSchema.optional();
const headingTag = z.enum(['h1', 'h2', 'h3']);

/** Blocks that hold content themselves (everything except columns). */
const leafBlockSchemas = [
  z.object({
    id: blockId,
    type: z.literal('text'),
    content: z.object({
      /** The plain words (as written before rich text, and the rich text's words since). */
      text: z.string().max(20_000, 'Text blocks are limited to 20,000 characters'),
      tag: z.enum(['p', 'h1', 'h2', 'h3']),
      /** The rich text; a block without one (saved before rich text) is its plain `text`. */
      doc: richTextDocSchema.optional(),
    }),
    styles,
    condition,
  }),
  z.object({
    id: blockId,
    type: z.literal('heading'),
    content: z.object({ text: z.string().trim().min(1, 'Heading text is required').max(300), tag: headingTag }),
    styles,
    condition,
  }),
  z.object({
    id: blockId,
    type: z.literal('image'),
    content: z.object({ src: imageSrc, alt: z.string().max(300).default(''), href: httpUrl.optional() }),
    styles,
    condition,
  }),
  z.object({
    id: blockId,
    type: z.literal('button'),
    content: z.object({ text: z.string().trim().min(1, 'Button text is required').max(100), url: httpUrl }),
    styles,
    condition,
  }),
  z.object({ id: blockId, type: z.literal('divider'), content: z.object({}).default({}), styles, condition }),
  z.object({ id: blockId, type: z.literal('spacer'), content: z.object({}).default({}), styles, condition }),
  z.object({
    id: blockId,
    type: z.literal('social'),
    content: z.object({
      links: z
        .array(z.object({ network: z.enum(SOCIAL_NETWORKS), url: httpUrl }))
        .min(1, 'Add at least one social link')
        .max(SOCIAL_NETWORKS.length),
    }),
    styles,
    condition,
  }),
  z.object({
    id: blockId,
    type: z.literal('video'),
    content: z.object({ url: httpUrl, thumbnail: imageSrc, alt: z.string().max(300).default('') }),
    styles,
    condition,
  }),
  z.object({
    id: blockId,
    type: z.literal('html'),
    content: z.object({ html: z.string().max(100_000, 'HTML blocks are limited to 100,000 characters') }),
    styles,
    condition,
  }),
] as const;

/** A block that can sit in a column: every type but columns. */
export const leafBlockSchema = z.discriminatedUnion('type', [...leafBlockSchemas]);
export type LeafBlock = z.infer<typeof leafBlockSchema>;

/**
 * An email block (spec part 1 §3 and issue 30): text, heading, image, button, divider, spacer,
 * social links, video, HTML, and columns (2 or 3) that hold the others.
 */
export const emailBlockSchema = z.discriminatedUnion('type', [
  ...leafBlockSchemas,
  z.object({
    id: blockId,
    type: z.literal('columns'),
    content: z.object({
      columns: z
        .array(z.object({ blocks: z.array(leafBlockSchema).max(20, 'At most 20 blocks in a column') }))
        .min(2, 'Columns come in twos or threes')
        .max(3, 'Columns come in twos or threes'),
    }),
    styles,
    condition,
  }),
]);
export type EmailBlock = z.infer<typeof emailBlockSchema>;
export type EmailBlockInput = z.input<typeof emailBlockSchema>;

/** Every block, columns' contents included (depth first, a columns block before its contents). */
export function allBlocks(blocks: readonly EmailBlock[]): EmailBlock[] {
  return blocks.flatMap((block) =>
    block.type === 'columns' ? [block, ...block.content.columns.flatMap((column) => column.blocks)] : [block],
  );
}

/** The texts of a block a recipient reads, where merge tags are filled. */
export function blockMergeTexts(block: EmailBlock): string[] {
  switch (block.type) {
    case 'text':
      return block.content.doc ? [richTextPlain(block.content.doc)] : [block.content.text];
    case 'heading':
    case 'button':
      return [block.content.text];
    case 'image':
    case 'video':
      return [block.content.alt];
    case 'html':
      return [block.content.html];
    default:
      return [];
  }
}

/** The longest preview text: inboxes show 40–130 characters of it. */
export const PREHEADER_MAX = 200;

const campaignFields = {
  name: z
    .string({ error: 'Campaign name is required' })
    .trim()
    .min(1, 'Campaign name is required')
    .max(200, 'Campaign name must be at most 200 characters'),
  subject: z
    .string({ error: 'Subject line is required' })
    .trim()
    .min(1, 'Subject line is required')
    .max(300, 'Subject line must be at most 300 characters')
    .refine((v) => !/[\r\n]/.test(v), { message: 'Subject line cannot contain line breaks' }),
  /**
   * The preheader: the preview text inboxes show after the subject, carried as a hidden span at the
   * top of the HTML body. Optional (null without one).
   */
  preheader: z
    .string()
    .trim()
    .max(PREHEADER_MAX, `Preview text must be at most ${PREHEADER_MAX} characters`)
    .refine((v) => !/[\r\n]/.test(v), { message: 'Preview text cannot contain line breaks' })
    .nullish()
    .transform((v) => v || null),
  fromEmail: z
    .string({ error: 'Invalid email format' })
    .trim()
    .pipe(z.email('Invalid email format'))
    .transform((v) => v.toLowerCase()),
  fromName: z
    .string()
    .trim()
    .max(120, 'From name must be at most 120 characters')
    .refine((v) => !/[\r\n]/.test(v), { message: 'From name cannot contain line breaks' })
    .nullish()
    .transform((v) => v || null),
  // An email address cannot hold CR or LF, so header injection through it is refused by the format check.
  replyTo: z
    .union([z.literal(''), z.string().trim().pipe(z.email('Invalid reply-to email'))])
    .nullish()
    .transform((v) => v || null),
  /** The spec's content: html generated from the blocks (the server renders its own from `blocks`). */
  content: z.object({
    html: z.string({ error: 'Email content is required' }).max(2_000_000),
    text: z.string().max(500_000).optional(),
  }),
  blocks: z.array(emailBlockSchema).max(200, 'At most 200 blocks'),
  status: z.enum(['draft', 'scheduled', 'sending', 'sent'], {
    error: 'Status must be draft, scheduled, sending or sent',
  }),
  /**
   * When a scheduled campaign goes out: an ISO instant (with Z or an offset), or a wall-clock time
   * without one ('2026-11-02T09:00'), read in the campaign's time zone (else the account's).
   */
  scheduledAt: z
    .string()
    .datetime({ offset: true, local: true, error: 'Schedule time must be an ISO date-time' })
    .refine((value) => isWithinDateRange(Date.parse(value)), {
      message: `Schedule time must be no later than ${LATEST_DATE}`,
    })
    .nullish()
    .transform((v) => v ?? null),
  listIds: z.array(rowIdSchema('listIds must be list ids')).max(100),
  segmentIds: z.array(rowIdSchema('segmentIds must be segment ids')).max(100),
  /** The IANA time zone the campaign is scheduled in and shows its times in; null for the account's. */
  timeZone: timeZoneSchema.nullish(),
};

/** POST /api/campaigns (spec part 1 §3 Campaign form, plus recipients and blocks). */
export const createCampaignBodySchema = z.object({
  ...campaignFields,
  blocks: campaignFields.blocks.default([]),
  status: campaignFields.status.default('draft'),
  listIds: campaignFields.listIds.default([]),
  segmentIds: campaignFields.segmentIds.default([]),
});
export type CreateCampaignBody = z.input<typeof createCampaignBodySchema>;
/** PATCH /api/campaigns/:id: the same fields, each optional, none defaulted (absent means unchanged). */
export const updateCampaignBodySchema = z.object(campaignFields).partial();
export type UpdateCampaignBody = z.input<typeof updateCampaignBodySchema>;

/** A campaign as GET /api/campaigns lists it (spec part 1 §3). */
export const campaignListItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  subject: z.string(),
  status: campaignStatusSchema,
  totalRecipients: z.number().int(),
  totalSent: z.number().int(),
  /** Recipients who opened: a human open or a click (a click implies an open); machine opens not counted. */
  totalOpens: z.number().int(),
  /** Recipients who clicked (bot clicks by link scanners not counted). */
  totalClicks: z.number().int(),
  /** totalOpens over totalSent, percent. */
  openRate: z.number(),
  clickRate: z.number(),
  /** Recipients whose only opens were a machine's (Apple Mail Privacy Protection, pre-fetchers). */
  machineOpens: z.number().int(),
  /** machineOpens over totalSent, percent: shown beside the open rate. */
  machineOpenRate: z.number(),
  sentAt: z.string().nullable(),
  scheduledAt: z.string().nullable(),
  /** The campaign's own time zone for its times, or null for the account's. */
  timeZone: z.string().nullable(),
  /**
   * A scheduled campaign's audience as its lists and segments stand now (suppressed and inactive
   * contacts left out; counted again when it starts); null for any other status.
   */
  audienceNow: z.number().int().nullable(),
  createdAt: z.string(),
});
export type CampaignListItem = z.infer<typeof campaignListItemSchema>;
export const campaignListSchema = z.array(campaignListItemSchema);

/** GET /api/campaigns/:id: everything the editor needs to reopen a draft as it was. */
export const campaignDetailSchema = campaignListItemSchema.extend({
  fromEmail: z.string(),
  fromName: z.string().nullable(),
  preheader: z.string().nullable(),
  replyTo: z.string().nullable(),
  content: z.object({ html: z.string(), text: z.string() }),
  blocks: z.array(emailBlockSchema),
  listIds: z.array(z.number().int()),
  segmentIds: z.array(z.number().int()),
  pausedUntil: z.string().nullable(),
  updatedAt: z.string(),
});
export type CampaignDetail = z.infer<typeof campaignDetailSchema>;

/** POST /api/campaigns/:id/test */
export const sendTestBodySchema = z.object({
  emails: z
    .array(
      // The message names the address (first-hour finding 10: "Enter valid email addresses" left the user to guess which).
      z
        .string()
        .trim()
        .refine((value) => z.email().safeParse(value).success, {
          error: (issue) => `“${String(issue.input).slice(0, 100)}” is not a valid email address`,
        }),
      { error: 'Enter at least one email address' },
    )
    .min(1, 'Enter at least one email address')
    .max(5, 'Send a test to at most 5 addresses'),
});
/** POST /api/campaigns/:id/test: how many test messages went out. */
export const sendTestResponseSchema = z.object({ sent: z.number().int() });
export type SendTestResponse = z.infer<typeof sendTestResponseSchema>;

/** GET /api/campaigns/:id/recipients: how many contacts the campaign would go to now. */
export const recipientCountResponseSchema = z.object({ count: z.number().int() });
export type RecipientCountResponse = z.infer<typeof recipientCountResponseSchema>;

/** POST /api/campaigns/preview: the server's rendering of unsaved blocks (what recipients will get). */
export const renderPreviewBodySchema = z.object({
  blocks: z.array(emailBlockSchema).max(200),
  subject: z.string().max(300).default(''),
  preheader: z.string().max(PREHEADER_MAX).nullish(),
  /** A campaign written in its own HTML (used when there are no blocks), as the campaign's content.html. */
  html: z.string().max(2_000_000).optional(),
  /**
   * The account's contact to preview as (their merge values, and the conditional blocks they get);
   * absent or null: everyone (the user's own name, every block shown).
   */
  contactId: rowIdSchema('contactId must be a contact id').nullish(),
});
export const renderPreviewResponseSchema = z.object({ html: z.string(), text: z.string() });

/** GET /api/campaigns/:id/report: what happened to a campaign's mail, from stored events. */
export const campaignReportSchema = z.object({
  recipients: z.number().int(),
  sent: z.number().int(),
  delivered: z.number().int(),
  bounced: z.number().int(),
  failed: z.number().int(),
  /** Recipients with a human open or a click (a click implies an open); machine opens are apart. */
  uniqueOpens: z.number().int(),
  /** Recipients with a human click; bot clicks (link scanners) are apart. */
  uniqueClicks: z.number().int(),
  /** Recipients whose only opens were a machine's (Apple Mail Privacy Protection, pre-fetchers). */
  machineOpens: z.number().int(),
  /** Recipients whose only clicks were a bot's (security scanners). */
  botClicks: z.number().int(),
  unsubscribes: z.number().int(),
  complaints: z.number().int(),
  /** uniqueOpens over delivered, percent. */
  openRate: z.number(),
  /** machineOpens over delivered, percent. */
  machineOpenRate: z.number(),
  /** uniqueClicks over delivered, percent. */
  clickRate: z.number(),
  /** uniqueClicks over uniqueOpens, percent (never above 100: a click is an open). */
  clickToOpenRate: z.number(),
  /** Human opens and clicks per hour since sending started (UTC hour starts); machine opens apart. */
  timeline: z.array(
    z.object({
      at: z.string(),
      opens: z.number().int(),
      clicks: z.number().int(),
      machineOpens: z.number().int(),
    }),
  ),
  /** Human clicks per link (all of the campaign's links, most clicked first). */
  topLinks: z.array(z.object({ url: z.string(), clicks: z.number().int(), uniqueClicks: z.number().int() })),
  /**
   * Bounce reports and rejections by reason (modules/bounces' fixed set; 'undetermined' also for
   * those recorded before reasons were), hard ones (the address is bad, now suppressed) apart from soft.
   */
  bouncesByReason: z.array(z.object({ reason: bounceReasonSchema, hard: z.boolean(), count: z.number().int() })),
});
export type CampaignReport = z.infer<typeof campaignReportSchema>;

/** Which recipients of a campaign the report's who-lists name. */
export const CAMPAIGN_ACTIVITY_KINDS = ['opened', 'clicked', 'bounced', 'unsubscribed', 'complained'] as const;
export const campaignActivityKindSchema = z.enum(CAMPAIGN_ACTIVITY_KINDS, {
  error: `Kind must be one of ${CAMPAIGN_ACTIVITY_KINDS.join(', ')}`,
});
export type CampaignActivityKind = z.infer<typeof campaignActivityKindSchema>;
export const CAMPAIGN_ACTIVITY_PAGE_SIZE_MAX = 100;

/** GET /api/campaigns/:id/activity (and its CSV export, without the page). */
export const campaignActivityQuerySchema = z.object({
  kind: campaignActivityKindSchema,
  /** Part of the address or name, case-insensitive. */
  search: z.string().trim().max(200, 'Search must be at most 200 characters').optional(),
  page: z.coerce.number().int('Page must be a whole number').min(1, 'Page must be 1 or more').max(100_000).default(1),
  pageSize: z.coerce
    .number()
    .int('Page size must be a whole number')
    .min(1, 'Page size must be 1 or more')
    .max(CAMPAIGN_ACTIVITY_PAGE_SIZE_MAX, `Page size must be at most ${CAMPAIGN_ACTIVITY_PAGE_SIZE_MAX}`)
    .default(25),
});
export type CampaignActivityQuery = z.input<typeof campaignActivityQuerySchema>;
export const campaignActivityExportQuerySchema = campaignActivityQuerySchema.pick({ kind: true, search: true });

/** One recipient in a who-list: what they did first, how often, and what (the links, the bounce's reason). */
export const campaignActivityItemSchema = z.object({
  contactId: z.number().int().nullable(),
  email: z.string(),
  name: z.string(),
  /** When they first did it. */
  at: z.string(),
  /** How many events of the kind (opens, clicks). */
  count: z.number().int(),
  /**
   * opened: 'Implied by a click' when no image was loaded; clicked: the links; bounced: the reason
   * and the receiver's answer; otherwise null.
   */
  detail: z.string().nullable(),
});
export type CampaignActivityItem = z.infer<typeof campaignActivityItemSchema>;
export const campaignActivityResponseSchema = z.object({
  items: z.array(campaignActivityItemSchema),
  total: z.number().int(),
});
export type CampaignActivityResponse = z.infer<typeof campaignActivityResponseSchema>;
