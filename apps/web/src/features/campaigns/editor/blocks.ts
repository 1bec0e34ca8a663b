import {
  plainTextDoc,
  richTextPlain,
  type BlockCondition,
  type BlockStyles,
  type EmailBlock,
  type LeafBlock,
  type RichTextDoc,
  type SocialNetwork,
} from '@sendwell/contract/campaigns';

import { publicUrl } from '@/lib/public-url';

export type BlockType = EmailBlock['type'];
export type LeafBlockType = LeafBlock['type'];
export type TextTag = Extract<EmailBlock, { type: 'text' }>['content']['tag'];
export type BlockOf<T extends BlockType> = Extract<EmailBlock, { type: T }>;

/** The Design Elements palette: the spec's five, then the richer blocks. */
export const BLOCK_TYPES: readonly BlockType[] = [
  'text',
  'image',
  'button',
  'divider',
  'spacer',
  'heading',
  'columns',
  'social',
  'video',
  'html',
];
/** What a column can hold: every block but columns. */
export const LEAF_BLOCK_TYPES = BLOCK_TYPES.filter((type): type is LeafBlockType => type !== 'columns');

export const BLOCK_TYPE_LABELS: Record<BlockType, string> = {
  text: 'Text',
  image: 'Image',
  button: 'Button',
  divider: 'Divider',
  spacer: 'Spacer',
  heading: 'Heading',
  columns: 'Columns',
  social: 'Social links',
  video: 'Video',
  html: 'HTML',
};

export const SOCIAL_LABELS: Record<SocialNetwork, string> = {
  facebook: 'Facebook',
  instagram: 'Instagram',
  x: 'X',
  linkedin: 'LinkedIn',
  youtube: 'YouTube',
  tiktok: 'TikTok',
};

/** A social network's icon, shipped with the web app (apps/web/public/images/social). */
export function socialIconUrl(network: SocialNetwork): string {
  return `/images/social/${network}.png`;
}

/** A text block's rich text; one saved before rich text is read as it renders (migrate on read). */
export function textBlockDoc(block: BlockOf<'text'>): RichTextDoc {
  return block.content.doc ?? plainTextDoc(block.content.text, block.content.tag);
}

/**
 * The content a rich-text edit saves: the document, its words as the plain `text`, and as `tag`
 * the kind of its first line (what names the block: 'Heading 2 “Welcome”').
 */
export function richTextContent(doc: RichTextDoc): { doc: RichTextDoc; text: string; tag: TextTag } {
  const first = doc.content[0];
  const tag: TextTag = first?.type === 'heading' ? `h${first.attrs.level}` : 'p';
  return { doc, text: richTextPlain(doc).slice(0, 20_000), tag };
}

export const TEXT_TAG_LABELS: Record<TextTag, string> = {
  p: 'Paragraph',
  h1: 'Heading 1',
  h2: 'Heading 2',
  h3: 'Heading 3',
};

/**
 * The look of a block when a style is not set, mirroring the server's renderer (spec §3 defaults:
 * dark grey 16px text with 20px around it, full-width images, a blue button with white text and a
 * 4px radius, a 1px divider, a 20px spacer). The editor canvas draws blocks with these.
 */
export const STYLE_DEFAULTS = {
  textColor: '#333333',
  fontSize: { p: 16, h1: 32, h2: 24, h3: 20 } satisfies Record<TextTag, number>,
  textPadding: 20,
  blockPadding: 20,
  // A shade darker than the spec's #007bff, whose white 16px text fails WCAG AA (3.98:1; this 5.17:1).
  buttonBackground: '#2563eb',
  buttonColor: '#ffffff',
  buttonFontSize: 16,
  buttonRadius: 4,
  dividerColor: '#e5e5e5',
  spacerHeight: 20,
  imageWidth: 100,
} as const;

/** A fresh block id: crypto.randomUUID where the page is a secure context, else a v4 UUID from getRandomValues. */
export function newBlockId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The sample picture shipped with the web app (apps/web/public), so an offline install never opens on a broken image. */
const SAMPLE_IMAGE_PATH = '/sample-images/spring-flowers.jpg';

/**
 * The sample picture's full address on this app (the server wants an http(s) URL, and the mail
 * needs an absolute one): on PUBLIC_URL, as every address the app shows or mails (issue 34).
 * Outside a browser (unit tests) the origin is given.
 */
export function sampleImageUrl(origin: string = publicUrl()): string {
  return `${origin}${SAMPLE_IMAGE_PATH}`;
}

/** The words a new text block starts with: a prompt to the writer, never meant to be sent. */
export const STARTING_TEXT = 'Write something your readers will love.';

/** A new block of a type with its starting content, as dropped from Design Elements. */
export function createBlock(type: LeafBlockType, id?: string): LeafBlock;
export function createBlock(type: BlockType, id?: string): EmailBlock;
export function createBlock(type: BlockType, id: string = newBlockId()): EmailBlock {
  switch (type) {
    case 'heading':
      return { id, type, content: { text: 'Your headline', tag: 'h2' }, styles: {} };
    case 'columns':
      return {
        id,
        type,
        content: {
          columns: [{ blocks: [createBlock('text'), createBlock('button')] }, { blocks: [createBlock('image')] }],
        },
        styles: {},
      };
    case 'social':
      return {
        id,
        type,
        content: {
          links: [
            { network: 'facebook', url: 'https://facebook.com/' },
            { network: 'instagram', url: 'https://instagram.com/' },
            { network: 'x', url: 'https://x.com/' },
          ],
        },
        styles: {},
      };
    case 'video':
      return {
        id,
        type,
        content: { url: 'https://example.com/video', thumbnail: sampleImageUrl(), alt: 'Watch our video' },
        styles: {},
      };
    case 'html':
      return { id, type, content: { html: '<p style="margin:0;">Your own HTML</p>' }, styles: {} };
    case 'text':
      return { id, type, content: { text: STARTING_TEXT, tag: 'p' }, styles: {} };
    case 'image':
      return { id, type, content: { src: sampleImageUrl(), alt: 'Image description' }, styles: {} };
    case 'button':
      return {
        id,
        type,
        content: { text: 'Click here', url: 'https://example.com' },
        styles: { backgroundColor: STYLE_DEFAULTS.buttonBackground, color: '#ffffff' },
      };
    case 'divider':
      return { id, type, content: {}, styles: {} };
    case 'spacer':
      return { id, type, content: {}, styles: { height: STYLE_DEFAULTS.spacerHeight } };
  }
}

/** An image block for an uploaded picture or a logo. */
export function createImageBlock(src: string, alt = '', id: string = newBlockId()): BlockOf<'image'> {
  return { id, type: 'image', content: { src, alt }, styles: {} };
}

/**
 * The sample spring-sale email a new campaign starts with (spec §2): header, subtitle, main
 * heading, product image, description and a Shop Now button.
 */
export function springSaleTemplate(
  makeId: () => string = newBlockId,
  imageUrl: string = sampleImageUrl(),
): EmailBlock[] {
  return [
    {
      id: makeId(),
      type: 'text',
      content: { text: 'Spring Sale', tag: 'h1' },
      styles: { textAlign: 'center', color: '#9d174d', backgroundColor: '#fdf2f8', padding: 32 },
    },
    {
      id: makeId(),
      type: 'text',
      content: { text: 'Fresh styles for a fresh season', tag: 'p' },
      styles: { textAlign: 'center', color: '#52525b', fontSize: 18 },
    },
    {
      id: makeId(),
      type: 'text',
      content: { text: 'Up to 40% off everything in bloom', tag: 'h2' },
      styles: { textAlign: 'center' },
    },
    {
      id: makeId(),
      type: 'image',
      content: { src: imageUrl, alt: 'Pink and purple spring flowers' },
      styles: {},
    },
    {
      id: makeId(),
      type: 'text',
      content: {
        text: 'Hi {{firstName|there}}, spring is here and so are our best prices of the season. Discover new arrivals, limited-time offers and free shipping on every order this week.',
        tag: 'p',
      },
      styles: {},
    },
    {
      id: makeId(),
      type: 'button',
      content: { text: 'Shop Now', url: 'https://example.com/spring-sale' },
      styles: { backgroundColor: STYLE_DEFAULTS.buttonBackground, color: '#ffffff', textAlign: 'center' },
    },
  ];
}

/** A copy of a block with a new id (content and styles copied, not shared; a column's blocks get new ids too). */
function cloneBlock(block: EmailBlock, id: string = newBlockId()): EmailBlock {
  const copy = structuredClone({ ...block, id });
  if (copy.type === 'columns') {
    for (const column of copy.content.columns)
      column.blocks = column.blocks.map((inner) => ({ ...inner, id: newBlockId() }));
  }
  return copy;
}

/** Saved blocks put into a campaign at an index: copies with ids of their own (a columns block's contents too). */
export function insertCopies(
  blocks: readonly EmailBlock[],
  saved: readonly EmailBlock[],
  index: number = blocks.length,
): { blocks: EmailBlock[]; firstId: string | null } {
  const copies = saved.map((block) => cloneBlock(block));
  const at = Math.max(0, Math.min(index, blocks.length));
  return { blocks: [...blocks.slice(0, at), ...copies, ...blocks.slice(at)], firstId: copies[0]?.id ?? null };
}

/** Inserts a block at an index (clamped to the list). */
export function insertBlock<T extends EmailBlock>(blocks: readonly T[], block: T, index: number = blocks.length): T[] {
  const at = Math.max(0, Math.min(index, blocks.length));
  return [...blocks.slice(0, at), block, ...blocks.slice(at)];
}

/** The blocks with `update` applied to each column's list of blocks. */
function mapColumns(blocks: readonly EmailBlock[], update: (inner: LeafBlock[]) => LeafBlock[]): EmailBlock[] {
  return blocks.map((block) =>
    block.type === 'columns'
      ? { ...block, content: { columns: block.content.columns.map((column) => ({ blocks: update(column.blocks) })) } }
      : block,
  );
}

/** Every block with `update` applied, the blocks inside columns too. */
function mapTree(blocks: readonly EmailBlock[], update: (block: EmailBlock) => EmailBlock): EmailBlock[] {
  return mapColumns(blocks.map(update), (inner) => inner.map((block) => update(block) as LeafBlock));
}

/** A block found by id, in the list or inside its columns. */
export function findBlock(blocks: readonly EmailBlock[], id: string | null): EmailBlock | null {
  if (id === null) return null;
  for (const block of blocks) {
    if (block.id === id) return block;
    if (block.type === 'columns') {
      for (const column of block.content.columns) {
        const inner = column.blocks.find((b) => b.id === id);
        if (inner) return inner;
      }
    }
  }
  return null;
}

/** A new block at the end of a column of a columns block. */
export function addToColumn(
  blocks: readonly EmailBlock[],
  columnsId: string,
  columnIndex: number,
  block: LeafBlock,
): EmailBlock[] {
  return blocks.map((b) =>
    b.id === columnsId && b.type === 'columns'
      ? {
          ...b,
          content: {
            columns: b.content.columns.map((column, i) =>
              i === columnIndex ? { blocks: [...column.blocks, block] } : column,
            ),
          },
        }
      : b,
  );
}

/** A columns block with two or three columns: a third starts empty, the third's blocks join the second. */
export function setColumnCount(blocks: readonly EmailBlock[], id: string, count: 2 | 3): EmailBlock[] {
  return blocks.map((block) => {
    if (block.id !== id || block.type !== 'columns') return block;
    const [first = { blocks: [] }, second = { blocks: [] }, third] = block.content.columns;
    const columns =
      count === 3
        ? [first, second, third ?? { blocks: [] }]
        : [first, { blocks: [...second.blocks, ...(third?.blocks ?? [])] }];
    return { ...block, content: { columns } };
  });
}

/** The list with a copy of the block right after it, and the copy's id (null when the id is unknown). */
export function duplicateBlock(
  blocks: readonly EmailBlock[],
  id: string,
  newId: string = newBlockId(),
): { blocks: EmailBlock[]; copyId: string | null } {
  const index = blocks.findIndex((block) => block.id === id);
  const original = blocks[index];
  if (original) return { blocks: insertBlock(blocks, cloneBlock(original, newId), index + 1), copyId: newId };
  const inner = findBlock(blocks, id);
  if (!inner) return { blocks: [...blocks], copyId: null };
  const copy = cloneBlock(inner, newId) as LeafBlock;
  const next = mapColumns(blocks, (column) => {
    const at = column.findIndex((block) => block.id === id);
    return at < 0 ? column : insertBlock(column, copy, at + 1);
  });
  return { blocks: next, copyId: newId };
}

/** The list without the block (in a column too), and the selection after it (cleared when the selected block was removed). */
export function removeBlock(
  blocks: readonly EmailBlock[],
  id: string,
  selectedId: string | null,
): { blocks: EmailBlock[]; selectedId: string | null } {
  const removed = findBlock(blocks, id);
  const gone = removed?.type === 'columns' && findBlock([removed], selectedId) !== null;
  return {
    blocks: mapColumns(
      blocks.filter((block) => block.id !== id),
      (inner) => inner.filter((block) => block.id !== id),
    ),
    selectedId: selectedId === id || gone ? null : selectedId,
  };
}

/** Moves the block `activeId` to where `overId` is (dnd-kit's arrayMove semantics). */
export function moveBlock(blocks: readonly EmailBlock[], activeId: string, overId: string): EmailBlock[] {
  const from = blocks.findIndex((block) => block.id === activeId);
  const to = blocks.findIndex((block) => block.id === overId);
  if (from < 0 || to < 0 || from === to) return [...blocks];
  const next = [...blocks];
  const [moved] = next.splice(from, 1);
  if (moved) next.splice(to, 0, moved);
  return next;
}

/** A block's styles back to the defaults (a block in a column too). */
export function resetBlockStyles(blocks: readonly EmailBlock[], id: string): EmailBlock[] {
  return mapTree(blocks, (block) => (block.id === id ? { ...block, styles: {} } : block));
}

/** Replaces a block's content fields (only fields of that block's type). */
export function updateBlockContent<T extends BlockType>(
  blocks: readonly EmailBlock[],
  id: string,
  patch: Partial<BlockOf<T>['content']>,
): EmailBlock[] {
  return mapTree(blocks, (block) =>
    block.id === id ? ({ ...block, content: { ...block.content, ...patch } } as EmailBlock) : block,
  );
}

/**
 * A new picture for an image block: the old alt text described the old picture, so it is cleared
 * (first-hour finding 6: it used to go out with the new image).
 */
export function replaceImageSource(blocks: readonly EmailBlock[], id: string, src: string): EmailBlock[] {
  return mapTree(blocks, (block) =>
    block.id === id && block.type === 'image' ? { ...block, content: { ...block.content, src, alt: '' } } : block,
  );
}

/** Sets style fields of a block; an undefined value removes the field, so the default applies again. */
export function updateBlockStyles(
  blocks: readonly EmailBlock[],
  id: string,
  patch: Partial<Record<keyof BlockStyles, unknown>>,
): EmailBlock[] {
  return mapTree(blocks, (block) => {
    if (block.id !== id) return block;
    const styles: Record<string, unknown> = { ...block.styles };
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) delete styles[key];
      else styles[key] = value;
    }
    return { ...block, styles: styles as BlockStyles };
  });
}

/** Who sees a block (issue 30 part 6): a condition, or everyone (undefined). */
export function setBlockCondition(
  blocks: readonly EmailBlock[],
  id: string,
  condition: BlockCondition | undefined,
): EmailBlock[] {
  return mapTree(blocks, (block) => {
    if (block.id !== id) return block;
    const { condition: _old, ...rest } = block;
    return (condition ? { ...rest, condition } : rest) as EmailBlock;
  });
}

/** A short human description of a block, for labels and announcements ('Heading 1 “Spring Sale”'). */
export function describeBlock(block: EmailBlock): string {
  switch (block.type) {
    case 'text': {
      const kind = block.content.tag === 'p' ? 'Text' : TEXT_TAG_LABELS[block.content.tag];
      return `${kind} “${excerpt(block.content.text)}”`;
    }
    case 'image':
      return block.content.alt ? `Image “${excerpt(block.content.alt)}”` : 'Image';
    case 'button':
      return `Button “${excerpt(block.content.text)}”`;
    case 'divider':
      return 'Divider';
    case 'spacer':
      return 'Spacer';
    case 'heading':
      return `Heading “${excerpt(block.content.text)}”`;
    case 'columns':
      return `${block.content.columns.length} columns`;
    case 'social':
      return 'Social links';
    case 'video':
      return block.content.alt ? `Video “${excerpt(block.content.alt)}”` : 'Video';
    case 'html':
      return 'HTML';
  }
}

function excerpt(text: string, max = 32): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
