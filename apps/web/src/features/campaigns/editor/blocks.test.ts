import { describe, expect, it } from 'vitest';
import { emailBlockSchema, plainTextDoc, type EmailBlock } from '@sendwell/contract/campaigns';

import {
  addToColumn,
  BLOCK_TYPES,
  createBlock,
  createImageBlock,
  describeBlock,
  duplicateBlock,
  findBlock,
  insertBlock,
  moveBlock,
  newBlockId,
  removeBlock,
  replaceImageSource,
  resetBlockStyles,
  richTextContent,
  sampleImageUrl,
  setColumnCount,
  springSaleTemplate,
  updateBlockContent,
  updateBlockStyles,
  textBlockDoc,
} from './blocks';

let n = 0;
const seqId = () => `b${++n}`;

describe('block factories', () => {
  it('makes a valid block of every palette type', () => {
    for (const type of BLOCK_TYPES) {
      const block = createBlock(type, `id-${type}`);
      expect(block.type).toBe(type);
      expect(emailBlockSchema.safeParse(block).success, type).toBe(true);
    }
  });

  it('gives text and button blocks their spec content fields', () => {
    const text = createBlock('text');
    const button = createBlock('button');
    expect(text.type === 'text' && text.content.tag).toBe('p');
    expect(button.type === 'button' && button.content.url).toMatch(/^https:\/\//);
  });

  it('starts new campaigns with the six-block spring-sale template, all valid', () => {
    const blocks = springSaleTemplate(seqId);
    expect(blocks.map((b) => b.type)).toEqual(['text', 'text', 'text', 'image', 'text', 'button']);
    expect(blocks.every((b) => emailBlockSchema.safeParse(b).success)).toBe(true);
    expect(new Set(blocks.map((b) => b.id)).size).toBe(6);
    const last = blocks[5];
    expect(last?.type === 'button' && last.content.text).toBe('Shop Now');
  });

  it('makes image blocks for uploads', () => {
    expect(createImageBlock('/uploads/abc.png', 'Logo', 'x')).toEqual({
      id: 'x',
      type: 'image',
      content: { src: '/uploads/abc.png', alt: 'Logo' },
      styles: {},
    });
  });

  it('uses UUIDs for ids', () => {
    expect(newBlockId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newBlockId()).not.toBe(newBlockId());
  });
});

describe('list operations', () => {
  const blocks = (): EmailBlock[] => [createBlock('text', 'a'), createBlock('image', 'b'), createBlock('button', 'c')];

  it('duplicates right after the original, with a deep copy', () => {
    const { blocks: next, copyId } = duplicateBlock(blocks(), 'b', 'b2');
    expect(copyId).toBe('b2');
    expect(next.map((b) => b.id)).toEqual(['a', 'b', 'b2', 'c']);
    const [orig, copy] = [next[1], next[2]];
    expect(copy).toEqual({ ...orig, id: 'b2' });
    expect(copy?.content).not.toBe(orig?.content);
    expect(duplicateBlock(blocks(), 'missing').copyId).toBeNull();
  });

  it('clears the selection when the selected block is deleted, keeps it otherwise', () => {
    expect(removeBlock(blocks(), 'b', 'b')).toEqual({ blocks: [blocks()[0], blocks()[2]], selectedId: null });
    expect(removeBlock(blocks(), 'b', 'a').selectedId).toBe('a');
  });

  it('inserts at an index and moves like arrayMove', () => {
    expect(insertBlock(blocks(), createBlock('divider', 'd'), 1).map((b) => b.id)).toEqual(['a', 'd', 'b', 'c']);
    expect(insertBlock(blocks(), createBlock('divider', 'd'), 99).map((b) => b.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(moveBlock(blocks(), 'a', 'c').map((b) => b.id)).toEqual(['b', 'c', 'a']);
    expect(moveBlock(blocks(), 'c', 'a').map((b) => b.id)).toEqual(['c', 'a', 'b']);
  });

  it('updates content and removes a style when set to undefined', () => {
    let next = updateBlockContent<'text'>(blocks(), 'a', { tag: 'h2', text: 'Hello' });
    expect(next[0]).toMatchObject({ content: { tag: 'h2', text: 'Hello' } });
    next = updateBlockStyles(next, 'a', { color: '#ff0000', fontSize: 20 });
    next = updateBlockStyles(next, 'a', { fontSize: undefined });
    expect(next[0]?.styles).toEqual({ color: '#ff0000' });
  });

  it('describes blocks for labels', () => {
    const [text, image, button] = springSaleTemplate(seqId).filter((_, i) => i === 0 || i === 3 || i === 5);
    expect(text && describeBlock(text)).toBe('Heading 1 “Spring Sale”');
    expect(image && describeBlock(image)).toBe('Image “Pink and purple spring flowers”');
    expect(button && describeBlock(button)).toBe('Button “Shop Now”');
  });
});

describe('images', () => {
  it('starts the template and new image blocks on the picture shipped with the app, not a hot-link', () => {
    expect(sampleImageUrl('https://mail.acme.test')).toBe('https://mail.acme.test/sample-images/spring-flowers.jpg');
    const image = springSaleTemplate(seqId, sampleImageUrl('https://mail.acme.test'))[3];
    expect(image?.type === 'image' && image.content.src).toBe(
      'https://mail.acme.test/sample-images/spring-flowers.jpg',
    );
    const block = createBlock('image');
    expect(block.type === 'image' && block.content.src).toMatch(/\/sample-images\/spring-flowers\.jpg$/);
    expect(emailBlockSchema.safeParse(block).success).toBe(true);
  });

  it('clears the alt text when a picture is replaced, and touches only that image block', () => {
    const image = createImageBlock('/uploads/old.png', 'Old tulips', 'img');
    const text = createBlock('text', 'txt');
    const next = replaceImageSource([image, text], 'img', '/uploads/new.png');
    expect(next[0]).toEqual({ ...image, content: { src: '/uploads/new.png', alt: '' } });
    expect(next[1]).toBe(text);
    expect(replaceImageSource([text], 'txt', '/uploads/new.png')[0]).toBe(text);
  });
});

describe('blocks inside columns', () => {
  const columnsWith = () => {
    const columns = createBlock('columns');
    return [createBlock('text'), columns] as const;
  };

  it('finds, edits, duplicates and removes a block in a column', () => {
    const [text, columns] = columnsWith();
    if (columns.type !== 'columns') throw new Error('columns expected');
    const inner = columns.content.columns[0]!.blocks[0]!;
    let blocks = [text, columns];
    expect(findBlock(blocks, inner.id)).toBe(inner);
    blocks = updateBlockContent(blocks, inner.id, { text: 'Inside' });
    expect(findBlock(blocks, inner.id)).toMatchObject({ content: { text: 'Inside' } });
    blocks = updateBlockStyles(blocks, inner.id, { color: '#112233' });
    expect(findBlock(blocks, inner.id)?.styles).toEqual({ color: '#112233' });
    blocks = resetBlockStyles(blocks, inner.id);
    expect(findBlock(blocks, inner.id)?.styles).toEqual({});
    const copied = duplicateBlock(blocks, inner.id, 'copy');
    const firstColumn = (copied.blocks[1] as typeof columns).content.columns[0]!.blocks;
    expect(firstColumn.map((b) => b.id)).toEqual([inner.id, 'copy', firstColumn[2]!.id]);
    const removed = removeBlock(copied.blocks, 'copy', 'copy');
    expect(findBlock(removed.blocks, 'copy')).toBeNull();
    expect(removed.selectedId).toBeNull();
    // Removing the columns block clears a selection inside it.
    expect(removeBlock(removed.blocks, columns.id, inner.id).selectedId).toBeNull();
  });

  it('adds to a column and switches between two and three columns without losing blocks', () => {
    const [, columns] = columnsWith();
    const heading = createBlock('heading', 'h');
    let blocks = addToColumn([columns], columns.id, 1, heading);
    expect(findBlock(blocks, 'h')).toEqual(heading);
    blocks = setColumnCount(blocks, columns.id, 3);
    expect((blocks[0] as typeof columns & { type: 'columns' }).content.columns).toHaveLength(3);
    blocks = addToColumn(blocks, columns.id, 2, createBlock('divider', 'd'));
    blocks = setColumnCount(blocks, columns.id, 2);
    const back = blocks[0] as typeof columns & { type: 'columns' };
    expect(back.content.columns).toHaveLength(2);
    expect(back.content.columns[1]!.blocks.map((b) => b.id)).toContain('d');
  });

  it('gives every new block type content the server accepts', () => {
    for (const type of BLOCK_TYPES) expect(emailBlockSchema.safeParse(createBlock(type)).success, type).toBe(true);
  });

  it('reads a plain text block as rich text and names an edited one by its first line', () => {
    const plain = createBlock('text');
    if (plain.type !== 'text') throw new Error('text expected');
    expect(textBlockDoc(plain)).toEqual(plainTextDoc(plain.content.text, 'p'));
    const doc = {
      type: 'doc' as const,
      content: [
        { type: 'heading' as const, attrs: { level: 2 as const }, content: [{ type: 'text' as const, text: 'Hi' }] },
      ],
    };
    expect(richTextContent(doc)).toEqual({ doc, text: 'Hi', tag: 'h2' });
  });
});
