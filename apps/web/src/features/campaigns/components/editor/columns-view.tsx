import { Columns2, Columns3, Plus, Trash2 } from 'lucide-react';

import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { cn } from '@/lib/utils';
import {
  BLOCK_TYPE_LABELS,
  describeBlock,
  LEAF_BLOCK_TYPES,
  type BlockOf,
  type LeafBlockType,
} from '../../editor/blocks';
import { BlockView } from './block-view';

/**
 * A columns block on the canvas: its columns side by side (they stack on phones in the mail), each
 * of its blocks selectable on its own, and a menu under each column to add a block to it.
 */
export function ColumnsView({
  block,
  label,
  selected,
  selectedId,
  onSelect,
  onDelete,
  onAddToColumn,
}: {
  block: BlockOf<'columns'>;
  /** The block's description and place, for the button that selects the whole columns block. */
  label: string;
  selected: boolean;
  selectedId: string | null;
  onSelect: (id: string) => void;
  onDelete: (id: string) => void;
  onAddToColumn: (columnsId: string, columnIndex: number, type: LeafBlockType) => void;
}) {
  const columns = block.content.columns;
  const Icon = columns.length === 3 ? Columns3 : Columns2;
  return (
    <div
      className={cn(
        'px-2 pb-2 outline-offset-[-2px]',
        selected
          ? 'outline-2 outline-blue-600 outline-solid'
          : 'hover:outline-2 hover:outline-blue-300 hover:outline-dashed',
      )}
      style={{ backgroundColor: block.styles.backgroundColor, paddingTop: block.styles.padding }}
    >
      {/* As tall as the block toolbar that floats in its corner, so the toolbar never covers a column. */}
      <div className="flex h-11 items-center">
        <button
          type="button"
          onClick={() => onSelect(block.id)}
          aria-pressed={selected}
          aria-label={`Edit ${label}`}
          className="flex items-center gap-1.5 rounded px-2 py-1 text-xs font-medium text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          <Icon className="size-3.5" aria-hidden="true" />
          {columns.length} columns
        </button>
      </div>
      <div className={cn('grid gap-2', columns.length === 3 ? 'grid-cols-3' : 'grid-cols-2')}>
        {columns.map((column, index) => (
          <div
            key={index}
            role="group"
            aria-label={`Column ${index + 1}`}
            className="flex min-w-0 flex-col rounded border border-dashed border-zinc-300"
          >
            {column.blocks.map((inner) => {
              const innerSelected = inner.id === selectedId;
              const innerLabel = describeBlock(inner);
              return (
                <div key={inner.id} className="flex flex-col" data-block-id={inner.id} data-block-type={inner.type}>
                  {/* In a strip of its own above the chosen block, so it never covers its first line. */}
                  {innerSelected && (
                    <button
                      type="button"
                      onClick={() => onDelete(inner.id)}
                      aria-label={`Delete ${innerLabel}`}
                      className="m-1 flex size-7 items-center justify-center self-end rounded border border-zinc-200 bg-white text-red-700 shadow-sm hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-blue-600"
                    >
                      <Trash2 className="size-4" aria-hidden="true" />
                    </button>
                  )}
                  <button
                    type="button"
                    onClick={() => onSelect(inner.id)}
                    aria-pressed={innerSelected}
                    aria-label={`Edit ${innerLabel}, in column ${index + 1}`}
                    className={cn(
                      'block w-full cursor-pointer text-left outline-offset-[-2px]',
                      'hover:outline-2 hover:outline-blue-300 hover:outline-dashed focus-visible:outline-2 focus-visible:outline-blue-600',
                      innerSelected && 'outline-2 outline-blue-600 outline-solid hover:outline-solid',
                    )}
                  >
                    <BlockView block={inner} />
                  </button>
                </div>
              );
            })}
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button
                  variant="ghost"
                  size="sm"
                  className="m-1 mt-auto h-7 text-xs text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900"
                  aria-label={`Add a block to column ${index + 1}`}
                >
                  <Plus aria-hidden="true" />
                  Add
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="start">
                <DropdownMenuLabel className="text-muted-foreground text-xs font-normal">
                  Add to column {index + 1}
                </DropdownMenuLabel>
                {LEAF_BLOCK_TYPES.map((type) => (
                  <DropdownMenuItem key={type} onSelect={() => onAddToColumn(block.id, index, type)}>
                    {BLOCK_TYPE_LABELS[type]}
                  </DropdownMenuItem>
                ))}
              </DropdownMenuContent>
            </DropdownMenu>
          </div>
        ))}
      </div>
    </div>
  );
}
