import type * as React from 'react';
import { useDraggable } from '@dnd-kit/core';
import {
  Code2,
  Columns2,
  Heading,
  Image,
  Minus,
  MoveVertical,
  RectangleHorizontal,
  Share2,
  Type,
  Video,
  type LucideIcon,
} from 'lucide-react';

import { cn } from '@/lib/utils';
import { BLOCK_TYPE_LABELS, BLOCK_TYPES, type BlockType } from '../../editor/blocks';
import type { DragData } from './email-canvas';

export const BLOCK_ICONS: Record<BlockType, LucideIcon> = {
  text: Type,
  image: Image,
  button: RectangleHorizontal,
  divider: Minus,
  spacer: MoveVertical,
  heading: Heading,
  columns: Columns2,
  social: Share2,
  video: Video,
  html: Code2,
};

/** The id of a palette item's draggable. */
const paletteDragId = (type: BlockType) => `palette-${type}`;

/**
 * Design Elements (spec §2): each element can be dragged onto the canvas with a pointer, or
 * clicked (Enter/Space) to add it at the end, which is the keyboard path.
 */
export function DesignElements({ onAdd }: { onAdd: (type: BlockType) => void }) {
  return (
    <section aria-labelledby="design-elements-heading" className="space-y-3">
      <div>
        <h3 id="design-elements-heading" className="text-sm font-semibold">
          Design Elements
        </h3>
        <p className="text-muted-foreground text-xs">Drag onto the email, or click to add at the end.</p>
      </div>
      <ul className="grid grid-cols-2 gap-2">
        {BLOCK_TYPES.map((type) => (
          <li key={type}>
            <PaletteItem type={type} onAdd={onAdd} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function PaletteItem({ type, onAdd }: { type: BlockType; onAdd: (type: BlockType) => void }) {
  const data: DragData = { kind: 'palette', type };
  const { setNodeRef, listeners, isDragging } = useDraggable({ id: paletteDragId(type), data });
  const Icon = BLOCK_ICONS[type];
  return (
    <button
      type="button"
      ref={setNodeRef}
      // Pointer dragging only: the keyboard activates the button instead (adds the block).
      onPointerDown={(event) => (listeners?.onPointerDown as React.PointerEventHandler | undefined)?.(event)}
      onClick={() => onAdd(type)}
      className={cn(
        'bg-background hover:border-primary/40 hover:bg-accent focus-visible:ring-ring/50 flex w-full cursor-grab touch-none items-center gap-2 rounded-md border px-3 py-2.5 text-sm font-medium shadow-xs transition-colors outline-none focus-visible:ring-[3px] active:cursor-grabbing',
        isDragging && 'opacity-50',
      )}
      data-palette-type={type}
    >
      <Icon className="text-muted-foreground size-4 shrink-0" aria-hidden="true" />
      <span className="sr-only">Add </span>
      {BLOCK_TYPE_LABELS[type]}
      <span className="sr-only"> block</span>
    </button>
  );
}
