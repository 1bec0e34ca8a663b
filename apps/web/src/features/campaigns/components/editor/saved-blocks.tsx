import * as React from 'react';
import { useDraggable } from '@dnd-kit/core';
import { Bookmark, BookmarkPlus, MoreHorizontal, Pencil, Trash2 } from 'lucide-react';
import type { EmailBlock } from '@sendwell/contract/campaigns';
import { renameSavedBlockBodySchema, type SavedBlock } from '@sendwell/contract/saved-blocks';

import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Skeleton } from '@/components/ui/skeleton';
import { getApiErrorFields } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { cn } from '@/lib/utils';
import {
  useCreateSavedBlock,
  useDeleteSavedBlock,
  useRenameSavedBlock,
  useSavedBlocks,
} from '../../api/use-saved-blocks';
import { describeBlock } from '../../editor/blocks';
import { TemplateNameDialog } from '../template-name-dialog';
import type { DragData } from './email-canvas';

/**
 * Saved blocks in the palette: each is dragged onto the email like a Design Element, or clicked
 * (Enter/Space) to add it at the end; its menu renames or deletes it.
 */
export function SavedBlocks({ onAdd }: { onAdd: (blocks: EmailBlock[]) => void }) {
  const saved = useSavedBlocks();
  const rename = useRenameSavedBlock();
  const remove = useDeleteSavedBlock();
  const [renaming, setRenaming] = React.useState<SavedBlock | null>(null);
  const [deleting, setDeleting] = React.useState<SavedBlock | null>(null);

  return (
    <section aria-labelledby="saved-blocks-heading" className="space-y-3">
      <div>
        <h3 id="saved-blocks-heading" className="text-sm font-semibold">
          Saved blocks
        </h3>
        <p className="text-muted-foreground text-xs">Blocks you saved to reuse. Drag or click to add.</p>
      </div>
      {saved.isPending ? (
        <Skeleton className="h-10 w-full" />
      ) : saved.isError ? (
        <p className="text-destructive text-xs" role="alert">
          Your saved blocks could not be loaded.
        </p>
      ) : saved.data.length === 0 ? (
        <p className="text-muted-foreground rounded-md border border-dashed p-3 text-xs">
          None yet: select a block on the email and choose Save block.
        </p>
      ) : (
        <ul className="space-y-2" aria-label="Saved blocks">
          {saved.data.map((block) => (
            <li key={block.id} className="flex items-center gap-1">
              <SavedBlockItem block={block} onAdd={onAdd} />
              <DropdownMenu>
                <DropdownMenuTrigger asChild>
                  <Button variant="ghost" size="icon" className="size-8 shrink-0" aria-label={`More for ${block.name}`}>
                    <MoreHorizontal aria-hidden="true" />
                  </Button>
                </DropdownMenuTrigger>
                <DropdownMenuContent align="end">
                  <DropdownMenuItem onSelect={() => setRenaming(block)}>
                    <Pencil aria-hidden="true" />
                    Rename
                  </DropdownMenuItem>
                  <DropdownMenuItem variant="destructive" onSelect={() => setDeleting(block)}>
                    <Trash2 aria-hidden="true" />
                    Delete
                  </DropdownMenuItem>
                </DropdownMenuContent>
              </DropdownMenu>
            </li>
          ))}
        </ul>
      )}
      <TemplateNameDialog
        open={renaming !== null}
        onOpenChange={(open) => !open && setRenaming(null)}
        title="Rename saved block"
        description="The new name shows in Saved blocks."
        submitLabel="Rename"
        label="Block name"
        nameSchema={renameSavedBlockBodySchema}
        initialName={renaming?.name ?? ''}
        pending={rename.isPending}
        onSubmit={async (name) => {
          if (!renaming) return null;
          try {
            await rename.mutateAsync({ id: renaming.id, name });
            setRenaming(null);
            return null;
          } catch (error) {
            const fields = getApiErrorFields(error);
            if (fields.name) return fields.name;
            toastError(error, 'Could not rename the block. Please try again.', { serverMessage: 'client-error' });
            return null;
          }
        }}
      />
      <AlertDialog open={deleting !== null} onOpenChange={(next) => !next && !remove.isPending && setDeleting(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete “{deleting?.name}”?</AlertDialogTitle>
            <AlertDialogDescription>
              It leaves Saved blocks. Campaigns that already use it keep their copy.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={remove.isPending}>Cancel</AlertDialogCancel>
            <Button
              variant="destructive"
              disabled={remove.isPending}
              onClick={() =>
                deleting &&
                remove.mutate(deleting.id, {
                  onSuccess: () => setDeleting(null),
                  onError: (error) =>
                    toastError(error, 'Could not delete the block. Please try again.', {
                      serverMessage: 'client-error',
                    }),
                })
              }
            >
              Delete
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </section>
  );
}

function SavedBlockItem({ block, onAdd }: { block: SavedBlock; onAdd: (blocks: EmailBlock[]) => void }) {
  const data: DragData = { kind: 'saved', saved: block };
  const { setNodeRef, listeners, isDragging } = useDraggable({ id: `saved-${block.id}`, data });
  const first = block.blocks[0];
  const detail = block.blocks.length > 1 ? `${block.blocks.length} blocks` : first ? describeBlock(first) : '';
  return (
    <button
      type="button"
      ref={setNodeRef}
      // Pointer dragging only: the keyboard activates the button instead (adds the block at the end).
      onPointerDown={(event) => (listeners?.onPointerDown as React.PointerEventHandler | undefined)?.(event)}
      onClick={() => onAdd(block.blocks)}
      className={cn(
        'bg-background hover:border-primary/40 hover:bg-accent focus-visible:ring-ring/50 flex min-w-0 flex-1 cursor-grab touch-none items-center gap-2 rounded-md border px-3 py-2 text-left text-sm font-medium shadow-xs transition-colors outline-none focus-visible:ring-[3px] active:cursor-grabbing',
        isDragging && 'opacity-50',
      )}
      data-saved-block={block.name}
    >
      <Bookmark className="text-muted-foreground size-4 shrink-0" aria-hidden="true" />
      <span className="sr-only">Add saved block </span>
      <span className="min-w-0 flex-1">
        <span className="block truncate">{block.name}</span>
        <span className="text-muted-foreground block truncate text-xs font-normal">{detail}</span>
      </span>
    </button>
  );
}

/** Save block: the selected block (a columns block with what it holds) kept under a name for Saved blocks. */
export function SaveBlockButton({ block }: { block: EmailBlock }) {
  const [open, setOpen] = React.useState(false);
  const create = useCreateSavedBlock();
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        <BookmarkPlus aria-hidden="true" />
        Save block
      </Button>
      <TemplateNameDialog
        open={open}
        onOpenChange={setOpen}
        title="Save block"
        description="Keep this block to reuse in any campaign: it appears under Saved blocks."
        submitLabel="Save block"
        label="Block name"
        nameSchema={renameSavedBlockBodySchema}
        initialName={describeBlock(block).slice(0, 120)}
        pending={create.isPending}
        onSubmit={async (name) => {
          try {
            await create.mutateAsync({ name, blocks: [block] });
            setOpen(false);
            toast({ title: 'Block saved', description: `“${name}” is in Saved blocks.` });
            return null;
          } catch (error) {
            const fields = getApiErrorFields(error);
            if (fields.name) return fields.name;
            toastError(error, 'Could not save the block. Please try again.', { serverMessage: 'client-error' });
            return null;
          }
        }}
      />
    </>
  );
}
