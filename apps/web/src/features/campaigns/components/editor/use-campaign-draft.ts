import * as React from 'react';
import type { CurrentUser } from '@sendwell/contract/auth';
import { applyBrandKit, type BrandKit } from '@sendwell/contract/brand-kit';
import type { BlockCondition, BlockStyles, CampaignDetail, EmailBlock } from '@sendwell/contract/campaigns';

import {
  createBlock,
  createImageBlock,
  insertCopies,
  addToColumn,
  duplicateBlock,
  findBlock,
  insertBlock,
  moveBlock,
  newBlockId,
  removeBlock,
  resetBlockStyles,
  setBlockCondition,
  setColumnCount,
  replaceImageSource,
  springSaleTemplate,
  updateBlockContent,
  updateBlockStyles,
  type BlockType,
  type LeafBlockType,
} from '../../editor/blocks';
import { EMPTY_HISTORY, recordChange, redoStep, undoStep, type BlockHistory } from '../../editor/block-history';
import {
  draftFingerprint,
  initialDraft,
  type CampaignDraft,
  type CampaignStart,
  type ContactSelection,
  type DraftErrors,
} from '../../editor/campaign-form';

/**
 * A new campaign's blocks: the template's (with ids of their own, as every block added in the
 * editor gets) or the spring sale, in the brand kit when the account saved one to apply.
 */
function startingBlocks(start: CampaignStart | undefined, brandKit: BrandKit | undefined): EmailBlock[] {
  const blocks = start
    ? start.blocks.map((block) => ({ ...structuredClone(block), id: newBlockId() }))
    : springSaleTemplate();
  const branded = brandKit && brandKit.updatedAt !== null && brandKit.applyToNew && !start?.html;
  return branded ? applyBrandKit(blocks, brandKit, newBlockId) : blocks;
}

/** Contacts picked on the Contacts page, and whether they are still chosen as recipients. */
export type PendingSelection = ContactSelection & { chosen: boolean };

const NO_ERRORS: DraftErrors = { fields: {}, blocks: {} };

/** The fields on the Settings tab: an error in one of them opens that tab and counts on its badge. */
export const SETTINGS_FIELDS: ReadonlySet<string> = new Set([
  'name',
  'subject',
  'fromName',
  'fromEmail',
  'replyTo',
  'scheduledAt',
  'status',
  'listIds',
  'segmentIds',
]);

export type LeftTab = 'settings' | 'design';

/**
 * The editor's draft: the campaign's fields and blocks, the selected block, the validation errors
 * shown, which left tab is open, and whether anything changed since the last save (a fingerprint
 * of the draft compared with the saved one).
 */
export function useCampaignDraft({
  campaign,
  user,
  initialListIds,
  initialSelection,
  start,
  brandKit,
}: {
  campaign: CampaignDetail | undefined;
  user: CurrentUser;
  initialListIds: number[];
  initialSelection?: ContactSelection;
  /** A new campaign started from a template (or as raw HTML); without one it starts as the spring sale. */
  start?: CampaignStart;
  /** The account's brand kit: a new campaign's blocks start in it when the account saved one to apply. */
  brandKit?: BrandKit;
}) {
  // The draft and the undo history of its blocks live in one state, so a change and its history
  // entry are made by one pure update.
  const [state, setState] = React.useState<{ draft: CampaignDraft; history: BlockHistory }>(() => ({
    draft: initialDraft(campaign, {
      fromEmail: '',
      fromName: user.company || `${user.firstName} ${user.lastName}`.trim(),
      listIds: initialListIds,
      blocks: startingBlocks(start, brandKit),
      subject: start?.subject,
      preheader: start?.preheader,
      rawHtml: start?.html ?? null,
    }),
    history: EMPTY_HISTORY,
  }));
  const { draft, history } = state;
  const setDraft = (update: CampaignDraft | ((current: CampaignDraft) => CampaignDraft)) =>
    setState((current) => ({
      ...current,
      draft: typeof update === 'function' ? update(current.draft) : update,
    }));
  const [selection, setSelection] = React.useState<PendingSelection | null>(() =>
    initialSelection && initialSelection.contactIds.length > 0 ? { ...initialSelection, chosen: true } : null,
  );
  const [savedPrint, setSavedPrint] = React.useState(() => draftFingerprint(draft));
  const [campaignId, setCampaignId] = React.useState<number | null>(campaign?.id ?? null);
  const [selectedId, setSelectedId] = React.useState<string | null>(null);
  const [errors, setErrors] = React.useState<DraftErrors>(NO_ERRORS);
  const [leftTab, setLeftTab] = React.useState<LeftTab>(campaign ? 'design' : 'settings');
  const dirty = draftFingerprint(draft) !== savedPrint;

  const patchDraft = (patch: Partial<CampaignDraft>) => setDraft((current) => ({ ...current, ...patch }));
  /** Changes the blocks, as one undo step (a run of changes with the same `historyKey` is one step). */
  const setBlocks = (update: (blocks: EmailBlock[]) => EmailBlock[], historyKey: string | null = null) =>
    setState((current) => {
      const blocks = update(current.draft.blocks);
      // A change that changes nothing (a drop in place) is no undo step.
      if (blocks === current.draft.blocks || JSON.stringify(blocks) === JSON.stringify(current.draft.blocks))
        return current;
      return {
        draft: { ...current.draft, blocks },
        history: recordChange(current.history, current.draft.blocks, historyKey),
      };
    });
  const travel = (step: typeof undoStep) =>
    setState((current) => {
      const result = step(current.history, current.draft.blocks);
      return result ? { draft: { ...current.draft, blocks: result.blocks }, history: result.history } : current;
    });

  const clearFieldError = (fields: string[]) =>
    setErrors((current) => {
      if (!fields.some((field) => current.fields[field])) return current;
      const next = { ...current.fields };
      for (const field of fields) delete next[field];
      return { ...current, fields: next };
    });
  const clearBlockError = (id: string) =>
    setErrors((current) => {
      if (!current.blocks[id]) return current;
      const next = { ...current.blocks };
      delete next[id];
      return { ...current, blocks: next };
    });

  const selectBlock = (id: string | null) => {
    setSelectedId(id);
    if (id) setLeftTab('design');
  };
  const addBlock = (type: BlockType, index?: number) => {
    const block = createBlock(type);
    setBlocks((blocks) => insertBlock(blocks, block, index));
    selectBlock(block.id);
    clearFieldError(['content']);
  };
  /** A saved block (or several) at `index`, else at the end; the first copy is selected. */
  const addSaved = (saved: readonly EmailBlock[], index?: number) => {
    let firstId: string | null = null;
    setBlocks((blocks) => {
      const result = insertCopies(blocks, saved, index);
      firstId = result.firstId;
      return result.blocks;
    });
    if (firstId) selectBlock(firstId);
    clearFieldError(['content']);
  };
  /** An image block, before the block `beforeId` (where a file was dropped), else at the end. */
  const addImage = (src: string, alt: string, beforeId: string | null = null) => {
    const block = createImageBlock(src, alt);
    setBlocks((blocks) => {
      const at = beforeId === null ? -1 : blocks.findIndex((b) => b.id === beforeId);
      return insertBlock(blocks, block, at < 0 ? blocks.length : at);
    });
    selectBlock(block.id);
  };

  return {
    draft,
    dirty,
    /** The saved campaign's id; null until the first save of a new campaign. */
    campaignId,
    selectedId,
    selectedBlock: findBlock(draft.blocks, selectedId),
    errors,
    leftTab,
    setLeftTab,
    selectBlock,
    addBlock,
    addSaved,
    addImage,
    /** Contacts picked on the Contacts page (no list exists for them until the campaign is saved). */
    selection,
    chooseSelection: (chosen: boolean) => setSelection((current) => current && { ...current, chosen }),
    /** The selection's list was created as `listId`: it becomes an ordinary chosen list. */
    adoptSelectionList: (listId: number) => {
      setSelection(null);
      setDraft((current) => ({ ...current, listIds: [...current.listIds, listId] }));
    },
    /** Changes fields and leaves their errors as they are (the recipient lists and segments). */
    patchDraft,
    /** A Settings field changed: its error goes away. */
    editSettings: (patch: Partial<CampaignDraft>) => {
      patchDraft(patch);
      clearFieldError(Object.keys(patch));
    },
    editBlockContent: (id: string, patch: Record<string, unknown>) => {
      setBlocks((blocks) => updateBlockContent(blocks, id, patch), `content:${id}:${Object.keys(patch).join()}`);
      clearBlockError(id);
      clearFieldError(['content']);
    },
    /** The HTML of a campaign written in its own HTML changed. */
    editRawHtml: (html: string) => {
      patchDraft({ rawHtml: html });
      clearFieldError(['content']);
    },
    editBlockStyles: (id: string, patch: Partial<Record<keyof BlockStyles, unknown>>) =>
      setBlocks((blocks) => updateBlockStyles(blocks, id, patch), `styles:${id}:${Object.keys(patch).join()}`),
    resetBlockStyles: (id: string) => setBlocks((blocks) => resetBlockStyles(blocks, id)),
    /** Who sees the block: a segment or a field rule, or everyone (undefined). */
    editBlockCondition: (id: string, condition: BlockCondition | undefined) =>
      setBlocks((blocks) => setBlockCondition(blocks, id, condition), `condition:${id}`),
    /** A new block at the end of one column of a columns block. */
    addToColumn: (columnsId: string, columnIndex: number, type: LeafBlockType) => {
      const block = createBlock(type);
      setBlocks((blocks) => addToColumn(blocks, columnsId, columnIndex, block));
      selectBlock(block.id);
    },
    setColumnCount: (id: string, count: 2 | 3) => setBlocks((blocks) => setColumnCount(blocks, id, count)),
    /** An uploaded picture replaces an image block's source (and clears the old picture's alt text). */
    setImageSource: (id: string, src: string) => {
      setBlocks((blocks) => replaceImageSource(blocks, id, src));
      clearBlockError(id);
    },
    duplicateBlock: (id: string) => {
      const result = duplicateBlock(draft.blocks, id);
      setBlocks(() => result.blocks);
      if (result.copyId) setSelectedId(result.copyId);
    },
    removeBlock: (id: string) => {
      const result = removeBlock(draft.blocks, id, selectedId);
      setBlocks(() => result.blocks);
      setSelectedId(result.selectedId);
      clearBlockError(id);
    },
    moveBlock: (activeId: string, overId: string) => setBlocks((blocks) => moveBlock(blocks, activeId, overId)),
    /** Undo and redo over the block list (adding, moving, removing and editing blocks). */
    canUndo: history.past.length > 0,
    canRedo: history.future.length > 0,
    undo: () => travel(undoStep),
    redo: () => travel(redoStep),
    /** Shows validation errors where they belong: settings on the Settings tab, a block's in its panel. */
    showErrors: (next: DraftErrors) => {
      setErrors(next);
      const fields = Object.keys(next.fields);
      const firstBlock = Object.keys(next.blocks)[0];
      if (fields.some((field) => SETTINGS_FIELDS.has(field))) {
        setLeftTab('settings');
      } else if (firstBlock) {
        selectBlock(firstBlock);
      }
    },
    clearErrors: () => setErrors(NO_ERRORS),
    /** The draft with this fingerprint is saved as campaign `id`: later edits make it dirty again. */
    markSaved: (id: number, print: string) => {
      setCampaignId(id);
      setSavedPrint(print);
    },
    /**
     * A new campaign gets the default sender once the domains are known; that is not a change the
     * user made, so the saved fingerprint moves with it.
     */
    adoptDefaultSender: (fromEmail: string) => {
      const next = { ...draft, fromEmail };
      setSavedPrint((print) => (print === draftFingerprint(draft) ? draftFingerprint(next) : print));
      setDraft(next);
    },
  };
}

export type CampaignDraftState = ReturnType<typeof useCampaignDraft>;
