import type { Transport } from '../../lib/mail-transport.ts';
import { signDkim } from './message.ts';
import type { DkimKey } from './transactional.ts';

/**
 * Sending a message that already exists as raw bytes (a forwarded message, a relayed bounce):
 * headers can be added in front or replaced, the body is never touched, and it goes out DKIM-signed
 * through the same transport as campaigns (so the Outbox shows it when no relay is set).
 */

/** One header field as it stands in a message: its name and its whole (possibly folded) text. */
type HeaderField = { name: string; text: string };

/** The header block and the rest (the blank line and the body), split without touching either. */
export function splitMessage(raw: Buffer): { headers: HeaderField[]; rest: Buffer } {
  let end = raw.indexOf('\r\n\r\n');
  let separator = 4;
  const lfEnd = raw.indexOf('\n\n');
  if (end < 0 || (lfEnd >= 0 && lfEnd < end)) {
    end = lfEnd;
    separator = 2;
  }
  const headerText = end < 0 ? raw.toString('latin1') : raw.subarray(0, end).toString('latin1');
  const rest = end < 0 ? Buffer.from('\r\n') : raw.subarray(end + separator - (separator === 4 ? 2 : 1));
  const headers: HeaderField[] = [];
  for (const line of headerText.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && headers.length > 0) {
      const last = headers[headers.length - 1] as HeaderField;
      last.text += `\r\n${line}`;
    } else if (line !== '') {
      headers.push({
        name: line
          .slice(0, Math.max(0, line.indexOf(':')))
          .trim()
          .toLowerCase(),
        text: line,
      });
    }
  }
  return { headers, rest };
}

/**
 * The message with `add` header lines in front and every field named in `drop` (lower case)
 * removed; the body and all other headers byte for byte as they were (latin1 keeps every byte).
 */
export function rewriteHeaders(raw: Buffer, add: string[], drop: string[] = []): Buffer {
  const { headers, rest } = splitMessage(raw);
  const kept = headers.filter((field) => !drop.includes(field.name));
  const block = [...add.map((line) => line.replace(/[\r\n]+/g, ' ')), ...kept.map((field) => field.text)].join('\r\n');
  return Buffer.concat([Buffer.from(`${block}\r\n`, 'latin1'), rest]);
}

/** A raw message to send as it is (after the caller's header changes), signed with `key` when given. */
export type RawOutgoing = {
  userId: string;
  messageId: string;
  /** The envelope sender (an SRS address for a forward). */
  returnPath: string;
  from: string;
  to: string;
  subject: string;
  raw: Buffer;
  key: DkimKey | null;
  isTest: boolean;
};

/** Signs (when a key is given) and sends a raw message through the transport. Errors are the transport's. */
export async function sendRawMessage(transport: Transport, message: RawOutgoing): Promise<void> {
  await transport.send({
    userId: message.userId,
    campaignId: null,
    messageId: message.messageId,
    returnPath: message.returnPath,
    from: message.from,
    to: message.to,
    subject: message.subject,
    raw: message.key ? await signDkim(message.raw, message.key) : message.raw,
    isTest: message.isTest,
  });
}
