import { describe, expect, it } from 'vitest';
import { applyBrandKit, BRAND_KIT_DEFAULTS, readableTextOn, type BrandKitBody } from './brand-kit.ts';
import type { EmailBlock } from './campaigns.ts';

const kit: BrandKitBody = {
  ...BRAND_KIT_DEFAULTS,
  logoUrl: '/uploads/logo.png',
  logoAlt: 'Acme',
  headerBackground: '#0f172a',
  primaryColor: '#fde047',
  textColor: '#1f2937',
  fontFamily: 'georgia',
  address: 'Acme Inc\n1 Main St',
};
const blocks: EmailBlock[] = [
  { id: 't', type: 'text', content: { text: 'Hi', tag: 'p' }, styles: {} },
  { id: 'w', type: 'text', content: { text: 'On dark', tag: 'h1' }, styles: { color: '#ffffff' } },
  {
    id: 'c',
    type: 'columns',
    content: {
      columns: [
        { blocks: [{ id: 'b', type: 'button', content: { text: 'Go', url: 'https://a.example' }, styles: {} }] },
        { blocks: [] },
      ],
    },
    styles: {},
  },
];

describe('applyBrandKit', () => {
  let n = 0;
  const newId = () => `new-${++n}`;

  it('puts the logo header first and the address footer last, in the kit’s colours and font', () => {
    const branded = applyBrandKit(blocks, kit, newId);
    expect(branded).toHaveLength(5);
    expect(branded[0]).toMatchObject({
      type: 'image',
      content: { src: '/uploads/logo.png', alt: 'Acme' },
      styles: { backgroundColor: '#0f172a' },
    });
    expect(branded[4]).toMatchObject({
      type: 'text',
      content: { text: 'Acme Inc\n1 Main St', tag: 'p' },
      styles: { fontFamily: 'georgia', textAlign: 'center' },
    });
    expect(branded[1]?.styles).toEqual({ color: '#1f2937', fontFamily: 'georgia' });
    // A colour the content chose (white words on a dark band) stays.
    expect(branded[2]?.styles).toEqual({ color: '#ffffff', fontFamily: 'georgia' });
    const columns = branded[3];
    if (columns?.type !== 'columns') throw new Error('columns expected');
    // A light brand colour gets dark button text (white on yellow cannot be read).
    expect(columns.content.columns[0]?.blocks[0]?.styles).toEqual({
      backgroundColor: '#fde047',
      color: '#18181b',
      fontFamily: 'georgia',
    });
    // The blocks given are not changed.
    expect(blocks[0]?.styles).toEqual({});
  });

  it('adds no header without a logo and no footer without an address', () => {
    const branded = applyBrandKit(blocks, { ...kit, logoUrl: null, address: '' }, newId);
    expect(branded.map((block) => block.id)).toEqual(['t', 'w', 'c']);
  });

  it('picks white text on dark brand colours', () => {
    expect(readableTextOn('#2563eb')).toBe('#ffffff');
    expect(readableTextOn('#000')).toBe('#ffffff');
    expect(readableTextOn('#ffffff')).toBe('#18181b');
  });
});
