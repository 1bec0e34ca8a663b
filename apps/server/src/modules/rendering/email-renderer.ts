import { createRequire } from 'node:module';
import {
  EMAIL_FONT_STACKS,
  MERGE_TAG_PATTERN,
  MERGE_TAGS,
  type BlockCondition,
  type EmailBlock,
  type LeafBlock,
  type MergeTag,
  type RichTextInline,
  type RichTextNode,
  type SocialNetwork,
} from '@sendwell/contract/campaigns';
import type { HtmlToTextOptions } from 'html-to-text';
import type inlineCss from 'juice';

/** The per-recipient values merge tags read. */
export type Recipient = {
  firstName: string;
  lastName: string;
  email: string;
  company: string | null;
  jobTitle?: string | null;
  location?: string | null;
  /** The contact the message goes to (segment conditions ask whether it is a member); none for tests. */
  contactId?: number | null;
};

/**
 * Who conditional blocks are shown to: segments' members by segment id, known before rendering
 * (one query per batch), so asking per recipient is a set look-up; 'everyone' shows every block
 * (the editor's preview for everyone).
 */
export type Audience = { segmentMembers: ReadonlyMap<number, ReadonlySet<number>> } | 'everyone';
const NO_AUDIENCE: Audience = { segmentMembers: new Map() };

/** Per-recipient links: tracked clicks, open pixel, unsubscribe and preferences pages. */
export type RecipientLinks = {
  click(linkIndex: number): string;
  openPixel: string | null;
  unsubscribe: string;
  preferences: string;
};

/** The sender's footer details (CAN-SPAM: who sent it and a postal address). */
export type SenderFooter = { company: string; postalAddress: string; year: number };

type Slot =
  | { kind: 'merge'; tag: MergeTag; fallback: string; escape: boolean }
  | { kind: 'click'; linkIndex: number }
  | { kind: 'open' }
  | { kind: 'unsubscribe' }
  | { kind: 'preferences' }
  /** A conditional block's output, shown when condition `index` of the email holds for the recipient. */
  | { kind: 'show'; condition: number; parts: Part[] };
type Part = string | Slot;

/**
 * A campaign rendered once, with holes for what differs per recipient. Filling the holes is a
 * string join, which keeps per-recipient rendering cheap (see bench/render.bench.ts).
 */
export type CompiledEmail = {
  subject: Part[];
  html: Part[];
  text: Part[];
  links: string[];
  /** The conditions of conditional blocks, by the index their parts name. */
  conditions: BlockCondition[];
};

/** Whether a block's condition holds for the recipient; fields compare ignoring case and surrounding space. */
function conditionHolds(condition: BlockCondition, recipient: Recipient, audience: Audience): boolean {
  if (audience === 'everyone') return true;
  if (condition.kind === 'segment') {
    const id = recipient.contactId;
    const member = id != null && (audience.segmentMembers.get(condition.segmentId)?.has(id) ?? false);
    return condition.match === 'in' ? member : !member;
  }
  const value = (recipient[condition.field] ?? '').trim().toLowerCase();
  const wanted = condition.value.trim().toLowerCase();
  switch (condition.op) {
    case 'equals':
      return value === wanted;
    case 'notEquals':
      return value !== wanted;
    case 'contains':
      return value.includes(wanted);
    case 'isSet':
      return value !== '';
    case 'isEmpty':
      return value === '';
  }
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Whether `text` begins with `name` as a whole word, ignoring case and surrounding space. */
function startsWithName(text: string, name: string): boolean {
  const head = text.trim().toLowerCase();
  const wanted = name.trim().toLowerCase();
  return wanted !== '' && head.startsWith(wanted) && !/[\p{L}\p{N}]/u.test(head.charAt(wanted.length));
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

const DEFAULTS = {
  text: { color: '#333333', fontSize: 16, lineHeight: 1.5, padding: 20 },
  heading: { h1: 32, h2: 24, h3: 20 } as Record<string, number>,
  // A shade darker than the spec's #007bff, whose white 16px text fails WCAG AA (3.98:1; this 5.17:1).
  button: { backgroundColor: '#2563eb', color: '#ffffff', borderRadius: 4 },
  divider: { color: '#e5e5e5' },
  spacer: { height: 20 },
};
const FONT = EMAIL_FONT_STACKS.system;
/** A block's font stack: its own (a brand kit's) or the system stack every block had before fonts. */
const fontOf = (s: EmailBlock['styles']) => (s.fontFamily ? EMAIL_FONT_STACKS[s.fontFamily] : FONT);

/** Builder that merges adjacent literal strings so rendering joins as few pieces as possible. */
class Parts {
  readonly parts: Part[] = [];
  push(...items: Part[]): this {
    for (const item of items) {
      const last = this.parts.at(-1);
      if (typeof item === 'string' && typeof last === 'string') this.parts[this.parts.length - 1] = last + item;
      else this.parts.push(item);
    }
    return this;
  }
}

/** User text with merge tags: literal pieces escaped for the target, tags left as slots. */
function withMergeTags(text: string, escape: boolean): Part[] {
  const parts: Part[] = [];
  let last = 0;
  for (const match of text.matchAll(MERGE_TAG_PATTERN)) {
    const literal = text.slice(last, match.index);
    parts.push(escape ? escapeHtml(literal).replace(/\r?\n/g, '<br>') : literal);
    parts.push({ kind: 'merge', tag: (match[1] ?? '').trim() as MergeTag, fallback: (match[2] ?? '').trim(), escape });
    last = (match.index ?? 0) + match[0].length;
  }
  const rest = text.slice(last);
  parts.push(escape ? escapeHtml(rest).replace(/\r?\n/g, '<br>') : rest);
  return parts;
}

function linkIndex(links: string[], url: string): number {
  const found = links.indexOf(url);
  if (found >= 0) return found;
  links.push(url);
  return links.length - 1;
}

function absoluteSrc(src: string, publicUrl: string): string {
  return src.startsWith('/uploads/') ? `${publicUrl}${src}` : src;
}

/** The hidden preview text inboxes show after the subject, first thing in the body. */
function preheaderParts(preheader: string): Part[] {
  // Hidden in every client (mso-hide for Outlook); the run of zero-width joiners after it keeps
  // inboxes from filling the rest of the preview with the body's first words.
  return [
    '<span class="preheader" style="display:none!important;visibility:hidden;mso-hide:all;font-size:1px;line-height:1px;color:#f4f4f5;max-height:0;max-width:0;opacity:0;overflow:hidden;">',
    ...withMergeTags(preheader, true),
    '&#8204;&nbsp;'.repeat(40),
    '</span>',
  ];
}

/**
 * An address that already starts with the company's name ("Acme Inc, 1 Main St") is not preceded
 * by the name again.
 */
function companyLine(sender: SenderFooter): string {
  return startsWithName(sender.postalAddress, sender.company) ? '' : sender.company;
}

/** The footer every campaign carries: who sent it, their postal address, unsubscribe and preferences. */
function footerHtmlParts(sender: SenderFooter): Part[] {
  const company = escapeHtml(companyLine(sender));
  const address = escapeHtml(sender.postalAddress).replace(/\r?\n/g, '<br>');
  return [
    '<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;">',
    `<tr><td style="padding:24px 20px;text-align:center;color:#71717a;font-size:12px;line-height:1.5;font-family:${FONT};">`,
    `<p style="margin:0 0 8px 0;">${company}${company && address ? '<br>' : ''}${address}</p>`,
    '<p style="margin:0 0 8px 0;"><a href="',
    { kind: 'unsubscribe' },
    '" style="color:#71717a;text-decoration:underline;">Unsubscribe</a> &middot; <a href="',
    { kind: 'preferences' },
    '" style="color:#71717a;text-decoration:underline;">Update preferences</a></p>',
    `<p style="margin:0;">&copy; ${sender.year} ${escapeHtml(sender.company)}</p>`,
    '</td></tr></table>',
  ];
}

function footerTextParts(sender: SenderFooter): Part[] {
  const company = companyLine(sender);
  return [
    '--\n',
    company,
    company && sender.postalAddress ? '\n' : '',
    sender.postalAddress,
    '\nUnsubscribe: ',
    { kind: 'unsubscribe' },
    '\nUpdate preferences: ',
    { kind: 'preferences' },
    `\n© ${sender.year} ${sender.company}\n`,
  ];
}

/** The email's width in pixels; blocks sit inside it, columns split it. */
const EMAIL_WIDTH = 600;

/** Outlook on Windows renders at 96 dpi only when told to (else images and VML are scaled). */
const MSO_HEAD =
  '<!--[if mso]><xml><o:OfficeDocumentSettings><o:AllowPNG/><o:PixelsPerInch>96</o:PixelsPerInch></o:OfficeDocumentSettings></xml><![endif]-->';

/**
 * Columns are inline blocks of at most their share of 600 px, so they wrap under each other
 * wherever the mail is narrower, even in clients that drop <style>; where a client keeps it, a
 * phone gives each stacked column the whole width.
 */
const COLUMNS_STYLE = '<style>@media only screen and (max-width:620px){.sw-col{max-width:100%!important;}}</style>';

/** Where a block's output goes while the email is compiled. */
type RenderTarget = {
  html: Parts;
  text: Parts;
  links: string[];
  publicUrl: string;
  conditions: BlockCondition[];
};

/**
 * Renders a block through `render`, and when the block has a condition, wraps what it wrote in a
 * `show` part: compiled once like the rest, chosen per recipient by a look-up.
 */
function withCondition(block: EmailBlock, target: RenderTarget, render: (target: RenderTarget) => void): void {
  if (!block.condition) {
    render(target);
    return;
  }
  const inner: RenderTarget = { ...target, html: new Parts(), text: new Parts() };
  render(inner);
  const condition = target.conditions.push(block.condition) - 1;
  target.html.push({ kind: 'show', condition, parts: inner.html.parts });
  target.text.push({ kind: 'show', condition, parts: inner.text.parts });
}

const SOCIAL_LABELS: Record<SocialNetwork, string> = {
  facebook: 'Facebook',
  instagram: 'Instagram',
  x: 'X',
  linkedin: 'LinkedIn',
  youtube: 'YouTube',
  tiktok: 'TikTok',
};

/** The style of a paragraph or heading in a text block: the same for plain and rich text. */
function textStyle(tag: 'p' | 'h1' | 'h2' | 'h3', s: EmailBlock['styles'], extra = ''): string {
  const size = s.fontSize ?? (tag === 'p' ? DEFAULTS.text.fontSize : DEFAULTS.heading[tag]);
  const weight = tag === 'p' ? 'normal' : 'bold';
  return `${extra}color:${s.color ?? DEFAULTS.text.color};font-size:${size}px;line-height:${DEFAULTS.text.lineHeight};font-weight:${weight};font-family:${fontOf(s)};`;
}

/** Inline rich text: marks as tags, links as tracked-click slots, the words escaped with merge tags as slots. */
function richInline(content: RichTextInline[] | undefined, target: RenderTarget, linkColor: string): void {
  for (const node of content ?? []) {
    if (node.type === 'hardBreak') {
      target.html.push('<br>');
      target.text.push('\n');
      continue;
    }
    const marks = node.marks ?? [];
    const link = marks.find((mark) => mark.type === 'link');
    const tags = (['bold', 'italic', 'underline'] as const)
      .filter((type) => marks.some((mark) => mark.type === type))
      .map((type) => ({ bold: 'strong', italic: 'em', underline: 'u' })[type]);
    const index = link ? linkIndex(target.links, link.attrs.href) : -1;
    if (link) {
      target.html.push(
        '<a href="',
        { kind: 'click', linkIndex: index },
        `" target="_blank" style="color:${linkColor};text-decoration:underline;">`,
      );
    }
    target.html.push(...tags.map((tag) => `<${tag}>`), ...withMergeTags(node.text, true));
    target.html.push(...tags.reverse().map((tag) => `</${tag}>`), link ? '</a>' : '');
    target.text.push(...withMergeTags(node.text, false));
    if (link) target.text.push(' (', { kind: 'click', linkIndex: index }, ')');
  }
}

/**
 * Rich text as email HTML: paragraphs and headings styled inline as plain text blocks are (so a
 * plain block read into rich text renders byte for byte as before), lists with their markers,
 * and a blank line between nodes in the text part.
 */
function richNodes(nodes: RichTextNode[], s: EmailBlock['styles'], target: RenderTarget, inList: boolean): void {
  nodes.forEach((node, index) => {
    const last = index === nodes.length - 1;
    const margin = inList || last ? 'margin:0;' : 'margin:0 0 16px 0;';
    switch (node.type) {
      case 'paragraph':
      case 'heading': {
        const tag = node.type === 'paragraph' ? 'p' : (`h${node.attrs.level}` as const);
        const align = node.attrs?.textAlign ? `text-align:${node.attrs.textAlign};` : '';
        target.html.push(`<${tag} style="${textStyle(tag, s, margin)}${align}">`);
        richInline(node.content, target, s.color ?? DEFAULTS.button.backgroundColor);
        target.html.push(`</${tag}>`);
        if (!inList) target.text.push('\n\n');
        break;
      }
      case 'bulletList':
      case 'orderedList': {
        const tag = node.type === 'bulletList' ? 'ul' : 'ol';
        target.html.push(
          `<${tag} style="${inList ? 'margin:0;' : margin}padding:0 0 0 24px;color:${s.color ?? DEFAULTS.text.color};font-size:${s.fontSize ?? DEFAULTS.text.fontSize}px;line-height:${DEFAULTS.text.lineHeight};font-family:${fontOf(s)};">`,
        );
        node.content.forEach((item, itemIndex) => {
          target.html.push('<li style="margin:0 0 4px 0;">');
          target.text.push(inList ? '  ' : '', tag === 'ul' ? '- ' : `${itemIndex + 1}. `);
          richNodes(item.content, s, target, true);
          target.html.push('</li>');
          target.text.push('\n');
        });
        target.html.push(`</${tag}>`);
        if (!inList) target.text.push('\n');
        break;
      }
    }
  });
}

/** A link to a web address inside a block's own HTML, as the click slots a raw-HTML campaign uses. */
function htmlBlockText(html: string, links: string[]): Part[] {
  htmlToText ??= (requireFromHere('html-to-text') as { convert: HtmlToText }).convert;
  return textParts(htmlToText(html, HTML_TO_TEXT), links);
}

/** One block (not columns) as table rows of a `width`-pixel table, and its text. */
function renderBlock(block: LeafBlock, target: RenderTarget, width: number): void {
  const { html, text, links, publicUrl } = target;
  const s = block.styles;
  const align = s.textAlign ?? (block.type === 'button' || block.type === 'social' ? 'center' : 'left');
  const padding =
    s.padding ??
    (block.type === 'text'
      ? DEFAULTS.text.padding
      : block.type === 'divider' || block.type === 'spacer' || block.type === 'html'
        ? 0
        : 20);
  const cellBg = block.type !== 'button' && s.backgroundColor ? `background-color:${s.backgroundColor};` : '';
  const innerWidth = width - 40;
  switch (block.type) {
    case 'text':
    case 'heading': {
      const tag = block.content.tag;
      html.push(`<tr><td style="padding:${padding}px;${cellBg}text-align:${align};">`);
      if (block.type === 'text' && block.content.doc) {
        richNodes(block.content.doc.content, s, target, false);
        html.push('</td></tr>');
        break;
      }
      html.push(`<${tag} style="${textStyle(tag, s, 'margin:0;')}">`, ...withMergeTags(block.content.text, true));
      html.push(`</${tag}></td></tr>`);
      text.push(...withMergeTags(block.content.text, false), '\n\n');
      break;
    }
    case 'image': {
      const imageWidth = s.width ?? 100;
      const img = [
        `<img src="${escapeHtml(absoluteSrc(block.content.src, publicUrl))}" alt="`,
        ...withMergeTags(block.content.alt, true),
        `" width="${Math.round((innerWidth * imageWidth) / 100)}" style="display:block;width:${imageWidth}%;max-width:100%;height:auto;border:0;${align === 'center' ? 'margin:0 auto;' : align === 'right' ? 'margin-left:auto;' : ''}">`,
      ];
      html.push(`<tr><td style="padding:${padding}px;${cellBg}text-align:${align};">`);
      if (block.content.href) {
        html.push(
          '<a href="',
          { kind: 'click', linkIndex: linkIndex(links, block.content.href) },
          '" target="_blank">',
          ...img,
          '</a>',
        );
      } else {
        html.push(...img);
      }
      html.push('</td></tr>');
      if (block.content.alt) text.push('[', ...withMergeTags(block.content.alt, false), ']\n\n');
      break;
    }
    case 'button': {
      const index = linkIndex(links, block.content.url);
      const bg = s.backgroundColor ?? DEFAULTS.button.backgroundColor;
      const radius = s.borderRadius ?? DEFAULTS.button.borderRadius;
      const color = s.color ?? DEFAULTS.button.color;
      const fontSize = s.fontSize ?? 16;
      const label = withMergeTags(block.content.text, true);
      // Outlook on Windows ignores padding on links and rounded corners: it gets a VML rounded
      // rectangle of about the same size, everyone else the table below.
      const vmlWidth = Math.min(innerWidth, Math.round(block.content.text.length * fontSize * 0.62) + 48);
      const vmlHeight = Math.round(fontSize * 1.5) + 24;
      html.push(
        `<tr><td style="padding:${padding}px;text-align:${align};">`,
        '<!--[if mso]><v:roundrect xmlns:v="urn:schemas-microsoft-com:vml" xmlns:w="urn:schemas-microsoft-com:office:word" href="',
        { kind: 'click', linkIndex: index },
        `" style="height:${vmlHeight}px;v-text-anchor:middle;width:${vmlWidth}px;" arcsize="${Math.min(50, Math.round((radius / vmlHeight) * 100))}%" stroke="f" fillcolor="${bg}"><w:anchorlock/><center style="color:${color};font-family:Arial,sans-serif;font-size:${fontSize}px;font-weight:bold;">`,
        ...label,
        '</center></v:roundrect><![endif]--><!--[if !mso]><!-->',
        `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="display:inline-table;"><tr><td style="background-color:${bg};border-radius:${radius}px;">`,
        '<a href="',
        { kind: 'click', linkIndex: index },
        `" target="_blank" style="display:inline-block;padding:12px 24px;color:${color};font-size:${fontSize}px;font-weight:bold;text-decoration:none;border-radius:${radius}px;font-family:${fontOf(s)};">`,
        ...label,
        '</a></td></tr></table><!--<![endif]--></td></tr>',
      );
      text.push(...withMergeTags(block.content.text, false), ': ', { kind: 'click', linkIndex: index }, '\n\n');
      break;
    }
    case 'divider':
      html.push(
        `<tr><td style="padding:${padding}px 20px;${cellBg}"><div style="border-top:1px solid ${s.color ?? DEFAULTS.divider.color};margin:20px 0;font-size:0;line-height:0;">&nbsp;</div></td></tr>`,
      );
      text.push('----------\n\n');
      break;
    case 'spacer':
      html.push(
        `<tr><td style="height:${s.height ?? DEFAULTS.spacer.height}px;font-size:0;line-height:0;${cellBg}">&nbsp;</td></tr>`,
      );
      break;
    case 'social': {
      html.push(`<tr><td style="padding:${padding}px;${cellBg}text-align:${align};">`);
      for (const link of block.content.links) {
        const index = linkIndex(links, link.url);
        const label = SOCIAL_LABELS[link.network];
        html.push(
          '<a href="',
          { kind: 'click', linkIndex: index },
          `" target="_blank" style="display:inline-block;margin:0 6px;text-decoration:none;"><img src="${escapeHtml(publicUrl)}/images/social/${link.network}.png" width="32" height="32" alt="${label}" style="display:block;width:32px;height:32px;border:0;"></a>`,
        );
        text.push(`${label}: `, { kind: 'click', linkIndex: index }, '\n');
      }
      html.push('</td></tr>');
      text.push('\n');
      break;
    }
    case 'video': {
      const index = linkIndex(links, block.content.url);
      html.push(
        `<tr><td style="padding:${padding}px;${cellBg}text-align:center;">`,
        '<a href="',
        { kind: 'click', linkIndex: index },
        `" target="_blank" style="display:block;text-decoration:none;"><img src="${escapeHtml(absoluteSrc(block.content.thumbnail, publicUrl))}" alt="`,
        ...withMergeTags(block.content.alt, true),
        `" width="${innerWidth}" style="display:block;width:100%;max-width:100%;height:auto;border:0;"></a>`,
        // The play mark: a round button under the picture (an overlay would need background
        // images, which Outlook and several webmails drop).
        '<a href="',
        { kind: 'click', linkIndex: index },
        `" target="_blank" style="display:inline-block;margin-top:12px;padding:8px 16px;border-radius:999px;background-color:#18181b;color:#ffffff;font-size:14px;font-weight:bold;text-decoration:none;font-family:${FONT};">&#9654;&nbsp;&nbsp;Play video</a>`,
        '</td></tr>',
      );
      text.push(
        block.content.alt ? '[' : '',
        ...(block.content.alt ? withMergeTags(block.content.alt, false) : []),
        block.content.alt ? '] ' : '',
        'Play video: ',
        { kind: 'click', linkIndex: index },
        '\n\n',
      );
      break;
    }
    case 'html':
      html.push(
        `<tr><td style="padding:${padding}px;${cellBg}">`,
        ...htmlParts(block.content.html, links),
        '</td></tr>',
      );
      text.push(...htmlBlockText(block.content.html, links), '\n\n');
      break;
  }
}

/**
 * Columns, the hybrid way: each column an inline block of its share of the width that wraps
 * under the others on a narrow screen; Outlook on Windows, which knows no inline blocks, gets a
 * table row of fixed-width cells through MSO conditional comments.
 */
function renderColumns(block: Extract<EmailBlock, { type: 'columns' }>, target: RenderTarget): void {
  const s = block.styles;
  const columns = block.content.columns;
  const width = Math.floor(EMAIL_WIDTH / columns.length);
  const cellBg = s.backgroundColor ? `background-color:${s.backgroundColor};` : '';
  target.html.push(
    `<tr><td class="sw-columns" align="center" style="padding:${s.padding ?? 0}px 0;${cellBg}font-size:0;text-align:center;">`,
    `<!--[if mso]><table role="presentation" width="${EMAIL_WIDTH}" cellpadding="0" cellspacing="0" border="0"><tr><![endif]-->`,
  );
  for (const column of columns) {
    target.html.push(
      `<!--[if mso]><td width="${width}" valign="top"><![endif]-->`,
      `<div class="sw-col" style="display:inline-block;width:100%;max-width:${width}px;vertical-align:top;text-align:left;font-size:16px;">`,
      '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">',
    );
    for (const inner of column.blocks) withCondition(inner, target, (t) => renderBlock(inner, t, width));
    // An empty column still takes its place, so the others stay where the editor shows them.
    if (column.blocks.length === 0) target.html.push('<tr><td style="font-size:0;line-height:0;">&nbsp;</td></tr>');
    target.html.push('</table></div><!--[if mso]></td><![endif]-->');
  }
  target.html.push('<!--[if mso]></tr></table><![endif]--></td></tr>');
}

/**
 * Compiles blocks into the email the spec describes: 600 px, table layout, inline styles, the
 * block defaults of spec part 1 §3, a plain-text part, and a footer with unsubscribe and
 * preferences links, the sender's company, postal address and the current year. User text is
 * escaped; only http(s) URLs (checked by the contract) reach href and src.
 */
export function compileEmail(
  blocks: EmailBlock[],
  subject: string,
  sender: SenderFooter,
  publicUrl: string,
  /** For campaigns made through the API without blocks: the sender's own HTML body, used as given. */
  rawBodyHtml?: string,
  /** The preview text inboxes show after the subject: hidden in the body, first thing in it. */
  preheader?: string | null,
  /** For a campaign written in its own HTML: its text part, when the sender gave one. */
  rawBodyText?: string | null,
): CompiledEmail {
  if (blocks.length === 0 && rawBodyHtml) {
    const { html, text, links } = compileRawHtml({
      html: rawBodyHtml,
      text: rawBodyText,
      title: subject,
      preheader: preheader ? preheaderParts(preheader) : [],
      footer: {
        html: [
          '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr><td align="center">',
          ...footerHtmlParts(sender),
          '</td></tr></table>',
        ],
        text: footerTextParts(sender),
      },
    });
    return {
      subject: withMergeTags(subject, false),
      html: new Parts().push(...html).parts,
      text: new Parts().push(...text).parts,
      links,
      conditions: [],
    };
  }
  const html = new Parts();
  const text = new Parts();
  const links: string[] = [];
  const hasColumns = blocks.some((block) => block.type === 'columns');
  html.push(
    // The VML namespaces are for Outlook on Windows, which draws the buttons' rounded rectangles.
    '<!DOCTYPE html><html lang="en" xmlns="http://www.w3.org/1999/xhtml" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="x-apple-disable-message-reformatting"><title>',
    ...withMergeTags(subject, true),
    '</title>',
    MSO_HEAD,
    hasColumns ? COLUMNS_STYLE : '',
    '</head>',
    `<body style="margin:0;padding:0;background-color:#f4f4f5;font-family:${FONT};">`,
  );
  if (preheader) html.push(...preheaderParts(preheader));
  html.push(
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f4f4f5;"><tr><td align="center" style="padding:24px 8px;">',
    '<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;background-color:#ffffff;border-radius:8px;">',
  );

  const conditions: BlockCondition[] = [];
  const target: RenderTarget = { html, text, links, publicUrl, conditions };
  for (const block of blocks) {
    if (block.type === 'columns') withCondition(block, target, (t) => renderColumns(block, t));
    else withCondition(block, target, (t) => renderBlock(block, t, EMAIL_WIDTH));
  }

  html.push('</table>', ...footerHtmlParts(sender), { kind: 'open' }, '</td></tr></table></body></html>');
  text.push(...footerTextParts(sender));
  return { subject: withMergeTags(subject, false), html: html.parts, text: text.parts, links, conditions };
}

/**
 * One recipient's link URLs, each asked of `urls` once: a tracked link costs a signature, and a
 * button's link appears in both the HTML and the text part.
 */
class ResolvedLinks {
  private readonly clicks: (string | undefined)[] = [];
  private readonly escapedClicks: (string | undefined)[] = [];
  private escapedUnsubscribe: string | undefined;
  private escapedPreferences: string | undefined;
  constructor(readonly urls: RecipientLinks) {}
  click(index: number): string {
    return (this.clicks[index] ??= this.urls.click(index));
  }
  clickHtml(index: number): string {
    return (this.escapedClicks[index] ??= escapeHtml(this.click(index)));
  }
  unsubscribeHtml(): string {
    return (this.escapedUnsubscribe ??= escapeHtml(this.urls.unsubscribe));
  }
  preferencesHtml(): string {
    return (this.escapedPreferences ??= escapeHtml(this.urls.preferences));
  }
}

/** One recipient's answers to the email's conditions, each asked once (the HTML and text parts share them). */
class ConditionAnswers {
  private readonly answers: (boolean | undefined)[] = [];
  constructor(
    private readonly conditions: BlockCondition[],
    private readonly recipient: Recipient,
    private readonly audience: Audience,
  ) {}
  holds(index: number): boolean {
    const condition = this.conditions[index];
    return (this.answers[index] ??= condition ? conditionHolds(condition, this.recipient, this.audience) : false);
  }
}

function fill(
  parts: Part[],
  recipient: Recipient,
  links: ResolvedLinks,
  html: boolean,
  answers?: ConditionAnswers,
): string {
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    switch (part.kind) {
      case 'merge': {
        const value = recipient[part.tag] || part.fallback;
        out += part.escape ? escapeHtml(value) : value;
        break;
      }
      case 'click':
        out += html ? links.clickHtml(part.linkIndex) : links.click(part.linkIndex);
        break;
      case 'open':
        if (html && links.urls.openPixel)
          out += `<img src="${escapeHtml(links.urls.openPixel)}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px;">`;
        break;
      case 'unsubscribe':
        out += html ? links.unsubscribeHtml() : links.urls.unsubscribe;
        break;
      case 'preferences':
        out += html ? links.preferencesHtml() : links.urls.preferences;
        break;
      case 'show':
        if (answers?.holds(part.condition)) out += fill(part.parts, recipient, links, html, answers);
        break;
    }
  }
  return out;
}

/** The finished HTML and text for one recipient. */
export function renderForRecipient(
  compiled: CompiledEmail,
  recipient: Recipient,
  urls: RecipientLinks,
  /** Segment members for conditional blocks; without it, segment conditions find no member. */
  audience: Audience = NO_AUDIENCE,
): { subject: string; html: string; text: string } {
  const links = new ResolvedLinks(urls);
  const answers =
    compiled.conditions.length > 0 ? new ConditionAnswers(compiled.conditions, recipient, audience) : undefined;
  return {
    subject: fill(compiled.subject, recipient, links, false),
    html: fill(compiled.html, recipient, links, true, answers),
    text: fill(compiled.text, recipient, links, false, answers),
  };
}

/** Links that go straight to their targets: for previews and test sends (nothing is tracked). */
export function untrackedLinks(compiled: CompiledEmail, unsubscribe: string, preferences: string): RecipientLinks {
  return { click: (i) => compiled.links[i] ?? '#', openPixel: null, unsubscribe, preferences };
}

/**
 * Placeholders a campaign's own HTML may hold beside the merge tags: where its unsubscribe and
 * preferences links go. HTML without `{{unsubscribe}}` gets the standard footer.
 */
export const RAW_HTML_PLACEHOLDERS = ['unsubscribe', 'preferences'] as const;

// juice (CSS inlining, through cheerio) costs ~130 ms to import and html-to-text ~35 ms: loaded on
// the first campaign written in raw HTML, not at every start of the server.
const requireFromHere = createRequire(import.meta.url);
type Juice = typeof inlineCss;
type HtmlToText = (html: string, options?: HtmlToTextOptions) => string;
let juice: Juice | undefined;
let htmlToText: HtmlToText | undefined;

const HTML_TO_TEXT: HtmlToTextOptions = {
  wordwrap: 78,
  selectors: [
    { selector: 'img', format: 'skip' },
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    // Upper-casing would turn a merge tag in a heading into one that does not exist.
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
    { selector: '.preheader', format: 'skip' },
  ],
};

/** A whole document, whether the sender wrote one or only a body fragment. */
function asDocument(html: string, title: string): string {
  if (/<body[\s>]/i.test(html)) return html;
  return (
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${title}</title></head><body>${html}</body></html>`
  );
}

/** Index of the closing body tag (the last one), or the end. */
function bodyCloseIndex(html: string): number {
  const at = html.toLowerCase().lastIndexOf('</body>');
  return at === -1 ? html.length : at;
}

/** The sender's own text with merge tags and placeholders as slots; literals stay as written. */
function templateParts(text: string, escapeValues: boolean): Part[] {
  const parts: Part[] = [];
  let last = 0;
  for (const match of text.matchAll(MERGE_TAG_PATTERN)) {
    const name = (match[1] ?? '').trim();
    const index = match.index ?? 0;
    parts.push(text.slice(last, index));
    if (name === 'unsubscribe' || name === 'preferences') parts.push({ kind: name });
    else if ((MERGE_TAGS as readonly string[]).includes(name)) {
      parts.push({ kind: 'merge', tag: name as MergeTag, fallback: (match[2] ?? '').trim(), escape: escapeValues });
    } else parts.push(match[0]); // refused when the campaign is saved; kept as written otherwise
    last = index + match[0].length;
  }
  parts.push(text.slice(last));
  return parts;
}

const ANCHOR_HREF = /(<a\b[^>]*?\shref\s*=\s*)(["'])(.*?)\2/gis;
const trackable = (href: string) => /^https?:\/\//i.test(href) && !href.includes('{{');

/** The HTML with each link to a web address as a tracked-click slot, numbered in `links`. */
function htmlParts(html: string, links: string[]): Part[] {
  const parts: Part[] = [];
  let last = 0;
  for (const match of html.matchAll(ANCHOR_HREF)) {
    const href = (match[3] ?? '').trim().replaceAll('&amp;', '&');
    if (!trackable(href)) continue;
    const valueStart = (match.index ?? 0) + (match[1] ?? '').length + 1;
    parts.push(...templateParts(html.slice(last, valueStart), true));
    let index = links.indexOf(href);
    if (index === -1) index = links.push(href) - 1;
    parts.push({ kind: 'click', linkIndex: index });
    last = valueStart + (match[3] ?? '').length;
  }
  parts.push(...templateParts(html.slice(last), true));
  return parts;
}

/** The text with each tracked link's address as its click slot. */
function textParts(text: string, links: string[]): Part[] {
  if (links.length === 0) return templateParts(text, false);
  const longestFirst = [...links.keys()].sort((a, b) => (links[b]?.length ?? 0) - (links[a]?.length ?? 0));
  const pattern = new RegExp(
    longestFirst.map((i) => (links[i] ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
    'g',
  );
  const parts: Part[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    parts.push(...templateParts(text.slice(last, match.index), false));
    parts.push({ kind: 'click', linkIndex: links.indexOf(match[0]) });
    last = (match.index ?? 0) + match[0].length;
  }
  parts.push(...templateParts(text.slice(last), false));
  return parts;
}

/**
 * A campaign written in its own HTML (in the editor's HTML mode, or through the API with only
 * `content.html`), compiled once as block campaigns are: CSS inlined (juice), merge tags and the
 * unsubscribe and preferences placeholders as slots, every link to a web address tracked, the open
 * pixel, and the standard footer when the HTML has no `{{unsubscribe}}`. The text part is the
 * sender's own when given, else made from the HTML (html-to-text), with the same tracked links.
 */
function compileRawHtml(input: {
  html: string;
  text?: string | null;
  /** The subject, as the title of a body fragment's document. */
  title: string;
  /** The hidden preview text, placed first in the body. */
  preheader: Part[];
  footer: { html: Part[]; text: Part[] };
}): { html: Part[]; text: Part[]; links: string[] } {
  juice ??= requireFromHere('juice') as Juice;
  htmlToText ??= (requireFromHere('html-to-text') as { convert: HtmlToText }).convert;
  const inlined = juice(asDocument(input.html, escapeHtml(input.title)), { preserveMediaQueries: true });
  const links: string[] = [];
  const hasUnsubscribe = /\{\{\s*unsubscribe\s*\}\}/.test(input.html);

  const close = bodyCloseIndex(inlined);
  const open = /<body\b[^>]*>/i.exec(inlined);
  const bodyStart = open && open.index < close ? open.index + open[0].length : 0;
  const html: Part[] = [
    ...htmlParts(inlined.slice(0, bodyStart), links),
    ...input.preheader,
    ...htmlParts(inlined.slice(bodyStart, close), links),
    ...(hasUnsubscribe ? [] : input.footer.html),
    { kind: 'open' },
    inlined.slice(close),
  ];

  const textSource = input.text?.trim() ? input.text : htmlToText(inlined, HTML_TO_TEXT);
  const text = textParts(textSource, links);
  if (!hasUnsubscribe) text.push('\n\n', ...input.footer.text);
  return { html, text, links };
}
