import * as React from 'react';
import { ImageOff } from 'lucide-react';
import { MERGE_TAG_PATTERN, type EmailBlock } from '@sendwell/contract/campaigns';

import { STYLE_DEFAULTS } from '../../editor/blocks';

/**
 * One block drawn on the canvas the way the server's renderer draws it (same defaults), with
 * phrasing elements only, because the canvas wraps each block in a button that selects it.
 */
export function BlockView({ block }: { block: EmailBlock }) {
  const s = block.styles;
  switch (block.type) {
    case 'text': {
      const tag = block.content.tag;
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
  }
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
