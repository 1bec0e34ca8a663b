import * as React from 'react';
import { Code2, ImageOff, Play } from 'lucide-react';
import {
  EMAIL_FONT_STACKS,
  MERGE_TAG_PATTERN,
  type EmailBlock,
  type RichTextInline,
  type RichTextNode,
} from '@sendwell/contract/campaigns';

import { SOCIAL_LABELS, socialIconUrl, STYLE_DEFAULTS, type TextTag } from '../../editor/blocks';

/** A block's own font (a brand kit's) as the renderer sets it; none: the canvas's font, as before. */
const fontOf = (s: EmailBlock['styles']) => (s.fontFamily ? EMAIL_FONT_STACKS[s.fontFamily] : undefined);

/**
 * One block drawn on the canvas the way the server's renderer draws it (same defaults), with
 * phrasing elements only, because the canvas wraps each block in a button that selects it.
 */
export function BlockView({ block }: { block: EmailBlock }) {
  const s = block.styles;
  switch (block.type) {
    case 'text':
    case 'heading': {
      const tag = block.content.tag;
      const doc = block.type === 'text' ? block.content.doc : undefined;
      if (doc) {
        return (
          <span
            className="block break-words"
            style={{
              padding: s.padding ?? STYLE_DEFAULTS.textPadding,
              backgroundColor: s.backgroundColor,
              textAlign: s.textAlign ?? 'left',
              color: s.color ?? STYLE_DEFAULTS.textColor,
              fontFamily: fontOf(s),
            }}
          >
            {richTextIsEmpty(doc.content) ? (
              <span className="text-zinc-500 italic">Empty text block</span>
            ) : (
              <RichNodes nodes={doc.content} fontSize={s.fontSize} inList={false} />
            )}
          </span>
        );
      }
      return (
        <span
          className="block"
          style={{
            padding: s.padding ?? STYLE_DEFAULTS.textPadding,
            backgroundColor: s.backgroundColor,
            textAlign: s.textAlign ?? 'left',
          }}
        >
          <span
            className="block break-words whitespace-pre-wrap"
            style={{
              color: s.color ?? STYLE_DEFAULTS.textColor,
              fontSize: s.fontSize ?? STYLE_DEFAULTS.fontSize[tag],
              lineHeight: 1.5,
              fontWeight: tag === 'p' ? 400 : 700,
              fontFamily: fontOf(s),
            }}
          >
            {block.content.text.trim() === '' ? (
              <span className="text-zinc-500 italic">Empty text block</span>
            ) : (
              <WithMergeTags text={block.content.text} />
            )}
          </span>
        </span>
      );
    }
    case 'image': {
      const width = s.width ?? STYLE_DEFAULTS.imageWidth;
      const align = s.textAlign ?? 'left';
      return (
        <span
          className="block"
          style={{
            padding: s.padding ?? STYLE_DEFAULTS.blockPadding,
            backgroundColor: s.backgroundColor,
            textAlign: align,
          }}
        >
          <CanvasImage
            src={block.content.src}
            alt={block.content.alt}
            style={{
              display: 'block',
              width: `${width}%`,
              maxWidth: '100%',
              height: 'auto',
              marginLeft: align === 'left' ? 0 : 'auto',
              marginRight: align === 'right' ? 0 : 'auto',
            }}
          />
        </span>
      );
    }
    case 'button':
      return (
        <span
          className="block"
          style={{ padding: s.padding ?? STYLE_DEFAULTS.blockPadding, textAlign: s.textAlign ?? 'center' }}
        >
          <span
            className="inline-block font-bold"
            style={{
              backgroundColor: s.backgroundColor ?? STYLE_DEFAULTS.buttonBackground,
              color: s.color ?? STYLE_DEFAULTS.buttonColor,
              fontSize: s.fontSize ?? STYLE_DEFAULTS.buttonFontSize,
              borderRadius: s.borderRadius ?? STYLE_DEFAULTS.buttonRadius,
              padding: '12px 24px',
              fontFamily: fontOf(s),
            }}
          >
            <WithMergeTags text={block.content.text} />
          </span>
        </span>
      );
    case 'divider':
      return (
        <span className="block" style={{ padding: `${s.padding ?? 0}px 20px`, backgroundColor: s.backgroundColor }}>
          <span
            className="block"
            style={{ borderTop: `1px solid ${s.color ?? STYLE_DEFAULTS.dividerColor}`, margin: '20px 0' }}
          />
        </span>
      );
    case 'spacer': {
      const height = s.height ?? STYLE_DEFAULTS.spacerHeight;
      return (
        <span
          className="relative block"
          style={{
            height,
            backgroundColor: s.backgroundColor,
            backgroundImage: s.backgroundColor
              ? undefined
              : 'repeating-linear-gradient(135deg, transparent 0 6px, rgb(228 228 231 / 0.6) 6px 7px)',
          }}
        >
          {height >= 14 && (
            <span className="absolute inset-0 flex items-center justify-center text-[10px] leading-none font-medium tracking-wide text-zinc-600 uppercase">
              Spacer · {height}px
            </span>
          )}
        </span>
      );
    }
    case 'social':
      return (
        <span
          className="flex flex-wrap gap-3"
          style={{
            padding: s.padding ?? STYLE_DEFAULTS.blockPadding,
            backgroundColor: s.backgroundColor,
            justifyContent: { left: 'flex-start', center: 'center', right: 'flex-end' }[s.textAlign ?? 'center'],
          }}
        >
          {block.content.links.map((link, index) => (
            <img
              key={index}
              src={socialIconUrl(link.network)}
              alt={SOCIAL_LABELS[link.network]}
              width={32}
              height={32}
              draggable={false}
            />
          ))}
        </span>
      );
    case 'video':
      return (
        <span
          className="block text-center"
          style={{ padding: s.padding ?? STYLE_DEFAULTS.blockPadding, backgroundColor: s.backgroundColor }}
        >
          <CanvasImage
            src={block.content.thumbnail}
            alt={block.content.alt}
            style={{ display: 'block', width: '100%', maxWidth: '100%', height: 'auto' }}
          />
          <span className="mt-3 inline-flex items-center gap-1.5 rounded-full bg-zinc-900 px-4 py-2 text-sm font-bold text-white">
            <Play className="size-3.5 fill-current" aria-hidden="true" />
            Play video
          </span>
        </span>
      );
    case 'html':
      // The sender's own HTML is shown as its source here (it runs only in the sandboxed preview).
      return (
        <span className="block" style={{ padding: s.padding ?? 0, backgroundColor: s.backgroundColor }}>
          <span className="m-2 block rounded-md border border-zinc-200 bg-zinc-50 p-3">
            <span className="mb-1 flex items-center gap-1.5 text-xs font-medium text-zinc-700">
              <Code2 className="size-3.5" aria-hidden="true" />
              Your own HTML
            </span>
            <span className="line-clamp-4 block font-mono text-xs break-all whitespace-pre-wrap text-zinc-700">
              {block.content.html.trim() || 'Empty HTML block'}
            </span>
          </span>
        </span>
      );
    case 'columns':
      return (
        <span className="block p-3 text-sm text-zinc-700">
          {block.content.columns.length} columns ·{' '}
          {block.content.columns.reduce((sum, column) => sum + column.blocks.length, 0)} blocks
        </span>
      );
  }
}

/** True when rich text holds no words. */
function richTextIsEmpty(nodes: RichTextNode[]): boolean {
  return nodes.every((node) =>
    node.type === 'paragraph' || node.type === 'heading'
      ? (node.content ?? []).every((inline) => inline.type !== 'text' || inline.text.trim() === '')
      : false,
  );
}

/** Rich text drawn with phrasing elements (the canvas wraps a block in a button), as the renderer draws it. */
function RichNodes({ nodes, fontSize, inList }: { nodes: RichTextNode[]; fontSize?: number; inList: boolean }) {
  return (
    <>
      {nodes.map((node, index) => {
        const last = index === nodes.length - 1;
        const marginBottom = inList || last ? 0 : 16;
        if (node.type === 'paragraph' || node.type === 'heading') {
          const tag: TextTag = node.type === 'paragraph' ? 'p' : `h${node.attrs.level}`;
          return (
            <span
              key={index}
              className="block whitespace-pre-wrap"
              style={{
                marginBottom,
                fontSize: fontSize ?? STYLE_DEFAULTS.fontSize[tag],
                fontWeight: tag === 'p' ? 400 : 700,
                lineHeight: 1.5,
                textAlign: node.attrs?.textAlign ?? undefined,
              }}
            >
              <RichInline content={node.content} />
            </span>
          );
        }
        return (
          <span
            key={index}
            className="block"
            style={{ marginBottom, paddingLeft: 24, fontSize: fontSize ?? STYLE_DEFAULTS.fontSize.p, lineHeight: 1.5 }}
          >
            {node.content.map((item, itemIndex) => (
              <span key={itemIndex} className="relative block" style={{ marginBottom: 4 }}>
                <span aria-hidden="true" className="absolute -left-5">
                  {node.type === 'bulletList' ? '•' : `${itemIndex + 1}.`}
                </span>
                <RichNodes nodes={item.content} fontSize={fontSize} inList />
              </span>
            ))}
          </span>
        );
      })}
    </>
  );
}

function RichInline({ content }: { content: RichTextInline[] | undefined }) {
  return (
    <>
      {(content ?? []).map((node, index) => {
        if (node.type === 'hardBreak') return <br key={index} />;
        const marks = new Set((node.marks ?? []).map((mark) => mark.type));
        return (
          <span
            key={index}
            style={{
              fontWeight: marks.has('bold') ? 700 : undefined,
              fontStyle: marks.has('italic') ? 'italic' : undefined,
              textDecoration: marks.has('underline') || marks.has('link') ? 'underline' : undefined,
              color: marks.has('link') ? STYLE_DEFAULTS.buttonBackground : undefined,
            }}
          >
            <WithMergeTags text={node.text} />
          </span>
        );
      })}
    </>
  );
}

/** Text with its merge tags ({{firstName|there}}) marked, so the user sees what will be replaced. */
function WithMergeTags({ text }: { text: string }) {
  const parts: React.ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(MERGE_TAG_PATTERN)) {
    const index = match.index ?? 0;
    if (index > last) parts.push(text.slice(last, index));
    parts.push(
      <span key={index} className="rounded bg-blue-100 px-1 font-mono text-[0.85em] text-blue-900">
        {match[0]}
      </span>,
    );
    last = index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <>{parts}</>;
}

/** An image that shows a clear placeholder when its address cannot be loaded. */
function CanvasImage({ src, alt, style }: { src: string; alt: string; style: React.CSSProperties }) {
  const [failed, setFailed] = React.useState<string | null>(null);
  if (!src || failed === src) {
    return (
      <span
        className="flex aspect-[2/1] w-full flex-col items-center justify-center gap-2 rounded-md border border-dashed border-zinc-300 bg-zinc-50 text-zinc-600"
        style={{ width: style.width, marginLeft: style.marginLeft, marginRight: style.marginRight }}
      >
        <ImageOff className="size-6" aria-hidden="true" />
        <span className="px-4 text-center text-xs">{src ? 'This image could not be loaded' : 'Choose an image'}</span>
        {alt && <span className="px-4 text-center text-xs italic">{alt}</span>}
      </span>
    );
  }
  return <img src={src} alt={alt} style={style} onError={() => setFailed(src)} draggable={false} />;
}
