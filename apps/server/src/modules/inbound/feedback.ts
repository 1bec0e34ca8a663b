import { simpleParser, type ParsedMail, type MailParserOptions } from 'mailparser';
import { AppError } from '../../lib/app-error.ts';

/** What an inbound report says about a message we sent. */
export type Feedback =
  | {
      kind: 'bounce';
      hard: boolean;
      recipient: string | null;
      originalMessageId: string | null;
      status: string | null;
      diagnostic: string | null;
    }
  | { kind: 'complaint'; recipient: string | null; originalMessageId: string | null; feedbackType: string }
  | { kind: 'other' };

/** A report's field, unfolded; NUL characters (which Postgres text cannot store) are dropped. */
function field(text: string, name: string): string | null {
  const match = new RegExp(`^${name}:\\s*(.+(?:\\r?\\n[ \\t].+)*)`, 'im').exec(text);
  return (
    match?.[1]
      ?.replace(/\r?\n[ \t]+/g, ' ')
      .replaceAll('\u0000', '')
      .trim() ?? null
  );
}

function addressOf(value: string | null): string | null {
  if (!value) return null;
  const address = value.includes(';') ? value.split(';').pop() : value;
  return address?.trim().replace(/^<|>$/g, '').toLowerCase() || null;
}

/** mailparser's limits (mailsplit's defaults, set here so the answers can name them). */
export const MAX_MIME_PARTS = 1000;
export const MAX_MIME_HEADER_BYTES = 1024 * 1024;

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
async function parseMime(raw: Buffer): Promise<ParsedMail> {
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

/**
 * Reads a DSN bounce (multipart/report; report-type=delivery-status, RFC 3464) or an ARF complaint
 * (report-type=feedback-report, RFC 5965), with the Message-ID of the original message it is about.
 */
export async function parseFeedback(raw: Buffer): Promise<Feedback> {
  const parsed = await parseMime(raw);
  const parts = parsed.attachments.map((a) => ({
    type: a.contentType.toLowerCase(),
    text: a.content.toString('utf8'),
  }));
  const original = parts.find(
    (p) => p.type === 'message/rfc822' || p.type === 'text/rfc822-headers' || p.type === 'message/rfc822-headers',
  );
  const quotedMessageId = original ? (/^Message-ID:\s*(<[^>]+>)/im.exec(original.text)?.[1] ?? null) : null;
  // A Message-ID holding a NUL character is none of ours (and Postgres could not look it up).
  const originalMessageId = quotedMessageId?.includes('\u0000') ? null : quotedMessageId;

  // mailparser folds message/delivery-status and message/feedback-report parts into the text body,
  // so the report's fields are read from the attachment when present, else from the text.
  const contentType = parsed.headers.get('content-type') as
    { value?: string; params?: Record<string, string> } | undefined;
  const reportType =
    contentType?.value === 'multipart/report' ? contentType.params?.['report-type']?.toLowerCase() : undefined;
  const reportText = (type: string) => parts.find((p) => p.type === type)?.text ?? parsed.text ?? '';

  const report =
    reportType === 'feedback-report' || parts.some((p) => p.type === 'message/feedback-report')
      ? { text: reportText('message/feedback-report') }
      : undefined;
  if (report) {
    return {
      kind: 'complaint',
      feedbackType: field(report.text, 'Feedback-Type')?.toLowerCase() ?? 'abuse',
      recipient: addressOf(field(report.text, 'Original-Rcpt-To')),
      originalMessageId,
    };
  }
  const status =
    reportType === 'delivery-status' || parts.some((p) => p.type === 'message/delivery-status')
      ? { text: reportText('message/delivery-status') }
      : undefined;
  if (status) {
    const code = field(status.text, 'Status');
    const action = field(status.text, 'Action')?.toLowerCase() ?? '';
    return {
      kind: 'bounce',
      hard: action === 'failed' && Boolean(code?.startsWith('5')),
      recipient: addressOf(field(status.text, 'Final-Recipient') ?? field(status.text, 'Original-Recipient')),
      originalMessageId,
      status: code,
      diagnostic: field(status.text, 'Diagnostic-Code'),
    };
  }
  return { kind: 'other' };
}
