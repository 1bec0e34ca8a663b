import { z } from 'zod';
import { colourSchema, EMAIL_FONTS, imageSrcSchema, type EmailBlock, type LeafBlock } from './campaigns.ts';

/**
 * The brand kit (issue 30 part 2): a header and footer the account sets once, and the colours and
 * font its new campaigns start with. Applied when a campaign is created in the editor; campaigns
 * that exist keep their own blocks and styles.
 */
export const BRAND_KIT_DEFAULTS = {
  logoUrl: null,
  logoAlt: '',
  headerBackground: '#ffffff',
  primaryColor: '#2563eb',
  textColor: '#333333',
  fontFamily: 'system',
  address: '',
  applyToNew: true,
} as const satisfies BrandKitBody;

const colour = (field: string) => z.string({ error: `${field} is required` }).pipe(colourSchema);

/** PUT /api/brand-kit: the whole kit (the settings form sends every field). */
export const brandKitBodySchema = z.object(
  {
    /** The logo in the header: an upload of the account or an http(s) URL; null for no header. */
    logoUrl: imageSrcSchema.nullable(),
    logoAlt: z.string().trim().max(300, 'Logo description must be at most 300 characters'),
    headerBackground: colour('Header background'),
    /** Buttons and links. */
    primaryColor: colour('Brand colour'),
    textColor: colour('Text colour'),
    fontFamily: z.enum(EMAIL_FONTS, { error: `Font must be one of ${EMAIL_FONTS.join(', ')}` }),
    /** The footer's words: the postal address, and a line about why readers get the mail. Empty: no footer block. */
    address: z.string().trim().max(1000, 'Footer address must be at most 1,000 characters'),
    /** Whether new campaigns start with the kit. */
    applyToNew: z.boolean({ error: 'applyToNew must be true or false' }),
  },
  { error: 'Send the brand kit as an object' },
);
export type BrandKitBody = z.infer<typeof brandKitBodySchema>;

/** GET/PUT /api/brand-kit: the kit; `updatedAt` is null until the account first saves one (the defaults then). */
export const brandKitSchema = brandKitBodySchema.extend({ updatedAt: z.string().nullable() });
export type BrandKit = z.infer<typeof brandKitSchema>;

/** Relative luminance of a hex colour (WCAG 2), for picking readable text on a brand colour. */
function luminance(hex: string): number {
  let digits = hex.slice(1);
  if (digits.length === 3 || digits.length === 4) digits = [...digits.slice(0, 3)].map((d) => d + d).join('');
  const channel = (i: number) => {
    const c = parseInt(digits.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

/** White or near-black, whichever reads better on `background` (a light brand colour gets dark button text). */
export function readableTextOn(background: string): string {
  const l = luminance(background);
  return 1.05 / (l + 0.05) >= (l + 0.05) / 0.05 ? '#ffffff' : '#18181b';
}

function brandLeaf(block: LeafBlock, kit: BrandKitBody): LeafBlock {
  switch (block.type) {
    case 'text':
    case 'heading':
      // A colour the starting content chose (white words on a dark band) stays; the rest take the kit's.
      return {
        ...block,
        styles: { ...block.styles, color: block.styles.color ?? kit.textColor, fontFamily: kit.fontFamily },
      };
    case 'button':
      return {
        ...block,
        styles: {
          ...block.styles,
          backgroundColor: kit.primaryColor,
          color: readableTextOn(kit.primaryColor),
          fontFamily: kit.fontFamily,
        },
      };
    default:
      return block;
  }
}

/**
 * A new campaign's starting blocks in the brand: the logo as a header first, the footer's words
 * last, buttons in the brand colour and words in its font (and text colour where the content set
 * none). `newId` names the header and footer blocks.
 */
export function applyBrandKit(blocks: EmailBlock[], kit: BrandKitBody, newId: () => string): EmailBlock[] {
  const branded = blocks.map((block): EmailBlock => {
    if (block.type !== 'columns') return brandLeaf(block, kit);
    return {
      ...block,
      content: {
        columns: block.content.columns.map((column) => ({
          blocks: column.blocks.map((inner) => brandLeaf(inner, kit)),
        })),
      },
    };
  });
  const header: EmailBlock[] = kit.logoUrl
    ? [
        {
          id: newId(),
          type: 'image',
          content: { src: kit.logoUrl, alt: kit.logoAlt },
          styles: { backgroundColor: kit.headerBackground, width: 40, textAlign: 'center', padding: 24 },
        },
      ]
    : [];
  const footer: EmailBlock[] = kit.address
    ? [
        {
          id: newId(),
          type: 'text',
          content: { text: kit.address, tag: 'p' },
          styles: { color: kit.textColor, fontSize: 13, textAlign: 'center', fontFamily: kit.fontFamily },
        },
      ]
    : [];
  return [...header, ...branded, ...footer];
}
