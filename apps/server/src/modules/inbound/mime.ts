import type { ParsedMail, MailParserOptions } from 'mailparser';
import { AppError } from '../../lib/app-error.ts';

/** mailparser's limits (mailsplit's defaults, set here so the answers can name them). */
const MAX_MIME_PARTS = 1000;
const MAX_MIME_HEADER_BYTES = 1024 * 1024;

/** mailparser hands its options to mailsplit, whose limits its types leave out. */
const PARSER_OPTIONS: MailParserOptions & { maxChildNodes: number; maxHeadSize: number } = {
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipImageLinks: true,
  maxChildNodes: MAX_MIME_PARTS,
  maxHeadSize: MAX_MIME_HEADER_BYTES,
};

/**
 * Parses a raw message. What mailparser refuses is the sender's problem, not ours: more parts (or
 * deeper nesting) or a bigger header block than it reads answers 413, anything else it cannot read 400.
 */
export async function parseMime(raw: Buffer): Promise<ParsedMail> {
  // Loaded at the first message, not at start.
  const { simpleParser } = await import('mailparser');
  try {
    return await simpleParser(raw, PARSER_OPTIONS);
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (code === 'EMAXLEN' && typeof message === 'string' && message.includes('child nodes'))
      throw new AppError('too_large', `The message has more than ${MAX_MIME_PARTS} MIME parts`);
    if (code === 'EMAXLEN')
      throw new AppError(
        'too_large',
        `A header block of the message is larger than ${MAX_MIME_HEADER_BYTES / 1024 / 1024} MB`,
      );
    throw new AppError('bad_request', 'The message could not be read as MIME');
  }
}
