import {
  allBlocks,
  blockMergeTexts,
  unknownMergeTagMessage,
  unknownMergeTags,
  type EmailBlock,
} from '@sendwell/contract/campaigns';
import { SAVED_BLOCKS_MAX, type SavedBlock } from '@sendwell/contract/saved-blocks';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { RAW_HTML_PLACEHOLDERS } from '../rendering/index.ts';
import * as repo from './saved-blocks.repo.ts';

const NOT_FOUND = 'Saved block not found';

function toSavedBlock(row: repo.SavedBlockRow): SavedBlock {
  return {
    id: row.id,
    name: row.name,
    blocks: row.blocks,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function savedBlocksOf(db: Db, userId: string): Promise<SavedBlock[]> {
  return (await repo.listSavedBlocks(db, userId)).map(toSavedBlock);
}

/** Saves blocks under a name; their merge tags must be ones a campaign's save accepts. */
export async function createSavedBlock(
  db: Db,
  userId: string,
  body: { name: string; blocks: EmailBlock[] },
): Promise<SavedBlock> {
  const unknown = [
    ...new Set(
      allBlocks(body.blocks)
        .flatMap(blockMergeTexts)
        .flatMap(unknownMergeTags)
        .filter((tag) => !(RAW_HTML_PLACEHOLDERS as readonly string[]).includes(tag)),
    ),
  ];
  if (unknown.length > 0) {
    const message = unknownMergeTagMessage(unknown);
    throw new AppError('bad_request', message, { blocks: message });
  }
  if ((await repo.countSavedBlocks(db, userId)) >= SAVED_BLOCKS_MAX) {
    throw new AppError(
      'conflict',
      `You can keep at most ${SAVED_BLOCKS_MAX} saved blocks. Delete one you no longer use.`,
    );
  }
  return toSavedBlock(await repo.insertSavedBlock(db, { userId, name: body.name, blocks: body.blocks }));
}

export async function renameSavedBlock(db: Db, userId: string, id: number, name: string): Promise<SavedBlock> {
  const row = await repo.renameSavedBlock(db, userId, id, name);
  if (!row) throw new AppError('not_found', NOT_FOUND);
  return toSavedBlock(row);
}

export async function deleteSavedBlock(db: Db, userId: string, id: number): Promise<void> {
  if (!(await repo.deleteSavedBlock(db, userId, id))) throw new AppError('not_found', NOT_FOUND);
}
