import * as React from 'react';

import { cn } from '@/lib/utils';

export type PreviewMode = 'desktop' | 'mobile';
/** The widths the email is laid out at: a desktop mail client (600 px email plus margins) and a phone. */
export const PREVIEW_WIDTHS: Record<PreviewMode, number> = { desktop: 640, mobile: 375 };

/**
 * Rendered email HTML in a sandboxed iframe (sandbox="": no scripts, no same-origin, no
 * forms or pop-ups), laid out at `width` CSS pixels and scaled down to fit its box, so the desktop
 * preview shows the real 600 px layout rather than a squeezed one.
 */
export function EmailFrame({
  html,
  width,
  title,
  mode,
}: {
  html: string;
  width: number;
  title: string;
  mode: PreviewMode;
}) {
  const boxRef = React.useRef<HTMLDivElement>(null);
  const [box, setBox] = React.useState({ width: 0, height: 0 });

  React.useLayoutEffect(() => {
    const node = boxRef.current;
    if (!node) return;
    const measure = () => setBox({ width: node.clientWidth, height: node.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    return () => observer.disconnect();
  }, []);

  const gutter = mode === 'mobile' ? 16 : 0;
  const scale = box.width > 0 ? Math.min(1, (box.width - gutter * 2) / width) : 1;
  const left = Math.max(0, (box.width - width * scale) / 2);
  const top = mode === 'mobile' ? 12 : 0;
  return (
    <div ref={boxRef} className="absolute inset-0">
      <iframe
        title={title}
        sandbox=""
        srcDoc={html}
        width={width}
        data-preview-mode={mode}
        className={cn(
          'absolute origin-top-left border-0 bg-white',
          mode === 'mobile' && 'rounded-[20px] shadow-lg ring-8 ring-zinc-800',
        )}
        style={{
          left,
          top,
          width,
          height: Math.max(0, (box.height - top * 2) / scale),
          transform: `scale(${scale})`,
        }}
      />
    </div>
  );
}
