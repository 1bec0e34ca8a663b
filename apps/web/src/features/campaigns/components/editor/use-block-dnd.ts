import * as React from 'react';
import {
  closestCenter,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DndContextProps,
  type DragEndEvent,
  type DragMoveEvent,
  type DragStartEvent,
} from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';

import { BLOCK_TYPE_LABELS, describeBlock } from '../../editor/blocks';
import { CANVAS_ID, type DragData } from './email-canvas';
import type { CampaignDraftState } from './use-campaign-draft';

const SCREEN_READER_INSTRUCTIONS =
  'To move a block, press Space or Enter to pick it up, use the arrow keys to move it, and press Space or Enter again to drop it. Press Escape to cancel.';

function dragData(event: { active: { data: { current?: unknown } } }): DragData | null {
  return (event.active.data.current ?? null) as DragData | null;
}

/** Palette drags land where the pointer is (a block, else the canvas); reordering uses the closest block. */
const collisionDetection: CollisionDetection = (args) => {
  const kind = dragData(args)?.kind;
  if (kind === 'palette' || kind === 'saved') {
    const hits = pointerWithin(args);
    const onBlock = hits.find((hit) => hit.id !== CANVAS_ID);
    return onBlock ? [onBlock] : hits;
  }
  return closestCenter({
    ...args,
    droppableContainers: args.droppableContainers.filter((container) => container.id !== CANVAS_ID),
  });
};

/**
 * Drag and drop on the canvas (@dnd-kit, pointer or keyboard): Design Elements dragged in become
 * new blocks where they land, blocks dragged onto others are reordered, and a screen reader hears
 * where the block is. The result is spread on a DndContext; the canvas shows `insertAt`.
 */
export function useBlockDnd(draft: CampaignDraftState) {
  const blocks = draft.draft.blocks;
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const [activeDrag, setActiveDrag] = React.useState<DragData | null>(null);
  const [insertAt, setInsertAt] = React.useState<number | null>(null);
  // Read synchronously by Escape handling, which must not close the dialog in the middle of a drag.
  const draggingRef = React.useRef(false);

  // A file dropped beside the canvas must not make the browser open it (and lose the editor).
  React.useEffect(() => {
    const stop = (event: DragEvent) => {
      if (event.dataTransfer && Array.from(event.dataTransfer.types).includes('Files')) event.preventDefault();
    };
    window.addEventListener('dragover', stop);
    window.addEventListener('drop', stop);
    return () => {
      window.removeEventListener('dragover', stop);
      window.removeEventListener('drop', stop);
    };
  }, []);

  /** Where a palette item over the canvas would land: before or after the block under it, else at the end. */
  const paletteIndex = (event: DragMoveEvent | DragEndEvent): number | null => {
    const over = event.over;
    if (!over) return null;
    if (over.id === CANVAS_ID) return blocks.length;
    const index = blocks.findIndex((block) => block.id === over.id);
    if (index < 0) return null;
    const rect = event.active.rect.current.translated;
    const middle = over.rect.top + over.rect.height / 2;
    return rect && rect.top + rect.height / 2 > middle ? index + 1 : index;
  };

  const onDragStart = (event: DragStartEvent) => {
    draggingRef.current = true;
    setActiveDrag(dragData(event));
  };
  const onDragMove = (event: DragMoveEvent) => {
    const kind = dragData(event)?.kind;
    if (kind !== 'palette' && kind !== 'saved') return;
    const index = paletteIndex(event);
    setInsertAt((current) => (current === index ? current : index));
  };
  const endDrag = () => {
    setActiveDrag(null);
    setInsertAt(null);
    // Escape ends a keyboard drag; let that key press finish before Escape may close the dialog again.
    setTimeout(() => {
      draggingRef.current = false;
    }, 0);
  };
  const onDragEnd = (event: DragEndEvent) => {
    const data = dragData(event);
    if (data?.kind === 'palette') {
      const index = paletteIndex(event);
      if (index !== null) draft.addBlock(data.type, index);
    } else if (data?.kind === 'saved') {
      const index = paletteIndex(event);
      if (index !== null) draft.addSaved(data.saved.blocks, index);
    } else if (
      data?.kind === 'block' &&
      event.over &&
      event.over.id !== event.active.id &&
      event.over.id !== CANVAS_ID
    ) {
      draft.moveBlock(data.id, String(event.over.id));
    }
    endDrag();
  };

  const dragLabel = (data: DragData | null): string => {
    if (!data) return 'The element';
    if (data.kind === 'palette') return `New ${BLOCK_TYPE_LABELS[data.type].toLowerCase()} block`;
    if (data.kind === 'saved') return `Saved block ${data.saved.name}`;
    const block = blocks.find((b) => b.id === data.id);
    return block ? describeBlock(block) : 'The block';
  };
  const positionOf = (id: string | number | undefined) => blocks.findIndex((block) => block.id === id) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${dragLabel(active.data.current as DragData)}.`,
    onDragOver: ({ active, over }) =>
      over && over.id !== CANVAS_ID
        ? `${dragLabel(active.data.current as DragData)} is at position ${positionOf(over.id)} of ${blocks.length}.`
        : over
          ? `${dragLabel(active.data.current as DragData)} is over the email.`
          : `${dragLabel(active.data.current as DragData)} is no longer over the email.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `${dragLabel(active.data.current as DragData)} was dropped${over.id !== CANVAS_ID ? ` at position ${positionOf(over.id)}` : ''}.`
        : `${dragLabel(active.data.current as DragData)} was dropped outside the email.`,
    onDragCancel: ({ active }) => `Moving ${dragLabel(active.data.current as DragData)} was cancelled.`,
  };

  const contextProps: DndContextProps = {
    sensors,
    collisionDetection,
    onDragStart,
    onDragMove,
    onDragEnd,
    onDragCancel: endDrag,
    accessibility: { announcements, screenReaderInstructions: { draggable: SCREEN_READER_INSTRUCTIONS } },
  };

  return {
    contextProps,
    /** What is being dragged, for the canvas and the drag chip. */
    activeDrag,
    /** Where a palette item would land (null when none is over the canvas). */
    insertAt,
    isDragging: () => draggingRef.current,
  };
}
