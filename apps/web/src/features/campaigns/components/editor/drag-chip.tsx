import { Bookmark } from 'lucide-react';
import type { EmailBlock } from '@sendwell/contract/campaigns';

import { BLOCK_TYPE_LABELS, describeBlock } from '../../editor/blocks';
import { BLOCK_ICONS } from './design-elements';
import type { DragData } from './email-canvas';

/** What follows the pointer while dragging: the element's icon and name. */
export function DragChip({ data, blocks }: { data: DragData; blocks: readonly EmailBlock[] }) {
  const block = data.kind === 'block' ? blocks.find((b) => b.id === data.id) : undefined;
  const type = data.kind === 'palette' ? data.type : data.kind === 'saved' ? null : (block?.type ?? 'text');
  const Icon = type ? BLOCK_ICONS[type] : Bookmark;
  const label =
    data.kind === 'saved' ? data.saved.name : block ? describeBlock(block) : BLOCK_TYPE_LABELS[type ?? 'text'];
  return (
    <div
      aria-hidden="true"
      className="bg-background text-foreground flex w-max max-w-72 items-center gap-2 rounded-md border px-3 py-2 text-sm font-medium shadow-lg"
    >
      <Icon className="text-muted-foreground size-4 shrink-0" />
      <span className="truncate">{label}</span>
    </div>
  );
}
