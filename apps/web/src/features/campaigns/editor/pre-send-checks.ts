import { allBlocks, type EmailBlock, type RichTextNode } from '@sendwell/contract/campaigns';

import { STARTING_TEXT } from './blocks';
import type { CampaignDraft } from './campaign-form';
import type { SenderStanding } from './sender-options';

/** Where the fix for a check lives: a field of the editor, a block on the canvas, or another page. */
export type PreSendFix =
  | { kind: 'field'; field: 'subject' | 'fromEmail' | 'recipients' }
  | { kind: 'block'; blockId: string }
  | { kind: 'page'; href: string }
  /** Typed in place: the postal address is one field, and leaving the editor would lose the draft. */
  | { kind: 'postal-address' };

/**
 * One line of the pre-send checklist. 'checking' (data still loading) does not block: the server
 * checks again. 'warning' does not block either: something the sender should know before sending.
 */
export interface PreSendCheck {
  id:
    | 'recipients'
    | 'sender'
    | 'postal-address'
    | 'subject'
    | 'content'
    | 'links'
    | 'alt-text'
    | 'image-only'
    | 'size'
    | 'unsubscribe';
  status: 'ok' | 'blocked' | 'checking' | 'warning';
  /** What the line checks, e.g. 'Recipients'. */
  label: string;
  /** How it stands: what is fine, or what is wrong and what to do. */
  detail: string;
  /** Where to fix it (on a blocked or warning line). */
  fix?: PreSendFix;
  /** The words on the fix link. */
  fixLabel?: string;
}

/** What the checklist reads besides the draft: member counts, where the sender stands, the postal address. */
export interface PreSendContext {
  /** Subscribers per chosen-able list id; undefined while the lists load. */
  listCounts: ReadonlyMap<number, number> | undefined;
  /** Contacts per segment id; undefined while the segments load. */
  segmentCounts: ReadonlyMap<number, number> | undefined;
  /** Where the draft's sender stands; undefined while the sender overview loads. */
  senderStanding: SenderStanding | undefined;
  /** Contacts picked on the Contacts page and still chosen (their list is made on save); 0 when none. */
  selectedContacts?: number;
  /** The account's postal address (the footer carries it; the law and the server require it). */
  postalAddress: string;
  /**
   * The server's rendering of the draft (the preview), for its size; undefined while it renders.
   * Its links are the bare targets: `trackedBytes` adds what tracking makes of them.
   */
  renderedHtml?: string;
}

/** Gmail shows "[Message clipped]" and hides the rest (the footer with unsubscribe, the open pixel) past this. */
export const GMAIL_CLIP_BYTES = 102 * 1024;

/**
 * About the size of a recipient's HTML: the preview's bytes, plus for every link what a tracked
 * link adds (`/t/c/` with a signed token, ~90 bytes) and the open pixel's image tag.
 */
export function trackedBytes(html: string): number {
  const bytes = new TextEncoder().encode(html).length;
  const links = html.match(/\shref="/g)?.length ?? 0;
  return bytes + links * 90 + 200;
}

/** The placeholder hosts nobody owns (RFC 2606): a link there sends readers nowhere. */
const PLACEHOLDER_HOST = /(^|\.)example\.(com|org|net)$/i;
const URL_IN_TEXT = /https?:\/\/[^\s<>"')]+/gi;

/** True when `url` is empty or points at a placeholder domain such as example.com. */
export function isPlaceholderLink(url: string | undefined): boolean {
  const trimmed = (url ?? '').trim();
  if (!trimmed) return true;
  try {
    return PLACEHOLDER_HOST.test(new URL(trimmed).hostname);
  } catch {
    return false; // a malformed URL is the block's own error, shown on the block as you type
  }
}

/** Every link address in rich text. */
function richTextLinks(nodes: RichTextNode[]): string[] {
  return nodes.flatMap((node) =>
    node.type === 'paragraph' || node.type === 'heading'
      ? (node.content ?? []).flatMap((inline) =>
          inline.type === 'text'
            ? (inline.marks ?? []).flatMap((mark) => (mark.type === 'link' ? [mark.attrs.href] : []))
            : [],
        )
      : node.content.flatMap((item) => richTextLinks(item.content)),
  );
}

/** The first block (in a column too) whose link is empty or a placeholder, with a description of the link. */
export function firstPlaceholderLink(blocks: readonly EmailBlock[]): { block: EmailBlock; what: string } | null {
  for (const block of allBlocks(blocks)) {
    if (block.type === 'text' && block.content.doc) {
      const found = richTextLinks(block.content.doc.content).find((url) => isPlaceholderLink(url));
      if (found) return { block, what: `A text block links to a placeholder (${found}).` };
    }
    if (block.type === 'video' && isPlaceholderLink(block.content.url))
      return { block, what: `A video links to a placeholder (${block.content.url.trim() || 'no link'}).` };
    if (block.type === 'social') {
      const found = block.content.links.find((link) => isPlaceholderLink(link.url));
      if (found) return { block, what: `A social link is a placeholder (${found.url.trim() || 'no link'}).` };
    }
    if (block.type === 'button' && isPlaceholderLink(block.content.url)) {
      const what = block.content.url.trim() ? block.content.url.trim() : 'no link';
      return {
        block,
        what: `The “${block.content.text || 'button'}” button has ${block.content.url.trim() ? `a placeholder link (${what})` : what}.`,
      };
    }
    if (block.type === 'image' && block.content.href !== undefined && block.content.href.trim() !== '') {
      if (isPlaceholderLink(block.content.href))
        return { block, what: `An image links to a placeholder (${block.content.href.trim()}).` };
    }
    if (block.type === 'text') {
      const found = block.content.text.match(URL_IN_TEXT)?.find((url) => isPlaceholderLink(url));
      if (found) return { block, what: `A text block links to a placeholder (${found}).` };
    }
  }
  return null;
}

const SENDER_DETAIL: Record<SenderStanding, string> = {
  domain: 'On your verified domain, signed with its key.',
  address: 'A confirmed address.',
  'unconfirmed-account': 'Your own address is not confirmed yet: follow the link we mailed you.',
  pending: 'This sender address is waiting for its confirmation link to be followed.',
  unproven: 'Choose an address on a verified domain or a confirmed sender address.',
};

/**
 * The pre-send checklist (first-hour finding 1): everything the server would refuse a send for, and
 * what would embarrass it (placeholder links), checked before Send or Schedule is pressed, each with
 * where to fix it. Blocked lines disable Send and Schedule; 'checking' lines do not.
 */
export function preSendChecks(draft: CampaignDraft, context: PreSendContext): PreSendCheck[] {
  return [
    recipientsCheck(draft, context),
    senderCheck(draft, context),
    postalAddressCheck(context),
    subjectCheck(draft),
    contentCheck(draft),
    linksCheck(draft),
    altTextCheck(draft),
    imageOnlyCheck(draft),
    sizeCheck(context),
    unsubscribeCheck(draft),
  ];
}

/** The placeholder a campaign's own HTML places its unsubscribe link with (the server fills it). */
const UNSUBSCRIBE_PLACEHOLDER = /\{\{\s*unsubscribe\s*\}\}/;

/** True when a campaign's own HTML has no {{unsubscribe}} placeholder (the server then adds its footer). */
function lacksUnsubscribePlaceholder(html: string): boolean {
  return !UNSUBSCRIBE_PLACEHOLDER.test(html);
}

function unsubscribeCheck(draft: CampaignDraft): PreSendCheck {
  const base = { id: 'unsubscribe', label: 'Unsubscribe link' } as const;
  if (draft.rawHtml !== null && lacksUnsubscribePlaceholder(draft.rawHtml))
    return {
      ...base,
      status: 'warning',
      detail:
        'Your HTML has no {{unsubscribe}} placeholder, so our footer with the unsubscribe link and your postal address will be added at the bottom.',
    };
  if (draft.rawHtml !== null)
    return { ...base, status: 'ok', detail: 'Your HTML places the unsubscribe link with {{unsubscribe}}.' };
  return { ...base, status: 'ok', detail: 'Added to the footer of every message, with a link to update preferences.' };
}

function recipientsCheck(
  draft: CampaignDraft,
  { listCounts, segmentCounts, selectedContacts = 0 }: PreSendContext,
): PreSendCheck {
  const base = { id: 'recipients', label: 'Recipients' } as const;
  const fix = { fix: { kind: 'field', field: 'recipients' }, fixLabel: 'Choose recipients' } as const;
  if (selectedContacts > 0 && draft.listIds.length === 0 && draft.segmentIds.length === 0)
    return {
      ...base,
      status: 'ok',
      detail: `${selectedContacts} selected ${selectedContacts === 1 ? 'contact' : 'contacts'}.`,
    };
  if (draft.listIds.length === 0 && draft.segmentIds.length === 0)
    return { ...base, status: 'blocked', detail: 'No list or segment is chosen.', ...fix };
  if ((draft.listIds.length > 0 && !listCounts) || (draft.segmentIds.length > 0 && !segmentCounts))
    return { ...base, status: 'checking', detail: 'Counting the chosen lists and segments…' };
  // Lists and segments may overlap, so the sum is an upper bound; it is 0 only when every one is empty.
  const members =
    selectedContacts +
    draft.listIds.reduce((sum, id) => sum + (listCounts?.get(id) ?? 0), 0) +
    draft.segmentIds.reduce((sum, id) => sum + (segmentCounts?.get(id) ?? 0), 0);
  if (members === 0)
    return {
      ...base,
      status: 'blocked',
      detail: 'The chosen lists and segments have no subscribed contacts.',
      fix: { kind: 'page', href: '/contacts' },
      fixLabel: 'Add contacts',
    };
  const chosen = draft.listIds.length + draft.segmentIds.length;
  return {
    ...base,
    status: 'ok',
    detail: `${chosen} ${chosen === 1 ? 'list or segment' : 'lists and segments'} chosen.`,
  };
}

function senderCheck(draft: CampaignDraft, { senderStanding }: PreSendContext): PreSendCheck {
  const base = { id: 'sender', label: 'Sender' } as const;
  if (!draft.fromEmail.trim())
    return {
      ...base,
      status: 'blocked',
      detail: 'No sender address is chosen.',
      fix: { kind: 'field', field: 'fromEmail' },
      fixLabel: 'Choose a sender',
    };
  if (!senderStanding) return { ...base, status: 'checking', detail: 'Checking the sender address…' };
  if (senderStanding === 'domain' || senderStanding === 'address')
    return { ...base, status: 'ok', detail: SENDER_DETAIL[senderStanding] };
  return {
    ...base,
    status: 'blocked',
    detail: SENDER_DETAIL[senderStanding],
    fix: { kind: 'page', href: '/domain-settings?tab=senders' },
    fixLabel: 'Verify a domain or sender',
  };
}

function postalAddressCheck({ postalAddress }: PreSendContext): PreSendCheck {
  const base = { id: 'postal-address', label: 'Postal address' } as const;
  if (postalAddress.trim()) return { ...base, status: 'ok', detail: 'Printed in the footer of every message.' };
  return {
    ...base,
    status: 'blocked',
    detail: 'Marketing email must carry your postal address; it is printed in the footer.',
    fix: { kind: 'postal-address' },
    fixLabel: 'Add your postal address',
  };
}

function subjectCheck(draft: CampaignDraft): PreSendCheck {
  const base = { id: 'subject', label: 'Subject and preview text' } as const;
  const preheader = draft.preheader.trim();
  // The preview text is advised, not required: without it inboxes show the email's first words.
  if (draft.subject.trim())
    return {
      ...base,
      status: 'ok',
      detail: preheader
        ? `“${draft.subject.trim()}” · preview: “${preheader}”`
        : `“${draft.subject.trim()}” · no preview text: inboxes will show the email's first words.`,
    };
  return {
    ...base,
    status: 'blocked',
    detail: 'The email has no subject line.',
    fix: { kind: 'field', field: 'subject' },
    fixLabel: 'Write a subject',
  };
}

function contentCheck(draft: CampaignDraft): PreSendCheck {
  const base = { id: 'content', label: 'Content' } as const;
  if (draft.rawHtml !== null)
    return draft.rawHtml.trim()
      ? { ...base, status: 'ok', detail: 'Your own HTML.' }
      : { ...base, status: 'blocked', detail: 'The HTML is empty: write or paste your email’s HTML.' };
  const unwritten = allBlocks(draft.blocks).find(
    (block) => block.type === 'text' && block.content.text.trim() === STARTING_TEXT,
  );
  if (!unwritten) return { ...base, status: 'ok', detail: 'Every text block has your own words.' };
  return {
    ...base,
    status: 'blocked',
    detail: `A text block still says “${STARTING_TEXT}”, the words a new block starts with.`,
    fix: { kind: 'block', blockId: unwritten.id },
    fixLabel: 'Write the text',
  };
}

function linksCheck(draft: CampaignDraft): PreSendCheck {
  const base = { id: 'links', label: 'Links' } as const;
  const found = firstPlaceholderLink(draft.blocks);
  if (!found) return { ...base, status: 'ok', detail: 'No empty or placeholder (example.com) links.' };
  return {
    ...base,
    status: 'blocked',
    detail: found.what,
    fix: { kind: 'block', blockId: found.block.id },
    fixLabel: 'Fix the link',
  };
}

function sizeCheck({ renderedHtml }: PreSendContext): PreSendCheck {
  const base = { id: 'size', label: 'Message size' } as const;
  if (renderedHtml === undefined) return { ...base, status: 'checking', detail: 'Measuring the email…' };
  const kb = Math.ceil(trackedBytes(renderedHtml) / 1024);
  if (kb * 1024 <= GMAIL_CLIP_BYTES)
    return { ...base, status: 'ok', detail: `About ${kb} KB, under Gmail's 102 KB clipping limit.` };
  return {
    ...base,
    status: 'warning',
    detail: `About ${kb} KB: Gmail clips messages over 102 KB, hiding the rest of the email and the unsubscribe link behind "View entire message". Shorten the text or the HTML blocks.`,
  };
}

/** `<img>` tags of a campaign's own HTML without alt text (decorative images carry alt=""). */
const IMG_TAG = /<img\b[^>]*>/gi;
const ALT_ATTR = /\salt\s*=/i;

function altTextCheck(draft: CampaignDraft): PreSendCheck {
  const base = { id: 'alt-text', label: 'Image descriptions' } as const;
  if (draft.rawHtml !== null) {
    const missing = (draft.rawHtml.match(IMG_TAG) ?? []).filter((tag) => !ALT_ATTR.test(tag)).length;
    if (missing === 0) return { ...base, status: 'ok', detail: 'Every image in your HTML has an alt attribute.' };
    return {
      ...base,
      status: 'warning',
      detail: `${missing} ${missing === 1 ? 'image has' : 'images have'} no alt attribute: readers whose mail blocks images, and screen readers, get nothing in their place.`,
    };
  }
  const pictures = allBlocks(draft.blocks).filter((block) => block.type === 'image' || block.type === 'video');
  const missing = pictures.filter(
    (block) => (block.type === 'image' || block.type === 'video') && !block.content.alt.trim(),
  );
  if (missing.length === 0)
    return {
      ...base,
      status: 'ok',
      detail: pictures.length === 0 ? 'No images.' : 'Every image says what it shows (alt text).',
    };
  const first = missing[0];
  return {
    ...base,
    status: 'warning',
    detail: `${missing.length} ${missing.length === 1 ? 'image has' : 'images have'} no alt text: readers whose mail blocks images, and screen readers, get nothing in their place.`,
    ...(first ? { fix: { kind: 'block' as const, blockId: first.id }, fixLabel: 'Describe the image' } : {}),
  };
}

/** The words a reader gets without pictures: spam filters distrust mail that is all image, and so do readers. */
function wordsWithoutImages(draft: CampaignDraft): string {
  if (draft.rawHtml !== null)
    return draft.rawHtml
      .replace(/<(style|script|head)\b[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<[^>]*>/g, ' ')
      .replace(/&nbsp;|\{\{[^}]*\}\}/g, ' ');
  return allBlocks(draft.blocks)
    .map((block) =>
      block.type === 'text' || block.type === 'heading' || block.type === 'button'
        ? block.content.text
        : block.type === 'html'
          ? block.content.html.replace(/<[^>]*>/g, ' ')
          : '',
    )
    .join(' ');
}

/** Fewer words than this beside pictures is an image-only mail. */
const IMAGE_ONLY_WORDS = 20;

function imageOnlyCheck(draft: CampaignDraft): PreSendCheck {
  const base = { id: 'image-only', label: 'Text beside images' } as const;
  const hasImages =
    draft.rawHtml !== null
      ? /<img\b/i.test(draft.rawHtml)
      : allBlocks(draft.blocks).some((block) => block.type === 'image' || block.type === 'video');
  const words = wordsWithoutImages(draft).split(/\s+/).filter(Boolean).length;
  if (!hasImages || words >= IMAGE_ONLY_WORDS)
    return { ...base, status: 'ok', detail: hasImages ? `${words} words beside the images.` : 'No images.' };
  return {
    ...base,
    status: 'warning',
    detail: `Only ${words} ${words === 1 ? 'word' : 'words'} beside the images: mail that is mostly pictures is often filtered as spam and reads as nothing where images are off. Add some text.`,
  };
}

/** The blocked lines, for the reason shown beside disabled Send and Schedule buttons. */
export function blockingChecks(checks: readonly PreSendCheck[]): PreSendCheck[] {
  return checks.filter((check) => check.status === 'blocked');
}
