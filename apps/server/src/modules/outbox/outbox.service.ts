import type { OutboxItem, OutboxMessage } from '@sendwell/contract/outbox';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { withoutTracking } from '../tracking/index.ts';
import * as repo from './outbox.repo.ts';

const MESSAGE_NOT_FOUND = 'Message not found';

function toItem(row: repo.OutboxRowWithSender): OutboxItem {
  return {
    id: row.id,
    campaignId: row.campaignId,
    campaignName: row.campaignName,
    // A deleted sequence leaves neither its name nor its step.
    sequenceId: row.sequenceName === null ? null : row.sequenceId,
    sequenceName: row.sequenceName,
    sequenceStep: row.sequenceName === null ? null : row.sequenceStep,
    messageId: row.messageId,
    from: row.fromAddress,
    to: row.toAddress,
    subject: row.subject,
    isTest: row.isTest === 1,
    createdAt: row.createdAt.toISOString(),
  };
}

/** One page of the user's stored messages and the total matching the search. */
export async function listOutbox(
  db: DbOrTx,
  userId: string,
  query: { search?: string; page: number; pageSize: number },
): Promise<{ messages: OutboxItem[]; total: number }> {
  const { rows, total } = await repo.listOutboxMessages(db, userId, {
    search: query.search || undefined,
    offset: (query.page - 1) * query.pageSize,
    limit: query.pageSize,
  });
  return { messages: rows.map(toItem), total };
}

/** RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`) as the text they stand for. */
function decodeEncodedWords(value: string): string {
  return value
    .replace(/(=\?[^?\s]+\?[BbQq]\?[^?\s]*\?=)\s+(?==\?)/g, '$1') // space between encoded words is not text
    .replace(/=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g, (word, charset: string, encoding: string, text: string) => {
      try {
        const bytes =
          encoding.toUpperCase() === 'B'
            ? Buffer.from(text, 'base64')
            : Buffer.from(
                text
                  .replace(/_/g, ' ')
                  .replace(/=([0-9A-Fa-f]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))),
                'latin1',
              );
        return new TextDecoder(charset.toLowerCase()).decode(bytes);
      } catch {
        return word;
      }
    });
}

/**
 * The header block as a person reads it: folded lines joined and encoded words decoded (the Source
 * tab keeps the bytes as sent).
 */
export function readableHeaders(block: string): string {
  return block
    .replace(/\r?\n[ \t]+/g, ' ')
    .split(/\r?\n/)
    .map(decodeEncodedWords)
    .join('\n');
}

/** One of the user's stored messages with its parts for viewing; 404 for a missing or foreign id. */
export async function getOutboxMessage(db: DbOrTx, secret: string, userId: string, id: number): Promise<OutboxMessage> {
  const row = await repo.findOutboxMessage(db, userId, id);
  if (!row) throw new AppError('not_found', MESSAGE_NOT_FOUND);
  // Loaded at the first message viewed, not at start.
  const { simpleParser } = await import('mailparser');
  const parsed = await simpleParser(row.raw, { skipImageLinks: true });
  const headerEnd = row.raw.search(/\r?\n\r?\n/);
  return {
    ...toItem(row),
    html: typeof parsed.html === 'string' ? await withoutTracking(db, secret, parsed.html, row.campaignId) : null,
    text: parsed.text ?? null,
    headers: readableHeaders(headerEnd > 0 ? row.raw.slice(0, headerEnd) : row.raw),
    raw: row.raw,
  };
}

/** Stores a message the built-in catcher received: the Outbox shows it. */
export const storeCaughtMessage = (db: DbOrTx, message: Parameters<typeof repo.insertOutboxMessage>[1]) =>
  repo.insertOutboxMessage(db, message);
