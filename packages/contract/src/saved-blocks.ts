import { z } from 'zod';
import { emailBlockSchema } from './campaigns.ts';

const savedBlockName = z
  .string({ error: 'Block name is required' })
  .trim()
  .min(1, 'Block name is required')
  .max(120, 'Block name must be at most 120 characters');

/** How many saved blocks one account may keep; each holds up to 20 blocks. */
export const SAVED_BLOCKS_MAX = 100;

/**
 * POST /api/saved-blocks (issue 30 part 5): a block from a campaign's canvas (a columns block with
 * what it holds, or several blocks) saved under a name, listed in the editor's palette.
 */
export const createSavedBlockBodySchema = z.object({
  name: savedBlockName,
  blocks: z
    .array(emailBlockSchema, { error: 'Send the blocks to save' })
    .min(1, 'Choose a block to save')
    .max(20, 'Save at most 20 blocks at once'),
});
export type CreateSavedBlockBody = z.input<typeof createSavedBlockBodySchema>;

/** PATCH /api/saved-blocks/:id: rename. */
export const renameSavedBlockBodySchema = z.object({ name: savedBlockName });
export type RenameSavedBlockBody = z.input<typeof renameSavedBlockBodySchema>;

export const savedBlockSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  blocks: z.array(emailBlockSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SavedBlock = z.infer<typeof savedBlockSchema>;
export const savedBlockListSchema = z.array(savedBlockSchema);
