import { describe, expect, it } from 'vitest';
import type { EmailBlock } from '@sendwell/contract/campaigns';

import { EMPTY_HISTORY, HISTORY_LIMIT, historyShortcut, recordChange, redoStep, undoStep } from './block-history';

const divider = (id: string): EmailBlock => ({ id, type: 'divider', content: {}, styles: {} });
const a = [divider('a')];
const ab = [divider('a'), divider('b')];
const abc = [divider('a'), divider('b'), divider('c')];

describe('block history', () => {
  it('undoes and redoes changes in order', () => {
    let h = recordChange(EMPTY_HISTORY, a, null); // a → ab
    h = recordChange(h, ab, null); // ab → abc
    const u1 = undoStep(h, abc);
    expect(u1?.blocks).toBe(ab);
    const u2 = undoStep(u1!.history, u1!.blocks);
    expect(u2?.blocks).toBe(a);
    expect(undoStep(u2!.history, u2!.blocks)).toBeNull();
    const r1 = redoStep(u2!.history, u2!.blocks);
    expect(r1?.blocks).toBe(ab);
    const r2 = redoStep(r1!.history, r1!.blocks);
    expect(r2?.blocks).toBe(abc);
    expect(redoStep(r2!.history, r2!.blocks)).toBeNull();
  });

  it('makes a run of edits with the same key one step', () => {
    let h = recordChange(EMPTY_HISTORY, a, 'content:a:text');
    h = recordChange(h, ab, 'content:a:text');
    h = recordChange(h, abc, 'content:a:text');
    expect(h.past).toEqual([a]);
    h = recordChange(h, abc, 'style:a:color');
    expect(h.past).toHaveLength(2);
  });

  it('clears the redo list on a new change, and does not merge across an undo', () => {
    let h = recordChange(EMPTY_HISTORY, a, 'content:a:text');
    const undone = undoStep(h, ab)!;
    expect(undone.history.future).toHaveLength(1);
    h = recordChange(undone.history, a, 'content:a:text');
    expect(h.future).toEqual([]);
    expect(h.past).toEqual([a]);
  });

  it('keeps at most HISTORY_LIMIT steps', () => {
    let h = EMPTY_HISTORY;
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) h = recordChange(h, [divider(String(i))], null);
    expect(h.past).toHaveLength(HISTORY_LIMIT);
    expect(h.past[0]?.[0]?.id).toBe('5');
  });

  it('reads the keyboard shortcuts', () => {
    const key = (
      k: string,
      mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }>,
    ) => historyShortcut({ key: k, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });
    expect(key('z', { ctrlKey: true })).toBe('undo');
    expect(key('z', { metaKey: true })).toBe('undo');
    expect(key('Z', { ctrlKey: true, shiftKey: true })).toBe('redo');
    expect(key('z', { metaKey: true, shiftKey: true })).toBe('redo');
    expect(key('y', { ctrlKey: true })).toBe('redo');
    expect(key('z', {})).toBeNull();
    expect(key('z', { ctrlKey: true, altKey: true })).toBeNull();
    expect(key('s', { ctrlKey: true })).toBeNull();
  });
});
