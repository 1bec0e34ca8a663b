import type { EmailBlock } from '@sendwell/contract/campaigns';

/** How many steps Undo can go back. */
export const HISTORY_LIMIT = 100;

/**
 * Undo and redo over the block list: the lists before each change (`past`, oldest first) and the
 * lists undone (`future`, next redo last). `lastKey` names the last change so that a run of the
 * same edit (typing in one field of one block) is one step, not one step per key.
 */
export interface BlockHistory {
  past: EmailBlock[][];
  future: EmailBlock[][];
  lastKey: string | null;
}

export const EMPTY_HISTORY: BlockHistory = { past: [], future: [], lastKey: null };

/**
 * The history after the blocks changed from `before`. `key` groups a run of edits (null: a change
 * of its own, such as adding, moving or removing a block). A change always clears the redo list.
 */
export function recordChange(history: BlockHistory, before: EmailBlock[], key: string | null): BlockHistory {
  if (key !== null && key === history.lastKey && history.future.length === 0) return history;
  return { past: [...history.past, before].slice(-HISTORY_LIMIT), future: [], lastKey: key };
}

/** One step back: the blocks to show and the history after, or null when there is nothing to undo. */
export function undoStep(
  history: BlockHistory,
  current: EmailBlock[],
): { blocks: EmailBlock[]; history: BlockHistory } | null {
  const blocks = history.past.at(-1);
  if (!blocks) return null;
  return {
    blocks,
    history: { past: history.past.slice(0, -1), future: [...history.future, current], lastKey: null },
  };
}

/** One step forward again, or null when there is nothing to redo. */
export function redoStep(
  history: BlockHistory,
  current: EmailBlock[],
): { blocks: EmailBlock[]; history: BlockHistory } | null {
  const blocks = history.future.at(-1);
  if (!blocks) return null;
  return {
    blocks,
    history: { past: [...history.past, current], future: history.future.slice(0, -1), lastKey: null },
  };
}

/** What a key press asks for: Ctrl/Cmd+Z undo, Shift+Ctrl/Cmd+Z or Ctrl+Y redo, else nothing. */
export function historyShortcut(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): 'undo' | 'redo' | null {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return null;
  const key = event.key.toLowerCase();
  if (key === 'z') return event.shiftKey ? 'redo' : 'undo';
  if (key === 'y' && event.ctrlKey && !event.shiftKey) return 'redo';
  return null;
}
