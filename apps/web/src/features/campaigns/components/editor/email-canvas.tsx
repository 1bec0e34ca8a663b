import * as React from 'react';
import { useDroppable } from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Copy, GripVertical, ImagePlus, MousePointerClick, Trash2 } from 'lucide-react';
import type { SavedBlock } from '@sendwell/contract/saved-blocks';
import type { EmailBlock } from '@sendwell/contract/campaigns';

import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';
import { describeBlock, type BlockType, type LeafBlockType } from '../../editor/blocks';
import { BlockView } from './block-view';
import { ColumnsView } from './columns-view';

/** The droppable id of the canvas itself (blocks are droppable by their own ids). */
export const CANVAS_ID = 'email-canvas';

/** What a drag carries: a new block from Design Elements, or a block being reordered. */
export type DragData =
  { kind: 'palette'; type: BlockType } | { kind: 'saved'; saved: SavedBlock } | { kind: 'block'; id: string };

/** True when a native drag carries files (as opposed to text or a dnd-kit pointer drag). */
function hasFiles(event: React.DragEvent): boolean {
  return Array.from(event.dataTransfer.types).includes('Files');
}

/**
 * Where a file dragged over the canvas would land: the index of the first block whose middle is
 * below the pointer (the file goes before it), or the end.
 */
function fileDropIndex(canvas: HTMLElement, clientY: number): number {
  const items = Array.from(canvas.querySelectorAll<HTMLElement>('ol[data-email-blocks] > li[data-block-id]'));
  const index = items.findIndex((item) => {
    const rect = item.getBoundingClientRect();
    return clientY < rect.top + rect.height / 2;
  });
  return index < 0 ? items.length : index;
}

/**
 * The drag-and-drop canvas: the blocks in order on a 600 px white page, reordered with
 * @dnd-kit (pointer or keyboard), plus native drops of image files.
 */
export function EmailCanvas({
  blocks,
  selectedId,
  blockErrors,
  insertAt,
  paletteDragging,
  reordering,
  uploadingCount,
  onSelect,
  onDuplicate,
  onDelete,
  onFilesDropped,
  onAddToColumn,
}: {
  blocks: readonly EmailBlock[];
  selectedId: string | null;
  blockErrors: Record<string, string>;
  /** Where a block dragged from Design Elements would land (null when none is over the canvas). */
  insertAt: number | null;
  paletteDragging: boolean;
  /** A block being reordered drops on other blocks only (the keyboard sensor would otherwise aim at the canvas). */
  reordering: boolean;
  uploadingCount: number;
  onSelect: (id: string) => void;
  onDuplicate: (id: string) => void;
  onDelete: (id: string) => void;
  /** Files dropped on the canvas, to go before the block `beforeId` (null: at the end). */
  onFilesDropped: (files: File[], beforeId: string | null) => void;
  onAddToColumn: (columnsId: string, columnIndex: number, type: LeafBlockType) => void;
}) {
  const { setNodeRef } = useDroppable({ id: CANVAS_ID, disabled: reordering });
  // Where dragged files would land (null when no file is over the canvas).
  const [fileInsertAt, setFileInsertAt] = React.useState<number | null>(null);
  const fileOver = fileInsertAt !== null;
  const lineAt = fileInsertAt ?? (paletteDragging ? insertAt : null);
  const empty = blocks.length === 0;

  return (
    <div
      className="flex min-h-full flex-col"
      onDragOver={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        const index = fileDropIndex(event.currentTarget, event.clientY);
        setFileInsertAt((current) => (current === index ? current : index));
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFileInsertAt(null);
      }}
      onDrop={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        setFileInsertAt(null);
        const before = blocks[fileDropIndex(event.currentTarget, event.clientY)];
        onFilesDropped(Array.from(event.dataTransfer.files), before?.id ?? null);
      }}
      data-testid="email-canvas"
    >
      <div
        ref={setNodeRef}
        className={cn(
          'relative mx-auto w-full max-w-[600px] flex-1 rounded-md bg-white text-zinc-900 shadow-sm ring-1 ring-zinc-200 transition-shadow',
          (fileOver || (paletteDragging && insertAt !== null)) && 'ring-2 ring-blue-500',
          empty && 'flex flex-col',
        )}
      >
        <SortableContext items={blocks.map((block) => block.id)} strategy={verticalListSortingStrategy}>
          <ol aria-label="Email blocks" className="py-2" data-email-blocks>
            {blocks.map((block, index) => (
              <SortableBlock
                key={block.id}
                block={block}
                position={index + 1}
                total={blocks.length}
                selected={block.id === selectedId}
                error={blockErrors[block.id]}
                lineBefore={lineAt === index}
                lineAfter={lineAt === blocks.length && index === blocks.length - 1}
                selectedId={selectedId}
                onSelect={onSelect}
                onDuplicate={onDuplicate}
                onDelete={onDelete}
                onAddToColumn={onAddToColumn}
              />
            ))}
          </ol>
        </SortableContext>
        {empty && (
          <div
            className={cn(
              'm-4 flex flex-1 flex-col items-center justify-center gap-3 rounded-lg border-2 border-dashed border-zinc-300 p-8 text-center',
              (fileOver || insertAt !== null) && 'border-blue-500 bg-blue-50',
            )}
          >
            <span className="flex size-12 items-center justify-center rounded-full bg-zinc-100 text-zinc-600">
              <MousePointerClick className="size-6" aria-hidden="true" />
            </span>
            <p className="font-medium text-zinc-800">Drag elements here to build your email</p>
            <p className="flex items-center gap-1.5 text-sm text-zinc-600">
              <ImagePlus className="size-4" aria-hidden="true" />
              Or drop image files directly
            </p>
          </div>
        )}
        {fileOver && !empty && (
          <div className="pointer-events-none absolute inset-x-0 -top-3 z-30 flex justify-center">
            <p className="flex items-center gap-2 rounded-md bg-white px-4 py-2 text-sm font-medium text-blue-800 shadow ring-1 ring-blue-200">
              <ImagePlus className="size-4" aria-hidden="true" />
              Drop images where the blue line is
            </p>
          </div>
        )}
        {uploadingCount > 0 && (
          <div className="absolute right-3 bottom-3 flex items-center gap-2 rounded-md bg-zinc-900 px-3 py-1.5 text-xs text-white shadow">
            <Spinner className="size-3.5" label="Uploading" />
            Uploading {uploadingCount} {uploadingCount === 1 ? 'image' : 'images'}…
          </div>
        )}
      </div>
    </div>
  );
}

function SortableBlock({
  block,
  position,
  total,
  selected,
  error,
  lineBefore,
  lineAfter,
  selectedId,
  onSelect,
  onDuplicate,
  onDelete,
  onAddToColumn,
}: {
  block: EmailBlock;
  position: number;
  total: number;
  selected: boolean;
  error: string | undefined;
  lineBefore: boolean;
  lineAfter: boolean;
  selectedId: string | null;
  onSelect: (id: string) => void;
  onDuplicate: (id: string) => void;
  onDelete: (id: string) => void;
  onAddToColumn: (columnsId: string, columnIndex: number, type: LeafBlockType) => void;
}) {
  const data: DragData = { kind: 'block', id: block.id };
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: block.id,
    data,
  });
  const label = describeBlock(block);

  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={cn('group/block relative flex flex-col', isDragging && 'z-10 opacity-40')}
      data-block-id={block.id}
      data-block-type={block.type}
    >
      {lineBefore && <InsertLine className="-top-px" />}
      {/*
        The selected block's toolbar sits in a strip of its own above the block, so it never covers the
        first line (first-hour finding 6); on other blocks it floats in the corner on hover or focus.
      */}
      <div
        className={cn(
          'flex gap-0.5 rounded-md border border-zinc-200 bg-white p-0.5 text-zinc-700 shadow-sm transition-opacity',
          selected
            ? 'mx-1.5 my-1 self-end'
            : 'absolute top-1.5 right-1.5 z-10 opacity-0 group-focus-within/block:opacity-100 group-hover/block:opacity-100',
        )}
        data-block-toolbar
      >
        <button
          type="button"
          ref={setActivatorNodeRef}
          {...attributes}
          {...listeners}
          aria-label={`Move ${label}`}
          className="flex size-7 cursor-grab touch-none items-center justify-center rounded hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 active:cursor-grabbing"
        >
          <GripVertical className="size-4" aria-hidden="true" />
        </button>
        <button
          type="button"
          onClick={() => onDuplicate(block.id)}
          aria-label={`Duplicate ${label}`}
          className="flex size-7 items-center justify-center rounded hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          <Copy className="size-4" aria-hidden="true" />
        </button>
        <button
          type="button"
          onClick={() => onDelete(block.id)}
          aria-label={`Delete ${label}`}
          className="flex size-7 items-center justify-center rounded text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          <Trash2 className="size-4" aria-hidden="true" />
        </button>
      </div>
      {block.type === 'columns' ? (
        <ColumnsView
          block={block}
          label={`${label}, block ${position} of ${total}`}
          selected={selected}
          selectedId={selectedId}
          onSelect={onSelect}
          onDelete={onDelete}
          onAddToColumn={onAddToColumn}
        />
      ) : (
        <button
          type="button"
          onClick={() => onSelect(block.id)}
          aria-pressed={selected}
          aria-label={`Edit ${label}, block ${position} of ${total}`}
          className={cn(
            'block w-full cursor-pointer text-left outline-offset-[-2px] transition-[outline-color]',
            'hover:outline-2 hover:outline-blue-300 hover:outline-dashed focus-visible:outline-2 focus-visible:outline-blue-600',
            selected && 'outline-2 outline-blue-600 outline-solid hover:outline-solid hover:outline-blue-600',
            error && 'outline-2 outline-red-600 outline-solid',
          )}
        >
          <BlockView block={block} />
        </button>
      )}
      {block.condition && (
        // Who gets a conditional block, said on the canvas too (its full rule is in Edit Component).
        <span className="pointer-events-none absolute top-1 left-1 rounded bg-violet-700 px-1.5 py-0.5 text-[11px] font-medium text-white">
          {block.condition.kind === 'segment'
            ? block.condition.match === 'in'
              ? 'Segment only'
              : 'Not for a segment'
            : 'Field rule'}
        </span>
      )}
      {error && (
        <p className="px-4 pb-2 text-xs font-medium text-red-700" role="note">
          {error}
        </p>
      )}
      {lineAfter && <InsertLine className="-bottom-px" />}
    </li>
  );
}

function InsertLine({ className }: { className: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn('pointer-events-none absolute right-2 left-2 z-20 h-1 rounded-full bg-blue-600', className)}
    >
      <span className="absolute top-1/2 -left-1 size-2.5 -translate-y-1/2 rounded-full bg-blue-600" />
    </span>
  );
}
